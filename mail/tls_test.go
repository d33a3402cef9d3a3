package mail

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// testCert returns a server certificate for 127.0.0.1 and a client config
// that trusts it, as a provider's real certificate would be trusted.
func testCert(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}

// TestProviderTLS runs the intake and the outbox against servers that
// speak implicit TLS and STARTTLS, with login, as a real provider does.
func TestProviderTLS(t *testing.T) {
	serverTLS, clientTLS := testCert(t)
	for _, sec := range []Security{TLS, StartTLS} {
		t.Run(string(sec), func(t *testing.T) {
			f := newFixture(t)
			f.start()

			// IMAP with one mail to process.
			mem := imapmemserver.New()
			u := imapmemserver.NewUser("herald@herald.test", "pw")
			u.Create("INBOX", nil)
			mem.AddUser(u)
			opts := &imapserver.Options{
				NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
					return mem.NewSession(), nil, nil
				},
				Caps:   imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}, imap.CapStartTLS: {}},
				Logger: discardLogger{},
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			if sec == TLS {
				ln = tls.NewListener(ln, serverTLS)
			} else {
				opts.TLSConfig = serverTLS
			}
			srv := imapserver.New(opts)
			go srv.Serve(ln)
			defer srv.Close()
			raw := f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nkeep plain village")
			u.Append("INBOX", bytes.NewReader(raw), &imap.AppendOptions{})

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			in := NewIntake(IntakeConfig{Server: Server{Addr: ln.Addr().String(), Security: sec, Username: "herald@herald.test", Password: "pw", TLSConfig: clientTLS}}, f.svc)
			in.crash = func(p string) bool {
				if p == "moved" {
					cancel()
				}
				return false
			}
			in.session(ctx)
			if g, _ := f.st.Game(context.Background(), 1); len(g.Record.Moves) != 1 {
				t.Fatalf("over %s the move was not applied", sec)
			}

			// SMTP: every queued reply goes out over TLS.
			sink := &smtpSink{}
			ssrv := smtp.NewServer(sink)
			ssrv.Domain = "127.0.0.1"
			sln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			if sec == TLS {
				sln = tls.NewListener(sln, serverTLS)
			} else {
				ssrv.TLSConfig = serverTLS
			}
			go ssrv.Serve(sln)
			defer ssrv.Close()
			out := NewOutbox(OutboxConfig{Server: Server{Addr: sln.Addr().String(), Security: sec, TLSConfig: clientTLS}}, f.svc)
			pending, _ := f.st.Pending(context.Background())
			n, err := out.SendDue(context.Background())
			if err != nil || n != pending || len(sink.mails()) != pending {
				t.Fatalf("over %s: sent %d of %d (%v); the server got %d", sec, n, pending, err, len(sink.mails()))
			}
		})
	}
	// Plain text to a host that is not loopback is refused before any
	// connection: herald never sends a password in clear over a network.
	if err := (Server{Addr: "mail.example.org:143", Security: Plain}).checkPlain(); err == nil {
		t.Errorf("a plain connection to a remote host was allowed")
	}
}

// TestTLSToPlainServer checks that serve configured for implicit TLS
// against a server that speaks plain text on that port stops at once and
// says so, suggesting starttls or none, rather than retrying forever
// (issue 15, item 17).
func TestTLSToPlainServer(t *testing.T) {
	f := newFixture(t)
	_, smtpAddr := startSink(t)
	for _, tc := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"imap", NewIntake(IntakeConfig{Server: Server{Addr: memIMAP(t), Security: TLS, Username: "herald@herald.test", Password: "pw"}}, f.svc).Run},
		{"smtp", NewOutbox(OutboxConfig{Server: Server{Addr: smtpAddr, Security: TLS}}, f.svc).Run},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := tc.run(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "does not speak TLS") || !strings.Contains(err.Error(), "starttls") || !strings.Contains(err.Error(), "none") {
			t.Errorf("%s: Run = %v, want at once an error saying the server does not speak TLS, suggesting starttls or none", tc.name, err)
		}
	}
}
