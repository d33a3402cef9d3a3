package mail

// Text clean-up for Extract: format=flowed (RFC 3676), quoted replies and
// signatures, and HTML to plain text.

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// unflow joins the soft-broken lines of a format=flowed text (RFC 3676
// section 4): a line ending in a space continues on the next line of the same
// quote depth. Space-stuffing is undone, and with delSp the space that marks
// a soft break is deleted. Each joined line has the number of its first
// physical line. Quoted lines are rebuilt with their '>' marks so that later
// steps still see them as quotes.
func unflow(physical []string, delSp bool) []Line {
	var out []Line
	var cur strings.Builder
	curNo, curDepth, open := 0, 0, false
	flush := func() {
		text := cur.String()
		if curDepth > 0 {
			text = strings.Repeat(">", curDepth) + " " + text
		}
		out = append(out, Line{No: curNo, Text: text})
		cur.Reset()
		open = false
	}
	for i, l := range physical {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(l[depth:], " ")
		soft := strings.HasSuffix(content, " ") && content != "-- "
		if soft && delSp {
			content = content[:len(content)-1]
		}
		if open && (depth != curDepth || content == "-- ") {
			// A paragraph never flows into another quote depth or into
			// the signature separator.
			flush()
		}
		if !open {
			curNo, curDepth, open = i+1, depth, true
		}
		cur.WriteString(content)
		if !soft {
			flush()
		}
	}
	if open {
		flush()
	}
	return out
}

// ownLines keeps the lines the sender wrote: it cuts at the signature or at
// an "original message" separator, drops quoted lines and the reply headers
// that introduce them, and trims blank lines at both ends. Trailing spaces
// must already be trimmed.
func ownLines(lines []Line) []Line {
	for i := range lines {
		if start, ok := cutAt(lines, i); ok {
			lines = lines[:start]
			break
		}
	}

	drop := make([]bool, len(lines))
	for i, l := range lines {
		drop[i] = isQuoted(l.Text)
	}
	for i, l := range lines {
		if drop[i] || !isAttributionEnd(l.Text) && !wrappedAddressEnd(lines, drop, i) {
			continue
		}
		next := i + 1
		for next < len(lines) && lines[next].Text == "" {
			next++
		}
		if next < len(lines) && !isQuoted(lines[next].Text) {
			// A whole reply header with a date, the quoted mail under it
			// with no '>' (some clients, and copies by hand): the rest is
			// not the sender's.
			if start, ok := fullAttribution(lines, i); ok {
				lines, drop = lines[:start], drop[:start]
				break
			}
			continue
		}
		drop[i] = true
		if isAttributionStart(l.Text) {
			continue
		}
		// A long reply header may wrap: "On Mon, ..., Alice <" /
		// "a@x> wrote:". Look back two lines for its start.
		joined := l.Text
		for k := i - 1; k >= 0 && k >= i-2; k-- {
			if lines[k].Text == "" || drop[k] {
				break
			}
			joined = lines[k].Text + " " + joined
			if isAttributionStart(lines[k].Text) {
				if attributionDateRE.MatchString(joined) {
					for m := k; m < i; m++ {
						drop[m] = true
					}
				}
				break
			}
		}
	}

	var out []Line
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	for len(out) > 0 && out[0].Text == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1].Text == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// wrappedAddressEnd reports whether lines[i] is the address alone that
// ends a reply header wrapped before it, where the verb comes before the
// name and so on the line above: "Am ... schrieb herald <" / "herald@x>:"
// (German, Dutch).
func wrappedAddressEnd(lines []Line, drop []bool, i int) bool {
	if i == 0 || drop[i-1] || lines[i-1].Text == "" || !strings.HasSuffix(normalizeSpaces(lines[i].Text), ">:") {
		return false
	}
	return isAttributionEnd(lines[i-1].Text + " " + lines[i].Text)
}

// isQuoted reports whether s is a quoted line: '>' after optional blanks.
func isQuoted(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " \t"), ">")
}

// normalizeSpaces lower-cases s, turns the no-break and thin spaces that
// French typography puts before ':' into plain spaces, and the typographic
// apostrophe into "'".
func normalizeSpaces(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u00a0', '\u202f', '\u2009', '\t':
			return ' '
		case '\u2019':
			return '\''
		}
		return r
	}, s)
	return strings.ToLower(strings.TrimSpace(s))
}

// attributionVerbs end a reply header line: "... wrote:", "... a écrit :".
var attributionVerbs = []string{"wrote", "écrit", "ecrit", "schrieb", "escribió", "escribio", "scritto", "schreef"}

// isAttributionEnd reports whether s ends like a reply header line.
func isAttributionEnd(s string) bool {
	t := normalizeSpaces(s)
	if !strings.HasSuffix(t, ":") {
		return false
	}
	t = strings.TrimSpace(t[:len(t)-1])
	for _, v := range attributionVerbs {
		// German and Dutch put the verb before the name: "Am ... schrieb
		// herald <h@x>:".
		if t == v || strings.HasSuffix(t, " "+v) || strings.HasSuffix(t, ">") && strings.Contains(t, " "+v+" ") {
			return true
		}
	}
	return false
}

// fullAttribution reports whether line i ends a reply header that begins
// on it or on one of the two lines above ("On Mon, 5 Jan 2026 at 09:00,
// herald <h@x> wrote:", "Le 5 janv. 2026 à 10:00, herald a écrit :") and
// carries a date or a time, and on which line it begins.
func fullAttribution(lines []Line, i int) (int, bool) {
	joined := lines[i].Text
	for k := i; k >= 0 && k >= i-2; k-- {
		if k < i {
			if lines[k].Text == "" {
				return 0, false
			}
			joined = lines[k].Text + " " + joined
		}
		if isAttributionStart(lines[k].Text) {
			return k, attributionDateRE.MatchString(joined)
		}
	}
	return 0, false
}

// attributionDateRE finds the year or the time that a wrapped reply header
// carries, so that a sentence starting with "On" is not taken for one.
var attributionDateRE = regexp.MustCompile(`\b\d{4}\b|\d{1,2}[:h.]\d{2}|\d{1,2}/\d{1,2}`)

// isAttributionStart reports whether s starts like a reply header line:
// "On ...", "Le ...", "Am ...", "El ...", "Il ...", "Op ...".
func isAttributionStart(s string) bool {
	t := normalizeSpaces(s)
	for _, p := range []string{"on ", "le ", "am ", "el ", "il ", "op "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// separatorRE matches the lines that mail clients put above a quoted or
// forwarded message that is not marked with '>'.
var separatorRE = regexp.MustCompile(`^(-{2,} ?(original message|message d'origine|message original|forwarded message|message transf[ée]r[ée]|mensaje original|ursprüngliche nachricht|messaggio originale) ?-{2,}|begin forwarded message:|début du message réexpédié ?:)$`)

// headerKey returns the lower-cased name of a "Name: value" line such as
// "From: a@x", "*De :* a@x" (Outlook marks bold with stars), or "".
func headerKey(s string) string {
	k, _, ok := strings.Cut(normalizeSpaces(s), ":")
	if !ok || len(k) > 12 {
		return ""
	}
	return strings.Trim(k, "* ")
}

// The fields of the header block Outlook and others put above a quoted
// mail, in English, French, German, Spanish, Italian and Dutch: From,
// then Sent or Date, and To or Subject.
var (
	replyFromKeys = map[string]bool{"from": true, "de": true, "von": true, "da": true, "van": true}
	replyDateKeys = map[string]bool{"sent": true, "date": true, "envoyé": true, "envoye": true,
		"gesendet": true, "datum": true, "enviado": true, "enviado el": true, "fecha": true, "inviato": true, "data": true, "verzonden": true}
	replyToKeys = map[string]bool{"to": true, "subject": true, "cc": true, "à": true, "a": true, "objet": true, "pour": true,
		"an": true, "betreff": true, "para": true, "asunto": true, "oggetto": true, "aan": true, "onderwerp": true}
)

// cutAt reports whether everything from line i on is not the sender's text
// (signature, forwarded or quoted original), and from which line to cut.
func cutAt(lines []Line, i int) (start int, ok bool) {
	s := lines[i].Text
	if s == "--" || s == "-- " {
		return i, true
	}
	if separatorRE.MatchString(normalizeSpaces(s)) {
		return i, true
	}
	if !replyFromKeys[headerKey(s)] {
		return 0, false
	}
	// An Outlook header block: From, then Sent/Date and To/Subject within
	// a few lines.
	var date, to bool
	for j := i + 1; j < len(lines) && j <= i+6; j++ {
		k := headerKey(lines[j].Text)
		date = date || replyDateKeys[k]
		to = to || replyToKeys[k]
	}
	if !date || !to {
		return 0, false
	}
	// Take the blank lines and the rule (“____”, “-----”) above it too.
	start = i
	for start > 0 {
		t := lines[start-1].Text
		if t != "" && !(len(t) >= 5 && strings.Trim(t, "_-=") == "") {
			break
		}
		start--
	}
	return start, true
}

// htmlBlocks are the elements that start and end a line.
var htmlBlocks = map[string]bool{
	"address": true, "article": true, "aside": true, "body": true, "caption": true,
	"center": true, "dd": true, "details": true, "dialog": true, "dir": true,
	"div": true, "dl": true, "dt": true, "fieldset": true, "figcaption": true,
	"figure": true, "footer": true, "form": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "header": true,
	"hgroup": true, "hr": true, "html": true, "li": true, "main": true,
	"menu": true, "nav": true, "ol": true, "p": true, "section": true,
	"summary": true, "table": true, "tbody": true, "tfoot": true, "thead": true,
	"tr": true, "ul": true,
}

// htmlHidden are the elements whose text is never shown. The tokenizer
// returns their content as one raw text token.
var htmlHidden = map[string]bool{
	"script": true, "style": true, "title": true, "noscript": true,
	"noembed": true, "noframes": true, "iframe": true,
}

// htmlText accumulates the lines of an HTML document converted to text.
type htmlText struct {
	lines        []string
	cur          strings.Builder
	pendingSpace bool
}

// hardBreak ends the current line, even if it is empty (<br>).
func (t *htmlText) hardBreak() {
	t.lines = append(t.lines, t.cur.String())
	t.cur.Reset()
	t.pendingSpace = false
}

// softBreak ends the current line if it has text (block boundaries).
func (t *htmlText) softBreak() {
	if t.cur.Len() > 0 {
		t.hardBreak()
	}
	t.pendingSpace = false
}

// flowText appends text with HTML white space collapsing.
func (t *htmlText) flowText(s string) {
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			t.pendingSpace = true
			continue
		case '\u00a0':
			r = ' '
		}
		if t.pendingSpace && t.cur.Len() > 0 {
			t.cur.WriteByte(' ')
		}
		t.pendingSpace = false
		t.cur.WriteRune(r)
	}
}

// preText appends preformatted text as it is.
func (t *htmlText) preText(s string) {
	if t.pendingSpace && t.cur.Len() > 0 {
		t.cur.WriteByte(' ')
	}
	t.pendingSpace = false
	for _, r := range s {
		switch r {
		case '\n':
			t.hardBreak()
		case '\r':
		case '\u00a0':
			t.cur.WriteByte(' ')
		default:
			t.cur.WriteRune(r)
		}
	}
}

// htmlQuoteClasses mark elements holding a quoted reply (Gmail, Yahoo), and
// htmlSignatureClasses elements holding a signature (Gmail, Thunderbird).
var (
	htmlQuoteClasses     = map[string]bool{"gmail_quote": true, "yahoo_quoted": true}
	htmlSignatureClasses = map[string]bool{"gmail_signature": true, "moz-signature": true}
)

// htmlClasses returns the class attribute of the current tag of z, split.
func htmlClasses(z *html.Tokenizer) []string {
	for {
		key, val, more := z.TagAttr()
		if string(key) == "class" {
			return strings.Fields(string(val))
		}
		if !more {
			return nil
		}
	}
}

// htmlToText converts an HTML mail body to plain text. Tags are stripped;
// script, style and the like are removed; <br> ends a line, and block
// elements (<p>, <div>, <tr>, <li>, headings...) start and end one; table
// cells are separated by a space; <pre> content is kept verbatim; entities
// are decoded and no-break spaces become spaces. A quoted reply (a
// <blockquote>, or an element of class gmail_quote or yahoo_quoted) is
// replaced by a line ">", so that the reply header above it is recognised and
// dropped with it. Elements of class gmail_signature or moz-signature are
// dropped.
func htmlToText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var t htmlText
	skipTag, skipDepth := "", 0 // inside a dropped element: its name and nesting
	preDepth := 0
	hideRaw := false  // the next text token is the content of a hidden element
	preStart := false // drop the newline right after <pre>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			t.softBreak()
			return strings.Join(t.lines, "\n")

		case html.TextToken:
			if hideRaw || skipDepth > 0 {
				continue
			}
			s := string(z.Text())
			if preDepth > 0 {
				if preStart {
					s = strings.TrimPrefix(strings.TrimPrefix(s, "\r"), "\n")
				}
				t.preText(s)
			} else {
				t.flowText(s)
			}
			preStart = false

		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			preStart = false
			if htmlHidden[tag] {
				hideRaw = true
				continue
			}
			if skipDepth > 0 {
				if tag == skipTag && tt == html.StartTagToken {
					skipDepth++
				}
				continue
			}
			quote, signature := tag == "blockquote", false
			if hasAttr && !quote {
				for _, c := range htmlClasses(z) {
					quote = quote || htmlQuoteClasses[c]
					signature = signature || htmlSignatureClasses[c]
				}
			}
			if (quote || signature) && tt == html.StartTagToken {
				t.softBreak()
				if quote {
					t.cur.WriteString(">")
					t.hardBreak()
				}
				skipTag, skipDepth = tag, 1
				continue
			}
			switch {
			case tag == "br":
				t.hardBreak()
			case tag == "pre":
				t.softBreak()
				if tt == html.StartTagToken {
					preDepth++
					preStart = true
				}
			case tag == "td" || tag == "th":
				t.pendingSpace = true
			case htmlBlocks[tag]:
				t.softBreak()
			}

		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			preStart = false
			if htmlHidden[tag] {
				hideRaw = false
				continue
			}
			if skipDepth > 0 {
				if tag == skipTag {
					skipDepth--
				}
				if skipDepth == 0 {
					t.softBreak()
				}
				continue
			}
			switch {
			case tag == "br": // browsers read </br> as <br>
				t.hardBreak()
			case tag == "pre":
				if preDepth > 0 {
					preDepth--
				}
				t.softBreak()
			case htmlBlocks[tag]:
				t.softBreak()
			}
		}
	}
}
