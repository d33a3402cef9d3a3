package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
)

// DemoConfig configures scripted players: mail clients that play a whole
// game with herald through real IMAP and SMTP servers, the way people
// would, reading each mail and answering their turn with a legal step.
type DemoConfig struct {
	Game     string            // the game's name
	Players  []string          // the players' addresses; their accounts exist
	Host     string            // the address that sends "new"
	Herald   string            // herald's address
	Options  map[string]string // game options
	Password func(address string) string
	IMAPAddr string // plain IMAP on loopback
	SMTPAddr string // plain SMTP on loopback
	Seed     string // seeds the players' choices
	// Transcript, if set, receives the mail conversation of the first
	// player: every mail they get and every answer they send.
	Transcript io.Writer
	Timeout    time.Duration // default 5 minutes
}

// DemoResult is what the scripted players saw.
type DemoResult struct {
	Record *adjudicator.Record // the final record, as mailed to the first player
	Final  map[string]string   // each player's final mail body
	Mails  map[string][]string // every mail body each player received
}

// RunDemo sends the "new" mail and runs one scripted player per address
// until each has received the final mail with the record.
func RunDemo(ctx context.Context, cfg DemoConfig) (*DemoResult, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	res := &DemoResult{Final: map[string]string{}, Mails: map[string][]string{}}
	var mu sync.Mutex
	errs := make(chan error, len(cfg.Players))
	var wg sync.WaitGroup
	ready := make(chan struct{}, len(cfg.Players))
	for i, addr := range cfg.Players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := &bot{cfg: cfg, addr: addr, acted: -1}
			if i == 0 {
				b.transcript = cfg.Transcript
			}
			err := b.run(ctx, ready)
			mu.Lock()
			res.Mails[addr] = b.mails
			res.Final[addr] = b.final
			if i == 0 {
				res.Record = b.record
			}
			mu.Unlock()
			if err != nil {
				errs <- fmt.Errorf("%s: %w", addr, err)
				cancel()
			}
		}()
	}
	for range cfg.Players {
		select {
		case <-ready:
		case <-ctx.Done():
			wg.Wait()
			return res, firstErr(errs, ctx.Err())
		}
	}
	cmd := "new " + cfg.Game + " players " + strings.Join(cfg.Players, " ")
	for _, k := range slices.Sorted(maps.Keys(cfg.Options)) {
		cmd += " opt " + k + "=" + cfg.Options[k]
	}
	if err := sendMail(cfg.SMTPAddr, cfg.Host, cfg.Herald, "new game", cmd+"\n", "", nil); err != nil {
		cancel()
		wg.Wait()
		return res, err
	}
	wg.Wait()
	return res, firstErr(errs, nil)
}

func firstErr(errs chan error, fallback error) error {
	select {
	case err := <-errs:
		return err
	default:
		return fallback
	}
}

// bot is one scripted player.
type bot struct {
	cfg        DemoConfig
	addr       string
	key        string
	acted      int // the last move number answered
	mails      []string
	final      string
	record     *adjudicator.Record
	transcript io.Writer
}

var (
	demoKey   = regexp.MustCompile(`Your key is (\S+)`)
	demoTurn  = regexp.MustCompile(`Game (G\d+), move (\d+): IT IS YOUR TURN`)
	demoLegal = regexp.MustCompile(`(?s)Your legal steps \(\d+\), any one per line:\n(.*?)(?:\n\n|\z)`)
)

func (b *bot) run(ctx context.Context, ready chan<- struct{}) error {
	c, err := imapclient.DialInsecure(b.cfg.IMAPAddr, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(b.addr, b.cfg.Password(b.addr)).Wait(); err != nil {
		return fmt.Errorf("login: %w", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return err
	}
	ready <- struct{}{}
	var next imap.UID = 1
	for {
		if ctx.Err() != nil {
			return fmt.Errorf("no final mail before the deadline: %w", ctx.Err())
		}
		set := imap.UIDSet{imap.UIDRange{Start: next, Stop: 0}}
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		for _, m := range msgs {
			if m.UID < next {
				continue // "n:*" always returns the last message
			}
			next = m.UID + 1
			done, err := b.read(m.FindBodySection(section))
			if err != nil || done {
				return err
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// read handles one mail; done is true on the final mail.
func (b *bot) read(raw []byte) (done bool, err error) {
	// Herald's own mails are trusted: the final record of a long game may
	// exceed the limit on a player's turn file.
	msg, err := ExtractBytes(raw, &ExtractOptions{MaxAttachment: 1 << 20})
	if err != nil {
		return false, fmt.Errorf("a mail from herald cannot be read: %w", err)
	}
	b.mails = append(b.mails, msg.Subject+"\n"+msg.Body)
	if b.transcript != nil {
		fmt.Fprintf(b.transcript, "=== to %s: %s\n%s\n\n", b.addr, msg.Subject, msg.Body)
	}
	if k := demoKey.FindStringSubmatch(msg.Body); k != nil {
		b.key = k[1]
	}
	if len(msg.Attachments) > 0 && strings.Contains(msg.Subject, "game over") {
		rec, err := adjudicator.ParseRecord(msg.Attachments[0].Name, msg.Attachments[0].Data)
		if err != nil {
			return false, fmt.Errorf("the final record does not load: %w", err)
		}
		b.record, b.final = rec, msg.Body
		return true, nil
	}
	turn := demoTurn.FindStringSubmatch(msg.Body)
	if turn == nil {
		return false, nil
	}
	n, _ := strconv.Atoi(turn[2])
	if n <= b.acted {
		return false, nil // an older prompt; already answered
	}
	legal := demoLegal.FindStringSubmatch(msg.Body)
	if legal == nil || b.key == "" {
		return false, errors.New("a turn mail without legal steps, or no key yet")
	}
	var steps []string
	for _, l := range strings.Split(legal[1], "\n") {
		if l = strings.TrimSpace(l); l != "" {
			steps = append(steps, l)
		}
	}
	// The choice depends only on the seed, the player and the steps offered,
	// never on the order mails arrive in: the same situation gets the same
	// answer, so a demo replays to the same game.
	rng := adjudicator.NewRNG(b.cfg.Seed + "\x00" + b.addr + "\x00" + strings.Join(steps, "\n"))
	step := steps[rng.IntN(len(steps))]
	b.acted = n
	name, _, _ := strings.Cut(b.addr, "@")
	turnFile := fmt.Sprintf("game: %s\nplayer: %s\nmove: %d\nsteps:\n  - %s\n", b.cfg.Game, name, n, step)
	body := "key " + b.key + "\n"
	if b.transcript != nil {
		fmt.Fprintf(b.transcript, "=== from %s: Re: %s\n%s(turn.yaml)\n%s\n", b.addr, msg.Subject, body, turnFile)
	}
	return false, sendMail(b.cfg.SMTPAddr, b.addr, b.cfg.Herald, "Re: "+msg.Subject, body, msg.MessageID, []byte(turnFile))
}

// sendMail sends a plain-text mail, with an optional turn file attached,
// over plain SMTP on loopback.
func sendMail(addr, from, to, subject, body, inReplyTo string, turn []byte) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\n",
		from, to, subject, newMessageID("demo.herald"), time.Now().UTC().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\n", inReplyTo)
	}
	text := strings.ReplaceAll(body, "\n", "\r\n")
	if turn == nil {
		fmt.Fprintf(&b, "Content-Type: text/plain; charset=utf-8\r\n\r\n%s", text)
	} else {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=herald-demo\r\n\r\n--herald-demo\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n--herald-demo\r\nContent-Type: application/yaml\r\nContent-Disposition: attachment; filename=turn.yaml\r\n\r\n%s\r\n--herald-demo--\r\n",
			text, strings.ReplaceAll(string(turn), "\n", "\r\n"))
	}
	// Plain SMTP on loopback: smtp.SendMail would insist on STARTTLS.
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, bytes.NewReader(b.Bytes())); err != nil {
		return err
	}
	return c.Quit()
}
