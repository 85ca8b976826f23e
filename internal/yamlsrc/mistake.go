package yamlsrc

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The commonest authoring mistakes get yaml.v3's parser jargon ("mapping
// values are not allowed in this context", "did not find expected key"),
// often on the line where the enclosing block began. mistake reads the
// lines as a person lays them out, block by block, and names the first
// of them at its own line and column, with the fix:
//
//   - a value with a colon and a space in it (title: Fractions: adding);
//   - a key: value line indented deeper than the line above it;
//   - a line indented to no level above it, or like a list's items
//     without starting with "- ";
//   - a line where a key belongs that has no colon (timeout 5m).
//
// It reads only what it understands (block mappings and lists, plain,
// quoted and block scalars, one-line flow collections) and gives up on
// anything else, leaving yaml.v3's message to stand.

// Mistake is the first common layout mistake in data, for a file that
// parses but not as what its reader wants: a config file that is one
// plain value because its lines have no colon (model gpt-4.1). A file
// that does not parse gets it from Parse. It quotes the file's lines:
// not for a file that may not be the author's YAML at all.
func Mistake(file string, data []byte) (Problem, bool) {
	text := bytes.ReplaceAll(bytes.TrimPrefix(data, utf8BOM), []byte("\r\n"), []byte("\n"))
	s := &Source{File: file, Data: data, text: text, lineStarts: lineIndex(text)}
	return s.mistake()
}

// yamlLevel is one block of the layout: its indent, whether it is a
// list's items, and the last line laid out at it (for the message).
type yamlLevel struct {
	indent int
	seq    bool
	line   int
}

// mistake finds the first common layout mistake in the file; ok is false
// when it finds none or meets something it does not read.
func (s *Source) mistake() (p Problem, ok bool) {
	stack := []yamlLevel{{indent: -1}}
	open := true    // the line above can have a deeper block under it
	scalar := -1    // a plain value began above, under a key at this indent: deeper lines continue it
	scalarLine := 0 // where it began
	block := -1     // inside a block scalar (| or >) under a key at this indent
	at := func(line, col int, format string, args ...any) (Problem, bool) {
		return Problem{File: s.File, Line: line, Col: col, Message: fmt.Sprintf(format, args...)}, true
	}
	for ln := 1; ln <= len(s.lineStarts); ln++ {
		text := s.LineText(ln)
		trimmed := strings.TrimSpace(text)
		ind := len(text) - len(strings.TrimLeft(text, " "))
		if block >= 0 {
			if trimmed == "" || ind > block {
				continue
			}
			block = -1
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(text[ind:], "\t") || strings.HasPrefix(trimmed, "%") || strings.HasPrefix(trimmed, "---") || trimmed == "..." {
			return Problem{}, false // tabs, directives and documents have their own messages
		}
		col := func(byteOff int) int { return utf8.RuneCountInString(text[:byteOff]) + 1 }
		if scalar >= 0 && ind > scalar {
			// More of the value above, unless it holds a key.
			if k := keyColon(text[ind:]); k >= 0 {
				return at(ln, col(ind), "this line is indented deeper than the line above it (%s, line %d), so YAML reads it as more of that value and cannot take its key; indent it by %d spaces like the keys beside it",
					quoteLine(s.LineText(scalarLine)), scalarLine, scalar)
			}
			continue
		}
		scalar = -1
		rest := text[ind:]
		dash := rest == "-" || strings.HasPrefix(rest, "- ")
		top := &stack[len(stack)-1]
		pushed := open && ind > top.indent
		if pushed {
			stack = append(stack, yamlLevel{indent: ind, seq: dash, line: ln})
		} else {
			var deeper *yamlLevel
			for len(stack) > 1 && stack[len(stack)-1].indent > ind {
				d := stack[len(stack)-1]
				deeper = &d
				stack = stack[:len(stack)-1]
			}
			top = &stack[len(stack)-1]
			switch {
			case top.indent != ind:
				if deeper == nil || top.indent < 0 {
					return Problem{}, false
				}
				return at(ln, col(ind), "this line is indented %s, which matches no line above it; indent it by %d spaces like %s (line %d) or by %d like %s (line %d)",
					plural(ind, "space"), deeper.indent, quoteLine(s.LineText(deeper.line)), deeper.line, top.indent, quoteLine(s.LineText(top.line)), top.line)
			case top.seq && !dash:
				if len(stack) > 2 && stack[len(stack)-2].indent == ind {
					stack = stack[:len(stack)-1] // a list not indented under its key has ended
					break
				}
				fix := ""
				if deeper != nil && !deeper.seq {
					fix = fmt.Sprintf("indent it by %d spaces to put it in that item, or ", deeper.indent)
				}
				return at(ln, col(ind), "this line is indented like the list's items (%s, line %d) but does not start with \"- \": %sstart a new item with \"- \"",
					quoteLine(s.LineText(top.line)), top.line, fix)
			case !top.seq && dash:
				if !open {
					return Problem{}, false
				}
				stack = append(stack, yamlLevel{indent: ind, seq: true, line: ln})
			}
		}
		open = false
		stack[len(stack)-1].line = ln
		keyCol := ind
		if dash {
			after := strings.TrimLeft(rest[1:], " ")
			if after == "" || strings.HasPrefix(after, "#") {
				open = true
				continue
			}
			keyCol = len(text) - len(after)
			rest = after
			if rest == "-" || strings.HasPrefix(rest, "- ") {
				return Problem{}, false // a list in a list on one line
			}
		}
		k := keyColon(rest)
		if k < 0 {
			if !dash && pushed && len(stack) > 2 {
				// The value of the key above, on a line of its own.
				stack = stack[:len(stack)-1]
				if !s.valueReadable(rest) {
					return Problem{}, false
				}
				scalar, scalarLine = stack[len(stack)-1].indent, ln
				continue
			}
			if !dash {
				if strings.ContainsAny(rest[:1], "[{\"'!&*|>?") {
					return Problem{}, false
				}
				fix := strings.TrimSpace(rest) + ": …"
				if name, value, ok := strings.Cut(strings.TrimSpace(rest), " "); ok {
					fix = name + ": " + strings.TrimSpace(value)
				}
				return at(ln, col(ind), "this line has no colon, so YAML cannot read it as a key and its value; write it as key: value, e.g. %s", fix)
			}
			// A list item that is a value.
			if !s.valueReadable(rest) {
				return Problem{}, false
			}
			scalar, scalarLine = ind, ln
			continue
		}
		if dash {
			stack = append(stack, yamlLevel{indent: keyCol, line: ln})
		}
		value := strings.TrimLeft(rest[k+1:], " ")
		valueOff := len(text) - len(value)
		for strings.HasPrefix(value, "!") || strings.HasPrefix(value, "&") {
			// A tag or an anchor before the value.
			tag, after, _ := strings.Cut(value, " ")
			value = strings.TrimLeft(after, " ")
			valueOff += len(tag) + 1
			if after == "" {
				value = ""
			}
		}
		switch {
		case value == "" || strings.HasPrefix(value, "#"):
			open = true
		case value[0] == '|' || value[0] == '>':
			block = keyCol
		case value[0] == '"' || value[0] == '\'' || value[0] == '[' || value[0] == '{' || value[0] == '*':
			if !s.valueReadable(value) {
				return Problem{}, false
			}
		default:
			plain, _, _ := strings.Cut(value, " #")
			plain = strings.TrimRight(plain, " ")
			if i := strings.Index(plain, ": "); i >= 0 || strings.HasSuffix(plain, ":") {
				if i < 0 {
					i = len(plain) - 1
				}
				key := strings.TrimSpace(rest[:k])
				return at(ln, col(valueOff+i), "this value has a colon followed by a space: YAML reads it as a key; quote the value: %s: %s", key, strconv.Quote(plain))
			}
			scalar, scalarLine = keyCol, ln
		}
	}
	return Problem{}, false
}

// keyColon is the index of the colon that ends a key at the start of
// line ("key: value", "key:", "\"a key\": value"), or -1.
func keyColon(line string) int {
	start := 0
	if line != "" && (line[0] == '"' || line[0] == '\'') {
		end := strings.IndexByte(line[1:], line[0])
		if end < 0 {
			return -1
		}
		start = end + 2
	}
	for i := start; i < len(line); i++ {
		switch line[i] {
		case '#':
			if i > 0 && line[i-1] == ' ' {
				return -1
			}
		case ':':
			if i+1 == len(line) || line[i+1] == ' ' {
				return i
			}
		}
	}
	return -1
}

// valueReadable reports whether a value that opens a quote or a flow
// collection closes it on its line: one that runs on is not read here.
func (s *Source) valueReadable(v string) bool {
	switch v[0] {
	case '"':
		for i := 1; i < len(v); i++ {
			switch v[i] {
			case '\\':
				i++
			case '"':
				return true
			}
		}
		return false
	case '\'':
		return strings.Count(v, "'")%2 == 0
	case '[', '{':
		depth := 0
		for _, r := range v {
			switch r {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
		}
		return depth == 0
	}
	return true
}

// quoteLine is a line as a message quotes it: trimmed, clipped.
func quoteLine(line string) string {
	line = strings.TrimSpace(line)
	if utf8.RuneCountInString(line) > 40 {
		line = string([]rune(line)[:40]) + "…"
	}
	return strconv.Quote(line)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
