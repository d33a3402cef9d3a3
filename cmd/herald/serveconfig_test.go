package main

import (
	"errors"
	"flag"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/mail"
	"github.com/heraldgames/herald/notation"
)

// serveConfigCase is one serve config file: the flag values it gives, or
// the error it gets (the whole one-line message).
type serveConfigCase struct {
	name string
	file string
	want map[string]string
	err  string
}

// configName is the name the table's files are read under: relative paths
// in them start from its directory, conf.
var configName = filepath.Join("conf", "serve.yaml")

var serveConfigCases = []serveConfigCase{
	{name: "provider", file: `# herald at example.org
address: herald@example.org
imap-host: imap.example.org:993
smtp-host: smtp.example.org:465
user: herald
password-file: password
security: starttls
data: /var/lib/herald
poll: 1m30s
hosts: [you@example.org, them@example.org]
local-imap: 127.0.0.1:1143
local-smtp: "[::1]:1025"
`, want: map[string]string{
		"address": "herald@example.org", "imap-host": "imap.example.org:993", "smtp-host": "smtp.example.org:465",
		"user": "herald", "password-file": filepath.Join("conf", "password"), "security": "starttls",
		"data": "/var/lib/herald", "poll": "1m30s", "hosts": "you@example.org,them@example.org",
		"local-imap": "127.0.0.1:1143", "local-smtp": "[::1]:1025",
	}},
	{name: "block list and relative paths", file: "data: ../herald-data\nhosts:\n  - you@example.org   # the host\n  - them@example.org\n",
		want: map[string]string{"data": "herald-data", "hosts": "you@example.org,them@example.org"}},
	{name: "quoted number", file: "user: \"12345\"\n", want: map[string]string{"user": "12345"}},
	{name: "alias", file: "address: &me herald@example.org\nuser: *me\n", want: map[string]string{"address": "herald@example.org", "user": "herald@example.org"}},
	{name: "empty", file: "", want: map[string]string{}},
	{name: "comments only", file: "# nothing yet\n", want: map[string]string{}},
	{name: "empty mapping", file: "{}\n", want: map[string]string{}},

	{name: "provider's limits and verdict", file: "send-rate: 100/h\ntrust-authserv-id: mx.example.org\nrequire-dmarc: true\n",
		want: map[string]string{"send-rate": "100/h", "trust-authserv-id": "mx.example.org", "require-dmarc": "true"}},
	{name: "several authserv-ids", file: "trust-authserv-id: [mx1.example.org, mx2.example.org]\nrequire-dmarc: false\n",
		want: map[string]string{"trust-authserv-id": "mx1.example.org,mx2.example.org", "require-dmarc": "false"}},
	{name: "own DKIM check", file: "verify-dkim: true\nrequire-dmarc: true\n",
		want: map[string]string{"verify-dkim": "true", "require-dmarc": "true"}},
	{name: "verify-dkim not a boolean", file: "verify-dkim: on\n",
		err: `conf/serve.yaml:1:14: verify-dkim: expected true or false, got "on"`},
	{name: "require-dmarc not a boolean", file: "require-dmarc: yes please\n",
		err: `conf/serve.yaml:1:16: require-dmarc: expected true or false, got "yes please"`},
	{name: "send_rate", file: "send_rate: 100/h\n",
		err: `conf/serve.yaml:1:1: unknown key "send_rate"; did you mean "send-rate"?`},
	{name: "unknown key", file: "data: d\nadress: herald@example.org\n",
		err: `conf/serve.yaml:2:1: unknown key "adress"; did you mean "address"?`},
	{name: "underscore", file: "imap_host: imap.example.org:993\n",
		err: `conf/serve.yaml:1:1: unknown key "imap_host"; did you mean "imap-host"?`},
	{name: "store", file: "store: postgres://herald@db.example.org/herald\n", want: map[string]string{"store": "postgres://herald@db.example.org/herald"}},
	{name: "store not postgres", file: "store: mysql://x/y\n",
		err: `conf/serve.yaml:1:8: store: "mysql://x/y" is not a PostgreSQL URL; expected postgres://USER@HOST/DATABASE (or leave it out for SQLite in the data directory)`},
	{name: "store with a password", file: "store: postgres://herald:s3cret@db.example.org/herald\n",
		err: `conf/serve.yaml:1:8: store: herald takes no password from a config file, which is easily shared or committed; leave it out of the URL and put it in ~/.pgpass (or PGPASSFILE), which PostgreSQL's clients read`},
	{name: "unknown key far from all", file: "frobnicate: 1\n",
		err: `conf/serve.yaml:1:1: unknown key "frobnicate" (keys: data, store, worker, address, imap-host, smtp-host, user, password-file, auth, oauth-token-url, oauth-client-id, oauth-client-secret-file, oauth-refresh-token-file, security, poll, hosts, local-imap, local-smtp, reply-tokens, pictures, hints, http, http-url, send-rate, trust-authserv-id, require-dmarc, verify-dkim)`},
	{name: "password", file: "address: herald@example.org\n  # secret\npassword: hunter2\n",
		err: "conf/serve.yaml:3:1: password: herald takes no password from a config file, which is easily shared or committed; " +
			"put it alone in a file only you can read and give that file as password-file"},
	{name: "password in capitals", file: "Password: hunter2\n",
		err: "conf/serve.yaml:1:1: Password: herald takes no password from a config file, which is easily shared or committed; " +
			"put it alone in a file only you can read and give that file as password-file"},
	{name: "smtp_password", file: "smtp_password: hunter2\n",
		err: "conf/serve.yaml:1:1: smtp_password: herald takes no password from a config file, which is easily shared or committed; " +
			"put it alone in a file only you can read and give that file as password-file"},
	{name: "password_file", file: "password_file: p\n", err: `conf/serve.yaml:1:1: unknown key "password_file"; did you mean "password-file"?`},
	{name: "config", file: "config: other.yaml\n", err: "conf/serve.yaml:1:1: config: a config file cannot name another"},
	{name: "poll without unit", file: "poll: 30\n",
		err: "conf/serve.yaml:1:7: poll: expected a duration with its unit, like 30s or 2m, got the number 30 without a unit"},
	{name: "poll not a duration", file: "poll: soon\n", err: `conf/serve.yaml:1:7: poll: expected a duration with its unit, like 30s or 2m, got "soon"`},
	{name: "poll negative", file: "poll: -5s\n", err: `conf/serve.yaml:1:7: poll: expected a duration with its unit, like 30s or 2m, got "-5s"`},
	{name: "hosts not a list", file: "hosts: you@example.org\n",
		err: `conf/serve.yaml:1:8: hosts: expected a list of the addresses allowed to start games, like [you@example.org], got "you@example.org"`},
	{name: "hosts empty", file: "hosts: []\n", err: "conf/serve.yaml:1:8: hosts: the list is empty; leave the key out to let anyone start games"},
	{name: "hosts item a list", file: "hosts: [a@example.org, [b@example.org]]\n",
		err: "conf/serve.yaml:1:24: hosts: expected an address in the list, got a list"},
	{name: "hosts item with a comma", file: "hosts:\n  - \"a@example.org,b@example.org\"\n",
		err: `conf/serve.yaml:2:5: hosts: "a@example.org,b@example.org" is not an address: it has a comma or a space`},
	{name: "security", file: "security: ssl\n", err: `conf/serve.yaml:1:11: security: expected tls, starttls or none, got "ssl"`},
	{name: "host without port", file: "imap-host: imap.example.org\n",
		err: `conf/serve.yaml:1:12: imap-host: expected the IMAP server as host:port, like imap.example.org:993, got "imap.example.org"`},
	{name: "port by name", file: "smtp-host: smtp.example.org:smtps\n",
		err: `conf/serve.yaml:1:12: smtp-host: expected the SMTP server as host:port, like smtp.example.org:465, got "smtp.example.org:smtps"`},
	{name: "number for a path", file: "data: 42\n", err: "conf/serve.yaml:1:7: data: expected the data directory, got the number 42 (quote it if it is a name)"},
	{name: "nothing", file: "data:\n", err: "conf/serve.yaml:1:6: data: expected the data directory, got nothing"},
	{name: "empty string", file: "data: \"\"\n", err: "conf/serve.yaml:1:7: data: expected the data directory, got an empty string"},
	{name: "list for a string", file: "address: [a, b]\n", err: "conf/serve.yaml:1:10: address: expected herald's mail address, got a list"},
	{name: "boolean", file: "user: true\n", err: "conf/serve.yaml:1:7: user: expected the login for both servers, got the boolean true"},
	{name: "twice", file: "data: a\npoll: 1m\ndata: b\n", err: "conf/serve.yaml:3:1: data is given twice (first on line 1)"},
	{name: "two documents", file: "data: a\n---\ndata: b\n", err: "conf/serve.yaml:2:1: a config file is one YAML document; this is a second one"},
	{name: "not a mapping", file: "- data\n", err: "conf/serve.yaml:1:1: a serve config file is a mapping of serve's flags to values, like data: herald-data"},
	{name: "key not a name", file: "[data]: d\n", err: "conf/serve.yaml:1:1: a key is the name of a flag of herald serve, like data"},
	{name: "not YAML", file: "data: d\nuser: u: v\n", err: "conf/serve.yaml:2:1: not a YAML config file: mapping values are not allowed in this context"},
	{name: "tab", file: "data: d\n\tpoll: 1m\n", err: "conf/serve.yaml:2:1: not a YAML config file: found a tab character that violates indentation"},
	{name: "unclosed list", file: "hosts: [a@example.org\n", err: "conf/serve.yaml:1:1: not a YAML config file: did not find expected ',' or ']'"},
}

func TestParseServeConfig(t *testing.T) {
	for _, c := range serveConfigCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseServeConfig(configName, []byte(c.file))
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("parseServeConfig = %v, %v\nwant error %s", got, err, c.err)
				}
				var ne *notation.Error
				if !errors.As(err, &ne) || ne.File != configName {
					t.Errorf("the error is not a *notation.Error naming the file: %#v", err)
				}
				if strings.Contains(c.file, "hunter2") && strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil || !maps.Equal(got, c.want) {
				t.Errorf("parseServeConfig = %v, %v\nwant %v", got, err, c.want)
			}
		})
	}
}

// TestServeConfigHome: ~/ in a path is the home directory.
func TestServeConfigHome(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	got, err := parseServeConfig(configName, []byte("password-file: ~/.herald-password\n"))
	if want := filepath.Join(home, ".herald-password"); err != nil || got["password-file"] != want {
		t.Errorf("password-file = %q, %v; want %q", got["password-file"], err, want)
	}
}

// TestServeConfigKeys: the keys of a config file are serve's flags but
// --config.
func TestServeConfigKeys(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cmdServe.flags(fs)
	var flags, keys []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != "config" {
			flags = append(flags, f.Name)
		}
	})
	for _, k := range serveConfigKeys {
		keys = append(keys, k.name)
	}
	slices.Sort(keys)
	if !slices.Equal(flags, keys) {
		t.Errorf("serve's flags %v, config keys %v", flags, keys)
	}
}

// serveCfg returns what herald serve ARGS would run with, in dir.
func serveCfg(t *testing.T, args ...string) (cfgResult, error) {
	t.Helper()
	fs := flag.NewFlagSet("herald serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cmdServe.flags(fs)
	if _, err := parseInterleaved(fs, args); err != nil {
		t.Fatal(err)
	}
	cfg, err := serveConfig(&env{fs: fs, stdout: io.Discard, stderr: io.Discard})
	return cfgResult{cfg.Dir, cfg.Address, cfg.Hosts, cfg.IMAP.Poll, cfg.IMAP.Server.Addr, cfg.IMAP.Server.Username,
		cfg.IMAP.Server.Password, string(cfg.IMAP.Server.Security), cfg.EmbeddedIMAPAddr}, err
}

// cfgResult is the part of mail.RunConfig the flags decide.
type cfgResult struct {
	Dir, Address string
	Hosts        []string
	Poll         time.Duration
	IMAP, User   string
	Password     string
	Security     string
	LocalIMAP    string
}

// TestServeConfigFlags: flags on the command line win over the file,
// wherever they are; the file wins over the defaults; paths in the file are
// relative to its directory.
func TestServeConfigFlags(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "etc", "serve.yaml")
	if err := os.MkdirAll(filepath.Dir(conf), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(conf, `address: herald@example.org
imap-host: imap.example.org:993
smtp-host: smtp.example.org:465
password-file: secret
security: starttls
data: ../var
poll: 1m
hosts: [you@example.org]
local-imap: 127.0.0.1:1143
`)
	write(filepath.Join(dir, "etc", "secret"), "s3cret\nignored\n")
	other := filepath.Join(dir, "other-secret")
	write(other, "0ther\n")

	fromFile := cfgResult{Dir: filepath.Join(dir, "var"), Address: "herald@example.org", Hosts: []string{"you@example.org"},
		Poll: time.Minute, IMAP: "imap.example.org:993", User: "herald@example.org", Password: "s3cret", Security: "starttls",
		LocalIMAP: "127.0.0.1:1143"}
	for _, c := range []struct {
		name string
		args []string
		want func(c *cfgResult)
	}{
		{"file only", []string{"--config", conf}, func(c *cfgResult) {}},
		{"flags after", []string{"--config", conf, "--poll", "5s", "--data", "here", "--user", "u"},
			func(c *cfgResult) { c.Poll, c.Dir, c.User = 5*time.Second, "here", "u" }},
		{"flags before", []string{"--hosts", "a@x.org,b@x.org", "--password-file", other, "--security", "tls", "--config", conf},
			func(c *cfgResult) { c.Hosts, c.Password, c.Security = []string{"a@x.org", "b@x.org"}, "0ther", "tls" }},
		{"a flag set to its default still wins", []string{"--config", conf, "--poll", "30s", "--local-imap", "127.0.0.1:0"},
			func(c *cfgResult) { c.Poll, c.LocalIMAP = 30*time.Second, "127.0.0.1:0" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := fromFile
			want.Hosts = slices.Clone(want.Hosts)
			c.want(&want)
			got, err := serveCfg(t, c.args...)
			if err != nil || !slices.Equal(got.Hosts, want.Hosts) {
				t.Fatalf("serve %v: %+v, %v\nwant %+v", c.args, got, err, want)
			}
			got.Hosts, want.Hosts = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("serve %v:\n got %+v\nwant %+v", c.args, got, want)
			}
		})
	}

	// Without --config, the defaults.
	got, err := serveCfg(t)
	if err != nil || got.Dir != "herald-data" || got.Poll != 30*time.Second || got.IMAP != "" {
		t.Errorf("serve without a config: %+v, %v", got, err)
	}
}

// TestServeConfigErrors: a bad or missing config file is a usage error
// (exit 2) that names the file, line and column, and serve starts nothing.
func TestServeConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, file string
		stderr     []string
	}{
		{"missing", "", []string{"herald serve: --config: open ", "missing.yaml: no such file or directory\n"}},
		{"typo", "data: d\n\npol: 1m\n", []string{"herald serve: ", "typo.yaml:3:1: unknown key \"pol\"; did you mean \"poll\"?\n", "usage: herald serve [--config FILE]"}},
		{"password", "address: herald@example.org\npassword: hunter2\n", []string{"password.yaml:2:1: password: herald takes no password from a config file"}},
		{"half", "smtp-host: smtp.example.org:465\n", []string{"herald serve: --smtp-host needs --imap-host"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".yaml")
			if c.file != "" {
				if err := os.WriteFile(path, []byte(c.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, dir)
			r := herald(t, "", "serve", "--config", path, "--data", filepath.Join(dir, "data"))
			if r.code != 2 || r.stdout != "" {
				t.Errorf("want exit 2 and nothing on stdout:\n%v", r)
			}
			for _, s := range c.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%v", s, r)
				}
			}
			if strings.Contains(r.stderr, "hunter2") {
				t.Errorf("the error shows the password:\n%v", r)
			}
			checkUnchanged(t, dir, before, r)
		})
	}
}

// FuzzServeConfig: any file gives either flag values that serve's flags
// accept, each for a key of the list, or an error that names the file.
func FuzzServeConfig(f *testing.F) {
	for _, c := range serveConfigCases {
		f.Add([]byte(c.file))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := parseServeConfig("fuzz.yaml", data)
		if err != nil {
			var ne *notation.Error
			if !errors.As(err, &ne) || ne.File != "fuzz.yaml" || ne.Msg == "" {
				t.Fatalf("error %#v is not a *notation.Error naming the file", err)
			}
			return
		}
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cmdServe.flags(fs)
		for k, v := range vals {
			if k == "config" || configKeyIndex(k) < 0 {
				t.Fatalf("key %q is not a config key", k)
			}
			if err := fs.Set(k, v); err != nil {
				t.Fatalf("--%s %q from the file: %v", k, v, err)
			}
		}
	})
}

// TestServeConfigREADME: the example config file of README.md reads.
func TestServeConfigREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip(err)
	}
	_, block, ok := strings.Cut(string(readme), "```yaml\n# /etc/herald/serve.yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no example serve config (a yaml block starting # /etc/herald/serve.yaml)")
	}
	got, err := parseServeConfig("/etc/herald/serve.yaml", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	if got["password-file"] != filepath.Join("/etc/herald", "password") || got["hosts"] != "you@example.org" || got["poll"] != "1m" {
		t.Errorf("README's config: %v", got)
	}
}

// TestServeSenderFlags: send-rate, trust-authserv-id, require-dmarc and
// verify-dkim reach the mail service; a bad value is a usage error saying why.
func TestServeSenderFlags(t *testing.T) {
	run := func(args ...string) (mail.RunConfig, error) {
		fs := flag.NewFlagSet("herald serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cmdServe.flags(fs)
		if _, err := parseInterleaved(fs, args); err != nil {
			t.Fatal(err)
		}
		return serveConfig(&env{fs: fs, stdout: io.Discard, stderr: io.Discard})
	}
	cfg, err := run("--send-rate", "30/min", "--trust-authserv-id", "mx1.example.org, mx2.example.org", "--require-dmarc")
	if err != nil || cfg.SMTP.Rate != (mail.Rate{N: 30, Per: time.Minute}) || !slices.Equal(cfg.TrustAuthservIDs, []string{"mx1.example.org", "mx2.example.org"}) || !cfg.RequireDMARC {
		t.Errorf("serveConfig = rate %v, trust %q, require %v, %v", cfg.SMTP.Rate, cfg.TrustAuthservIDs, cfg.RequireDMARC, err)
	}
	if cfg.VerifyDKIM {
		t.Errorf("serveConfig: verify-dkim without the flag")
	}
	// herald's own DKIM check is a proof require-dmarc can ask for, without
	// a provider's verdict.
	if cfg, err := run("--verify-dkim", "--require-dmarc"); err != nil || !cfg.VerifyDKIM || !cfg.RequireDMARC || len(cfg.TrustAuthservIDs) != 0 {
		t.Errorf("serve --verify-dkim --require-dmarc = verify %v, require %v, trust %q, %v", cfg.VerifyDKIM, cfg.RequireDMARC, cfg.TrustAuthservIDs, err)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"--send-rate", "100 an hour"}, "--send-rate: mail: send rate \"100 an hour\": expected mails/unit"},
		{[]string{"--require-dmarc"}, "--require-dmarc needs --trust-authserv-id (the servers whose DMARC verdict herald trusts) or --verify-dkim"},
		{[]string{"--trust-authserv-id", "mx.example.org; dmarc=pass"}, "is not an authserv-id"},
	} {
		_, err := run(c.args...)
		var ue *usageError
		if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, &ue) {
			t.Errorf("serve %q: error %v, want a usage error with %q", c.args, err, c.err)
		}
	}
}
