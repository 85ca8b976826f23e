package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Source is one YAML file: its exact bytes and its node tree.
type Source struct {
	File string
	// Data is the file's bytes exactly as read.
	Data []byte
	// Root is the document's top node (the mapping, not the document node).
	Root *yaml.Node

	// text is Data with CRLF line ends made LF and without a UTF-8 byte
	// order mark: every offset refers to it, and a patched file gets its
	// CRLF and mark back on the way out.
	text       []byte
	crlf       bool
	bom        bool  // a UTF-8 byte order mark, not part of text, put back on save
	lineStarts []int // byte offset of each line's start; lineStarts[0] is line 1
}

// Parse parses data as one YAML document. A syntax error comes back as
// Problems with the file, line and column.
func Parse(file string, data []byte) (*Source, error) {
	if p := checkEncoding(file, data); p != nil {
		return nil, Problems{*p}
	}
	text, bom := bytes.CutPrefix(data, utf8BOM)
	crlf := bytes.Contains(text, []byte("\r\n"))
	if crlf {
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	}
	s := &Source{File: file, Data: data, text: text, crlf: crlf, bom: bom, lineStarts: lineIndex(text)}
	var doc yaml.Node
	if fixed, ok := s.parseGlued(); ok {
		s.Root = fixed
		return s, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Problems{{File: file, Line: 1, Col: 1, Message: "the file is empty"}}
		}
		return nil, s.syntaxProblem(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Problems{{File: file, Line: extra.Line, Col: extra.Column, Message: "a second YAML document (after ---) is not allowed; keep one lesson per file"}}
	}
	if len(doc.Content) == 0 {
		return nil, Problems{{File: file, Line: 1, Col: 1, Message: "the file holds no YAML content"}}
	}
	if n := gluedPending(&doc); n != nil {
		return nil, Problems{s.gluedProblem(n.Line, n.Column, n.Tag)}
	}
	s.Root = doc.Content[0]
	return s, nil
}

// In flow style YAML reads `!pending}` or `!pending,` as one tag: the file
// then fails to parse, or worse, parses with the next value tagged. Both
// are reported where the marker is, with the fix.
var gluedPendingRE = regexp.MustCompile(`!pending[,\]}]`)

// gluedStandIn replaces `!pending` glued to `,`, `]` or `}` in a copy of
// the text for the parser: the same width (`!pendin }`), so every node's
// line and column, and the spans read from the author's own bytes, stay
// true.
const gluedStandIn = "!pendin "

// parseGlued reads a flow-style file whose bare `!pending` touches the `,`,
// `]` or `}` after it, as YAML 1.2 means it (a tag ends at a flow
// indicator; yaml.v3 reads on). A match inside quoted text stays text:
// such matches are put back and the copy parsed again. It fails only when
// the copy does not parse, else the file is parsed as written and a glued
// marker reported.
func (s *Source) parseGlued() (*yaml.Node, bool) {
	locs := gluedPendingRE.FindAllIndex(s.text, -1)
	glued := map[int]bool{}
	for _, l := range locs {
		glued[l[0]] = true
	}
	// Each pass puts back at least one match, so this ends.
	for len(glued) > 0 {
		alt := bytes.Clone(s.text)
		for off := range glued {
			copy(alt[off:], gluedStandIn)
		}
		dec := yaml.NewDecoder(bytes.NewReader(alt))
		var doc, extra yaml.Node
		if dec.Decode(&doc) != nil || dec.Decode(&extra) == nil || len(doc.Content) == 0 {
			return nil, false
		}
		at := maps.Clone(glued)
		var inText []int // glued matches that are text in the copy
		other := false
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			switch {
			case n.Tag == strings.TrimSpace(gluedStandIn) && at[s.Offset(n.Line, n.Column)]:
				n.Tag = PendingTag
				delete(at, s.Offset(n.Line, n.Column))
			case strings.Contains(n.Value, strings.TrimSpace(gluedStandIn)):
				from, to := s.start(n), s.End(n)
				for off := range glued {
					if off >= from && off < to {
						inText = append(inText, off)
					}
				}
			case len(n.Tag) > len(PendingTag) && strings.HasPrefix(n.Tag, PendingTag):
				other = true // another glued form: reported as written
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&doc)
		switch {
		case other:
			return nil, false
		case len(inText) == 0 && len(at) == 0:
			return doc.Content[0], true
		case len(inText) == 0:
			return nil, false // a match that is neither tag nor text
		}
		for _, off := range inText {
			delete(glued, off)
		}
	}
	return nil, false
}

func gluedPending(n *yaml.Node) *yaml.Node {
	if len(n.Tag) > len(PendingTag) && strings.HasPrefix(n.Tag, PendingTag) && strings.ContainsAny(n.Tag[len(PendingTag):len(PendingTag)+1], ",]}") {
		return n
	}
	for _, c := range n.Content {
		if g := gluedPending(c); g != nil {
			return g
		}
	}
	return nil
}

func (s *Source) gluedProblem(line, col int, tag string) Problem {
	glued := tag[:len(PendingTag)+1]
	return Problem{File: s.File, Line: line, Col: col,
		Message: fmt.Sprintf("put a space after !pending: YAML reads %q as one tag here (write %q)", glued, PendingTag+" "+glued[len(PendingTag):])}
}

func lineIndex(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// LineText returns line n (1-based) without its newline.
func (s *Source) LineText(n int) string {
	if n < 1 || n > len(s.lineStarts) {
		return ""
	}
	start := s.lineStarts[n-1]
	end := len(s.text)
	if n < len(s.lineStarts) {
		end = s.lineStarts[n] - 1
	}
	return strings.TrimSuffix(string(s.text[start:end]), "\r")
}

// Offset converts a 1-based line and 1-based rune column, as yaml.v3 reports
// them, into a byte offset.
func (s *Source) Offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(s.lineStarts) {
		return len(s.text)
	}
	off := s.lineStarts[line-1]
	for c := 1; c < col && off < len(s.text) && s.text[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(s.text[off:])
		off += size
	}
	return off
}

// lineOf returns the 1-based line holding byte offset off.
func (s *Source) lineOf(off int) int {
	lo, hi := 0, len(s.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// lineStart is the offset where line n begins; past the end, len(Data).
func (s *Source) lineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(s.lineStarts) {
		return len(s.text)
	}
	return s.lineStarts[n-1]
}

// nextLineStart is the offset just after the newline ending the line that
// holds off (len(Data) on the last line).
func (s *Source) nextLineStart(off int) int {
	return s.lineStart(s.lineOf(off) + 1)
}

// lineEnd is the offset of the newline ending the line that holds off.
func (s *Source) lineEnd(off int) int {
	if i := bytes.IndexByte(s.text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(s.text)
}

// start is where node n's text begins, its anchor or tag included.
func (s *Source) start(n *yaml.Node) int { return s.Offset(n.Line, n.Column) }

// End returns the byte offset just past node n's text: past the closing
// quote, the last line of a block scalar, or the last item of a collection.
// Comments after the node are not part of it.
func (s *Source) End(n *yaml.Node) int {
	switch n.Kind {
	case yaml.DocumentNode:
		return len(s.text)
	case yaml.AliasNode:
		return s.scanToken(s.start(n))
	case yaml.MappingNode, yaml.SequenceNode:
		off := s.skipProps(s.start(n))
		if off < len(s.text) && (s.text[off] == '[' || s.text[off] == '{') {
			return s.scanFlow(off)
		}
		if len(n.Content) == 0 {
			return off
		}
		return s.End(n.Content[len(n.Content)-1])
	}
	return s.scalarEnd(n)
}

// skipProps steps over an anchor (&a) and a tag (!t) and the spaces after
// them, staying on the line so an empty tagged value does not swallow the
// next key.
func (s *Source) skipProps(off int) int {
	for off < len(s.text) && (s.text[off] == '&' || s.text[off] == '!') {
		off = s.scanToken(off)
		for off < len(s.text) && s.text[off] == ' ' {
			off++
		}
	}
	return off
}

// scanToken returns the end of the run of non-space characters at off.
func (s *Source) scanToken(off int) int {
	for off < len(s.text) {
		switch s.text[off] {
		case ' ', '\t', '\n', '\r', ',', ']', '}':
			return off
		}
		off++
	}
	return off
}

// propsEnd is the end of the anchor and tag at off, without trailing spaces.
func (s *Source) propsEnd(off int) int {
	end := off
	for off < len(s.text) && (s.text[off] == '&' || s.text[off] == '!') {
		off = s.scanToken(off)
		end = off
		for off < len(s.text) && s.text[off] == ' ' {
			off++
		}
	}
	return end
}

func (s *Source) scalarEnd(n *yaml.Node) int {
	begin := s.start(n)
	off := s.skipProps(begin)
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if !quoted && n.Value == "" {
		return s.propsEnd(begin)
	}
	// Content may start on the next line after a tag (`!pending` then a
	// quoted hint below it).
	for quoted && off < len(s.text) && isSpace(s.text[off]) {
		off++
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return s.scanDoubleQuoted(off)
	case n.Style&yaml.SingleQuotedStyle != 0:
		return s.scanSingleQuoted(off)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return s.scanBlockScalar(off, n.Value)
	}
	return s.scanPlain(off, n.Value)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func (s *Source) scanDoubleQuoted(off int) int {
	for i := off + 1; i < len(s.text); i++ {
		switch s.text[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s.text)
}

func (s *Source) scanSingleQuoted(off int) int {
	for i := off + 1; i < len(s.text); i++ {
		if s.text[i] == '\'' {
			if i+1 < len(s.text) && s.text[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s.text)
}

// scanBlockScalar covers a | or > header and every following line that is
// blank or indented at least as deep as the first content line, or as deep as
// an explicit indentation indicator (|2) says.
func (s *Source) scanBlockScalar(off int, value string) int {
	end := s.lineEnd(off)
	line := s.lineOf(off) + 1
	indent := -1
	explicit := blockIndicatorHasIndent(s.text[off:end])
	for ; line <= len(s.lineStarts); line++ {
		text := s.LineText(line)
		if strings.TrimSpace(text) == "" {
			continue
		}
		ind := len(text) - len(strings.TrimLeft(text, " "))
		if indent < 0 && explicit {
			// The first content line may be indented deeper than the block;
			// its extra spaces are kept at the start of the value.
			first := strings.TrimLeft(value, "\n")
			indent = ind - (len(first) - len(strings.TrimLeft(first, " ")))
		}
		if indent < 0 {
			indent = ind
			headerIndent := s.indentOf(s.lineOf(off))
			if indent <= headerIndent {
				break
			}
		}
		if ind < indent {
			break
		}
		end = s.lineStart(line) + len(text)
	}
	return end
}

// blockIndicatorHasIndent reports whether a block scalar header (|2-, >+1)
// gives an explicit indentation.
func blockIndicatorHasIndent(header []byte) bool {
	for _, b := range header[1:] {
		switch {
		case b >= '1' && b <= '9':
			return true
		case b != '-' && b != '+':
			return false
		}
	}
	return false
}

func (s *Source) indentOf(line int) int {
	text := s.LineText(line)
	return len(text) - len(strings.TrimLeft(text, " -"))
}

// scanPlain finds the end of a plain scalar: the first line up to a comment,
// plus continuation lines until the folded text accounts for value.
func (s *Source) scanPlain(off int, value string) int {
	end := s.plainLineEnd(off)
	got := string(s.text[off:end])
	line := s.lineOf(off)
	for got != value && len(got) < len(value) && line < len(s.lineStarts) {
		line++
		text := strings.TrimSpace(s.LineText(line))
		if text == "" {
			got += "\n"
			continue
		}
		lineOff := s.lineStart(line) + strings.Index(s.LineText(line), text)
		e := s.plainLineEnd(lineOff)
		if !strings.HasSuffix(got, "\n") {
			got += " "
		}
		got += string(s.text[lineOff:e])
		end = e
	}
	return end
}

// plainLineEnd is where a plain scalar starting at off ends on its line:
// before " #", ": " or the newline, trailing spaces trimmed.
func (s *Source) plainLineEnd(off int) int {
	eol := s.lineEnd(off)
	text := s.text[off:eol]
	if i := bytes.Index(text, []byte(" #")); i >= 0 {
		text = text[:i]
	}
	// A plain key ends at ": " (or a colon ending the line).
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
			text = text[:i]
			break
		}
	}
	return off + len(bytes.TrimRight(text, " \t\r"))
}

// scanFlow returns the offset just past the bracket that closes the flow
// collection opening at off, skipping quoted strings and comments.
func (s *Source) scanFlow(off int) int {
	depth := 0
	// A quote opens a quoted scalar only where a scalar starts; inside a
	// plain one (0"0) it is just a character.
	atStart := func(i int) bool {
		for i--; i >= off && (s.text[i] == ' ' || s.text[i] == '\t' || s.text[i] == '\n'); i-- {
		}
		return i < off || strings.IndexByte("[{,:", s.text[i]) >= 0
	}
	for i := off; i < len(s.text); i++ {
		switch s.text[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			if atStart(i) {
				i = s.scanDoubleQuoted(i) - 1
			}
		case '\'':
			if atStart(i) {
				i = s.scanSingleQuoted(i) - 1
			}
		case '#':
			if i > 0 && isSpace(s.text[i-1]) {
				i = s.lineEnd(i) - 1
			}
		}
	}
	return len(s.text)
}
