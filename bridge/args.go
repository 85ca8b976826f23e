package bridge

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// callArgs is a tool call's arguments, decoded once. Everything after the
// decode works on it, never on the text again: the secret check, the
// syntax and schema checks and the typed intent (Catalog.parse), the
// citation check. The text stays only to be measured, quoted in an error
// and shown to a person approving the change.
type callArgs struct {
	// sent is the arguments as the model sent them.
	sent string
	// text is sent trimmed: what is decoded, and quoted when it is not JSON.
	text string
	// value is text's first JSON value, numbers as json.Number and, of a
	// key given twice, the last value (as encoding/json keeps it); nil
	// when text is empty or not JSON. Catalog.parse normalises it in
	// place (nulls dropped, whole numbers respelt) for the typed intent.
	value any
	// err is set when text is not JSON (see syntaxErr).
	err error
	// more is set when another value follows the first.
	more bool
	// dup is the path of the first key given twice in one object
	// ("x", "style.color", "terms[1].term"), when hasDup.
	dup    string
	hasDup bool
}

// decodeHook, when set (by a test), is told each text decodeArgs decodes.
var decodeHook func(text string)

// decodeArgs decodes a call's arguments in one pass over the text: the
// value, whether more follows it, and the first duplicate key, which
// decoding into a map would lose (encoding/json keeps the last of two).
func decodeArgs(sent string) callArgs {
	a := callArgs{sent: sent, text: strings.TrimSpace(sent)}
	if decodeHook != nil {
		decodeHook(a.text)
	}
	if a.text == "" {
		return a
	}
	dec := json.NewDecoder(strings.NewReader(a.text))
	dec.UseNumber()
	w := walker{dec: dec}
	v, err := w.value(0)
	if err != nil {
		a.err = err
		return a
	}
	a.value, a.more = v, dec.More()
	if w.dupAt != nil {
		a.dup, a.hasDup = joinPath(w.dupAt), true
	}
	return a
}

// syntaxErr is why a.text is not JSON, in encoding/json's words: the
// walk reads tokens, whose errors are worded differently, so the text is
// decoded again to say it (only ever for a call that is refused).
func (a callArgs) syntaxErr() error {
	var v any
	dec := json.NewDecoder(strings.NewReader(a.text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return a.err
}

// maxDepth is encoding/json's limit on nesting: text nested deeper is
// not JSON to it, so not to the walk either.
const maxDepth = 10000

var errTooDeep = errors.New("exceeded max depth")

// walker builds a JSON value from a decoder's tokens, noting the first
// key given twice in one object.
type walker struct {
	dec *json.Decoder
	// at is the path to the value being read, one segment a key or an
	// index; dupAt is a copy of it at the first duplicate key.
	at    []segment
	dupAt []segment
}

type segment struct {
	key   string
	index int // -1 for a key
}

func (w *walker) value(depth int) (any, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return w.object(depth + 1)
	case json.Delim('['):
		return w.array(depth + 1)
	}
	return tok, nil
}

func (w *walker) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	obj := map[string]any{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		w.at = append(w.at, segment{key: key, index: -1})
		if _, seen := obj[key]; seen && w.dupAt == nil {
			w.dupAt = append([]segment(nil), w.at...)
		}
		v, err := w.value(depth)
		if err != nil {
			return nil, err
		}
		w.at = w.at[:len(w.at)-1]
		obj[key] = v
	}
	_, err := w.dec.Token() // the closing brace
	return obj, err
}

func (w *walker) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	arr := []any{}
	for i := 0; w.dec.More(); i++ {
		w.at = append(w.at, segment{index: i})
		v, err := w.value(depth)
		if err != nil {
			return nil, err
		}
		w.at = w.at[:len(w.at)-1]
		arr = append(arr, v)
	}
	_, err := w.dec.Token() // the closing bracket
	return arr, err
}

// joinPath writes a path as errors name it: "style.color",
// "terms[1].term"; a key joins what is before it with a dot unless that
// is empty.
func joinPath(segs []segment) string {
	p := ""
	for _, s := range segs {
		switch {
		case s.index >= 0:
			p += "[" + strconv.Itoa(s.index) + "]"
		case p != "":
			p += "." + s.key
		default:
			p = s.key
		}
	}
	return p
}

// citesSomething reports whether a call's arguments hold a non-empty
// "sources" list anywhere (an element's, a question's, a list item's).
func (a callArgs) citesSomething() bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			for k, it := range x {
				if list, ok := it.([]any); k == "sources" && ok && len(list) > 0 {
					return true
				}
				if walk(it) {
					return true
				}
			}
		case []any:
			for _, it := range x {
				if walk(it) {
					return true
				}
			}
		}
		return false
	}
	return walk(a.value)
}
