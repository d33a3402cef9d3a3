package embedded_test

import (
	"fmt"
	"log"
	"os"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/heraldgames/herald/mail/embedded"
)

// A mail system for herald on a fresh machine: start it, give herald an
// account, and read what players send with any IMAP client.
func Example() {
	dir, err := os.MkdirTemp("", "herald-mail")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	srv, err := embedded.Start(embedded.Config{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddAccount("herald@localhost", "s3cret"); err != nil {
		log.Fatal(err)
	}

	// What the SMTP server does with a player's mail (send to
	// srv.SMTPAddr() to go through SMTP instead).
	raw := []byte("From: alice@localhost\r\nSubject: move\r\n\r\nplay 3\r\n")
	if err := srv.Deliver("alice@localhost", []string{"herald@localhost"}, raw); err != nil {
		log.Fatal(err)
	}

	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("herald@localhost", "s3cret").Wait(); err != nil {
		log.Fatal(err)
	}
	if err := c.Create("herald/processed", nil).Wait(); err != nil {
		log.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("INBOX:", sel.NumMessages)
	if _, err := c.Move(imap.UIDSetNum(1), "herald/processed").Wait(); err != nil {
		log.Fatal(err)
	}
	st, err := c.Status("herald/processed", &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("herald/processed:", *st.NumMessages)
	// Output:
	// INBOX: 1
	// herald/processed: 1
}
