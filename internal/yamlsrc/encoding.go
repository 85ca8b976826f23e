package yamlsrc

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the UTF-8 byte order mark some editors put at the start of a
// file. It is kept: a file that has one gets it back when saved.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// otherBOMs are the byte order marks of encodings lessongen does not read.
// yaml.v3 would decode UTF-16 silently, and the file would then be saved
// as UTF-8; refusing is what keeps the author's bytes. UTF-32 comes first
// as its little-endian mark begins with UTF-16's.
var otherBOMs = []struct {
	mark []byte
	name string
}{
	{[]byte{0x00, 0x00, 0xFE, 0xFF}, "UTF-32"},
	{[]byte{0xFF, 0xFE, 0x00, 0x00}, "UTF-32"},
	{[]byte{0xFE, 0xFF}, "UTF-16"},
	{[]byte{0xFF, 0xFE}, "UTF-16"},
}

const saveAsUTF8 = "lessongen reads UTF-8 only: save the file as UTF-8"

// checkEncoding returns a problem when data is not UTF-8 text, at the
// first byte that shows it, never quoting the content.
func checkEncoding(file string, data []byte) *Problem {
	for _, b := range otherBOMs {
		if bytes.HasPrefix(data, b.mark) {
			return &Problem{File: file, Line: 1, Col: 1, Message: fmt.Sprintf("the file is %s (it starts with a %s byte order mark); %s", b.name, b.name, saveAsUTF8)}
		}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line, col := position(data, i)
		return &Problem{File: file, Line: line, Col: col, Message: "the file has NUL bytes, so it is not UTF-8 text (UTF-16 or UTF-32 without a byte order mark, or not text at all); " + saveAsUTF8}
	}
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			line, col := position(data, i)
			return &Problem{File: file, Line: line, Col: col, Message: fmt.Sprintf("invalid UTF-8 (byte 0x%02X); %s", data[i], saveAsUTF8)}
		}
		i += size
	}
	return nil
}

// position is the 1-based line and rune column of byte offset off.
func position(data []byte, off int) (line, col int) {
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}

// yamlAllowed mirrors the characters yaml.v3's reader accepts; it reports
// the first other one only as "control characters are not allowed".
func yamlAllowed(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r == 0x85:
	case r >= 0x20 && r <= 0x7E:
	case r >= 0xA0 && r <= 0xD7FF:
	case r >= 0xE000 && r <= 0xFFFD:
	case r >= 0x10000 && r <= 0x10FFFF:
	default:
		return false
	}
	return true
}

// parserProblems are the yaml.v3 syntax errors raised by its parser, not
// its scanner. For these it prints the 0-based line of the problem (or of
// the construct it was in), so the real line is one more.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// layoutProblems are the yaml.v3 errors a common layout mistake makes
// (mistake.go names it better: a colon in a value, a line indented
// wrong, a key without its colon).
var layoutProblems = map[string]bool{
	"mapping values are not allowed in this context":         true,
	"did not find expected key":                              true,
	"did not find expected '-' indicator":                    true,
	"could not find expected ':'":                            true,
	"block sequence entries are not allowed in this context": true,
	"did not find expected <document start>":                 true,
}

var (
	yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	anchorRE   = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

func (s *Source) syntaxProblem(err error) Problems {
	if loc := gluedPendingRE.FindIndex(s.text); loc != nil {
		line := s.lineOf(loc[0])
		col := utf8.RuneCount(s.text[s.lineStart(line):loc[0]]) + 1
		return Problems{s.gluedProblem(line, col, string(s.text[loc[0]:loc[1]]))}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line, col := 1, 0
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			line++
		}
	} else if parserProblems[msg] {
		line = 1 // yaml.v3 prints no line when its 0-based line is 0
	}
	if layoutProblems[msg] {
		if p, ok := s.mistake(); ok {
			return Problems{p}
		}
	}
	switch m := anchorRE.FindStringSubmatch(msg); {
	case m != nil:
		if i := bytes.Index(s.text, []byte("*"+m[1])); i >= 0 {
			line, col = position(s.text, i)
		}
	case msg == "control characters are not allowed":
		for i, r := range string(s.text) {
			if !yamlAllowed(r) {
				line, col = position(s.text, i)
				msg = fmt.Sprintf("control character %U is not allowed; remove it", r)
				break
			}
		}
	}
	switch msg {
	case "found a tab character that violates indentation", "found character that cannot start any token",
		"did not find expected key", "did not find expected '-' indicator":
		// yaml.v3 names the line where the enclosing block began, not the
		// line that broke it: find that one.
		if l, c, ok := s.brokenIndent(line); ok {
			line, col = l, c
			if !strings.Contains(s.LineText(l), "\t") {
				msg += " (this line's indentation matches no level above it)"
			}
		}
	}
	line = min(line, s.lastContentLine())
	text := s.LineText(line)
	if col == 0 {
		col = 1
		if i := strings.IndexFunc(text, func(r rune) bool { return r != ' ' }); i >= 0 {
			col = utf8.RuneCountInString(text[:i]) + 1
		}
	}
	if strings.Contains(text, "\t") {
		msg += " (YAML indents with spaces; this line has a tab)"
	}
	return Problems{{File: s.File, Line: line, Col: col, Message: "invalid YAML: " + msg}}
}

// brokenIndent finds the line that breaks the block that begins at line
// from: the first one indented with a tab, or one indented less than the
// value it continues but more than the block's keys. col is where its
// content (or the tab) starts.
func (s *Source) brokenIndent(from int) (line, col int, ok bool) {
	if from > 1 && strings.TrimSpace(s.LineText(from)) == "" {
		from-- // a scanner error is counted a line late
	}
	indent := func(t string) (int, bool) {
		lead := t[:len(t)-len(strings.TrimLeft(t, " \t"))]
		if i := strings.IndexByte(lead, '\t'); i >= 0 {
			return i, true
		}
		return len(lead), false
	}
	base, tab := indent(s.LineText(from))
	if tab {
		return from, base + 1, true
	}
	value := -1 // indent of the value under the current key
	for n := from + 1; n <= len(s.lineStarts); n++ {
		t := s.LineText(n)
		if trimmed := strings.TrimSpace(t); trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ind, tab := indent(t)
		switch {
		case tab:
			return n, ind + 1, true
		case ind < base:
			return 0, 0, false
		case ind == base:
			value = -1
		case value < 0:
			value = ind
		case ind < value:
			return n, ind + 1, true
		}
	}
	return 0, 0, false
}

// lastContentLine is the last line with anything but spaces on it: an
// error found at the end of the file belongs to what was left open there.
func (s *Source) lastContentLine() int {
	for n := len(s.lineStarts); n > 1; n-- {
		if strings.TrimSpace(s.LineText(n)) != "" {
			return n
		}
	}
	return 1
}
