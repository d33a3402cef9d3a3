package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/heraldgames/herald/notation"
	"github.com/jackc/pgx/v5/pgconn"
	"gopkg.in/yaml.v3"
)

// A serve config file (herald serve --config FILE) is a YAML mapping whose
// keys are serve's flag names and whose values are what the flags take:
//
//	# /etc/herald/serve.yaml
//	address: herald@example.org
//	imap-host: imap.example.org:993
//	smtp-host: smtp.example.org:465
//	password-file: password        # /etc/herald/password
//	data: /var/lib/herald
//	poll: 1m
//	hosts: [you@example.org]
//
// Flags on the command line win over the file. Relative paths (data,
// password-file) are relative to the file's directory, and ~/ is the home
// directory. The file is read strictly: an unknown key, a value of the wrong
// type or a second document is an error with file:line:col. A password is
// refused: it belongs in password-file, not in a file that is easily shared
// or committed.

// configKind is what a config key's value is.
type configKind int

const (
	configString   configKind = iota // a non-empty string
	configPath                       // a file or directory, relative to the config file
	configHostPort                   // host:port
	configSecurity                   // tls, starttls or none
	configDuration                   // a Go duration, like 30s
	configList                       // a list of addresses, the flag's comma-separated value
	configBool                       // true or false
	configNames                      // a host name or a list of them, the flag's comma-separated value
	configStore                      // a PostgreSQL URL without a password
)

// configKey is one key of a serve config file: the serve flag it sets.
type configKey struct {
	name string
	kind configKind
	what string // what its value is, for errors
}

// serveConfigKeys are the keys of a serve config file: serve's flags but
// --config (TestServeConfigKeys keeps the two lists the same).
var serveConfigKeys = []configKey{
	{"data", configPath, "the data directory"},
	{"store", configStore, "a PostgreSQL URL, like postgres://herald@db.example.org/herald"},
	{"worker", configString, "this worker's name, like w1"},
	{"address", configString, "herald's mail address"},
	{"imap-host", configHostPort, "the IMAP server as host:port, like imap.example.org:993"},
	{"smtp-host", configHostPort, "the SMTP server as host:port, like smtp.example.org:465"},
	{"user", configString, "the login for both servers"},
	{"password-file", configPath, "the file holding the password"},
	{"auth", configString, "password or oauth2"},
	{"oauth-token-url", configString, "the provider's token endpoint, like https://oauth2.googleapis.com/token"},
	{"oauth-client-id", configString, "the id of the application registered with the provider"},
	{"oauth-client-secret-file", configPath, "the file holding the client secret"},
	{"oauth-refresh-token-file", configPath, "the file holding the refresh token (herald oauth login writes it)"},
	{"security", configSecurity, "tls, starttls or none"},
	{"poll", configDuration, "a duration with its unit, like 30s or 2m"},
	{"hosts", configList, "a list of the addresses allowed to start games, like [you@example.org]"},
	{"local-imap", configHostPort, "the embedded IMAP server's address as host:port, like 127.0.0.1:1143"},
	{"local-smtp", configHostPort, "the embedded SMTP server's address as host:port, like 127.0.0.1:1025"},
	{"reply-tokens", configString, "on or off"},
	{"pictures", configString, "on or off"},
	{"hints", configString, "on or off"},
	{"http", configHostPort, "the address of the games' web pages as host:port, like 127.0.0.1:8080"},
	{"http-url", configString, "the URL players reach the pages by, like https://games.example.org"},
	{"send-rate", configString, "mails per time, like 100/h, 30/min or 2000/d"},
	{"trust-authserv-id", configNames, "the authserv-id of your provider's receiving server, like mx.example.org, or a list of them"},
	{"require-dmarc", configBool, "true or false"},
	{"verify-dkim", configBool, "true or false"},
}

// applyServeConfig reads the serve config file path and sets each flag of fs
// it names, unless the command line set that flag. Its errors are usage
// errors: a bad value in the file is a bad flag.
func applyServeConfig(fs *flag.FlagSet, path string) error {
	return applyConfigKeys(fs, path, nil)
}

// applyConfigKeys is applyServeConfig for the keys only (all when nil):
// a command other than serve reads the keys it has flags for.
func applyConfigKeys(fs *flag.FlagSet, path string, only []string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return usagef("--config: %v", err)
	}
	vals, err := parseServeConfig(path, data)
	if err != nil {
		return usagef("%v", err)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, k := range sortedKeys(vals) {
		if given[k] || only != nil && !slices.Contains(only, k) {
			continue
		}
		if err := fs.Set(k, vals[k]); err != nil {
			return usagef("%s: %s: %v", path, k, err)
		}
	}
	return nil
}

// parseServeConfig reads a serve config file called name (its directory is
// where relative paths start) and returns the flag values it gives, as the
// flags would be written on the command line, by flag name. Errors are
// *notation.Error values with name, line and column.
func parseServeConfig(name string, data []byte) (map[string]string, error) {
	errAt := func(n *yaml.Node, format string, args ...any) *notation.Error {
		return &notation.Error{File: name, Pos: notation.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
	}
	notYAML := func(err error) error {
		return &notation.Error{File: name, Pos: notation.Pos{Line: notation.YAMLErrorLine(err), Col: 1},
			Msg: "not a YAML config file: " + notation.YAMLErrorText(err)}
	}
	vals := map[string]string{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return vals, nil // an empty file sets nothing
	} else if err != nil {
		return nil, notYAML(err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, errAt(&more, "a config file is one YAML document; this is a second one")
	} else if !errors.Is(err, io.EOF) {
		return nil, notYAML(err)
	}
	if len(doc.Content) == 0 {
		return vals, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "a serve config file is a mapping of serve's flags to values, like data: herald-data")
	}
	var vocab notation.Vocabulary
	for _, k := range serveConfigKeys {
		vocab = append(vocab, notation.Term{Name: k.name})
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := root.Content[i], root.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			return nil, errAt(kn, "a key is the name of a flag of herald serve, like data")
		}
		if isPasswordKey(kn.Value) {
			// Say nothing of the value: it is a secret.
			return nil, errAt(kn, "%s: herald takes no password from a config file, which is easily shared or committed; "+
				"put it alone in a file only you can read and give that file as password-file", kn.Value)
		}
		switch kn.Value {
		case "config":
			return nil, errAt(kn, "config: a config file cannot name another")
		}
		i := configKeyIndex(kn.Value)
		if i < 0 {
			e := errAt(kn, "unknown key %q", kn.Value)
			if e.Suggest = vocab.Suggest(kn.Value, notation.English); len(e.Suggest) == 0 {
				e.Msg += fmt.Sprintf(" (keys: %s)", strings.Join(vocab.Names(), ", "))
			} else {
				e.Suggest = e.Suggest[:1]
			}
			return nil, e
		}
		key := serveConfigKeys[i]
		if first, dup := seen[key.name]; dup {
			return nil, errAt(kn, "%s is given twice (first on line %d)", key.name, first.Line)
		}
		seen[key.name] = kn
		v, err := configValue(name, key, vn, errAt)
		if err != nil {
			return nil, err
		}
		vals[key.name] = v
	}
	return vals, nil
}

// isPasswordKey reports whether key is a password itself, under any usual
// spelling (password, Passwd, smtp_password...), rather than password-file.
func isPasswordKey(key string) bool {
	k := strings.ReplaceAll(notation.Fold(key), "_", "-")
	return k == "password" || k == "passwd" || k == "pass" || k == "secret" ||
		strings.HasSuffix(k, "-password") || strings.HasSuffix(k, "-passwd")
}

// configKeyIndex returns the index of the config key called name, or -1.
func configKeyIndex(name string) int {
	for i, k := range serveConfigKeys {
		if k.name == name {
			return i
		}
	}
	return -1
}

// configValue checks the value node n of key and returns it as the flag
// takes it.
func configValue(file string, key configKey, n *yaml.Node, errAt func(*yaml.Node, string, ...any) *notation.Error) (string, error) {
	n = unalias(n)
	if key.kind == configList {
		if n.Kind != yaml.SequenceNode {
			return "", errAt(n, "%s: expected %s, got %s", key.name, key.what, describeNode(n))
		}
		if len(n.Content) == 0 {
			return "", errAt(n, "%s: the list is empty; leave the key out to let anyone start games", key.name)
		}
		var items []string
		for _, item := range n.Content {
			item = unalias(item)
			if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || item.Value == "" {
				return "", errAt(item, "%s: expected an address in the list, got %s", key.name, describeNode(item))
			}
			s := item.Value
			if strings.ContainsAny(s, ", \t\r\n") {
				return "", errAt(item, "%s: %q is not an address: it has a comma or a space", key.name, s)
			}
			items = append(items, s)
		}
		return strings.Join(items, ","), nil
	}
	if key.kind == configBool {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			return "", errAt(n, "%s: expected %s, got %s", key.name, key.what, describeNode(n))
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			return "", errAt(n, "%s: expected %s, got %s", key.name, key.what, describeNode(n))
		}
		return strconv.FormatBool(b), nil
	}
	if key.kind == configNames && n.Kind == yaml.SequenceNode {
		var items []string
		for _, item := range n.Content {
			item = unalias(item)
			if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || item.Value == "" || strings.ContainsAny(item.Value, ", \t") {
				return "", errAt(item, "%s: expected a host name in the list, got %s", key.name, describeNode(item))
			}
			items = append(items, item.Value)
		}
		if len(items) == 0 {
			return "", errAt(n, "%s: the list is empty; leave the key out to trust no server", key.name)
		}
		return strings.Join(items, ","), nil
	}
	if key.kind == configDuration && n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		return "", errAt(n, "%s: expected %s, got the number %s without a unit", key.name, key.what, n.Value)
	}
	s, err := configScalar(key, n, errAt)
	if err != nil {
		return "", err
	}
	switch key.kind {
	case configPath:
		if s == "~" || strings.HasPrefix(s, "~/") {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", errAt(n, "%s: %q: no home directory for ~: %v", key.name, s, err)
			}
			return filepath.Join(home, s[1:]), nil
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(filepath.Dir(file), s)
		}
	case configHostPort:
		_, port, err := net.SplitHostPort(s)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 0 || p > 65535 {
			return "", errAt(n, "%s: expected %s, got %q", key.name, key.what, s)
		}
	case configSecurity:
		if s != "tls" && s != "starttls" && s != "none" {
			return "", errAt(n, "%s: expected %s, got %q", key.name, key.what, s)
		}
	case configStore:
		if err := checkStoreURL(s); err != nil {
			return "", errAt(n, "%s: %v", key.name, err)
		}
		if cfg, _ := pgconn.ParseConfig(s); cfg != nil && cfg.Password != "" {
			// Say nothing of the password: it is a secret.
			return "", errAt(n, "%s: herald takes no password from a config file, which is easily shared or committed; "+
				"leave it out of the URL and put it in ~/.pgpass (or PGPASSFILE), which PostgreSQL's clients read", key.name)
		}
	case configDuration:
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return "", errAt(n, "%s: expected %s, got %q", key.name, key.what, s)
		}
	}
	return s, nil
}

// configScalar returns the string value of n, which must be a non-empty
// string: a number or a boolean where a name or path is expected is a
// mistake to point at, not to guess about.
func configScalar(key configKey, n *yaml.Node, errAt func(*yaml.Node, string, ...any) *notation.Error) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", errAt(n, "%s: expected %s, got %s", key.name, key.what, describeNode(n))
	}
	if n.Value == "" {
		return "", errAt(n, "%s: expected %s, got an empty string", key.name, key.what)
	}
	return n.Value, nil
}

// unalias returns the node an alias stands for (the node itself if it is
// not an alias).
func unalias(n *yaml.Node) *yaml.Node {
	for range 8 { // an alias names an anchored node, not another alias; be safe
		if n.Kind != yaml.AliasNode || n.Alias == nil {
			break
		}
		n = n.Alias
	}
	return n
}

// describeNode says what a node is, for "expected X, got Y".
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int", "!!float":
			return "the number " + n.Value + " (quote it if it is a name)"
		case "!!str":
			if n.Value == "" {
				return "an empty string"
			}
			return strconv.Quote(n.Value)
		}
		return fmt.Sprintf("a value tagged %s", n.ShortTag())
	}
	return "an alias"
}
