package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

func callErr(kind session.ErrorKind, path, hint, format string, args ...any) *tool.Error {
	return &tool.Error{Kind: kind, Path: path, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Parse turns a tool call into exactly one intent, or a CallError. The
// arguments are checked against the tool's schema before decoding, and
// null stands for "not given" (that is how strict mode leaves out optional
// fields).
func (c *Catalog) Parse(name, args string) (session.Intent, *tool.Error) {
	return c.parse(name, decodeArgs(args))
}

// parse is Parse on arguments already decoded. It normalises a.value in
// place for the typed intent.
func (c *Catalog) parse(name string, a callArgs) (session.Intent, *tool.Error) {
	e, ok := c.byName[name]
	if !ok {
		return nil, callErr(session.KindNotFound, "", c.toolHint(name), "there is no tool named %q", name)
	}
	if len(a.sent) > tool.MaxArgsBytes {
		return nil, callErr(session.KindInvalidArgs, "", "send shorter values: a note or a text is a few sentences",
			"the arguments are %s; the most a call may send is %s", clip.Size(len(a.sent)), clip.Size(tool.MaxArgsBytes))
	}
	if a.text == "" {
		if len(e.compat.Required) > 0 {
			return nil, callErr(session.KindInvalidArgs, "", "send one JSON object with "+paramList(e.compat),
				"the arguments are empty")
		}
		a.value = map[string]any{}
	}
	if a.err != nil {
		return nil, callErr(session.KindInvalidArgs, "", "send one JSON object with "+paramList(e.compat),
			"the arguments are not valid JSON: %v; they were: %s", jsonErr(a.syntaxErr(), a.text), clip.String(a.text, sentArgsClip))
	}
	if a.more {
		return nil, callErr(session.KindInvalidArgs, "", "send exactly one JSON object", "the arguments hold more than one JSON value")
	}
	obj, isObj := a.value.(map[string]any)
	if !isObj {
		return nil, callErr(session.KindInvalidArgs, "", "send one JSON object with "+paramList(e.compat), "the arguments must be a JSON object, not %s", jsonKind(a.value))
	}
	// encoding/json keeps the last of two equal keys; which one the model
	// meant is unknowable, so the call is refused rather than guessed.
	if a.hasDup {
		return nil, callErr(session.KindInvalidArgs, a.dup, "send each parameter once", "%s is given more than once", label(a.dup))
	}
	return e.intent(obj)
}

// intent checks a call's arguments against e's schema and makes them its
// typed intent.
func (e *entry) intent(obj map[string]any) (session.Intent, *tool.Error) {
	dropNulls(obj, e.compat)
	if err := e.resolved.Validate(plainNumbers(obj)); err != nil {
		if ce := explain(obj, e.compat, ""); ce != nil {
			return nil, ce
		}
		return nil, callErr(session.KindInvalidArgs, "", "check the parameters against the tool's schema", "%v", err)
	}
	wholeIntegers(obj, e.compat)
	// Re-encoded from the checked value, not the text: encoding/json
	// fills the struct (and the item types' own UnmarshalJSON) as it
	// would from the model's text.
	data, _ := json.Marshal(obj)
	ptr := reflect.New(e.typ)
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	if err := strict.Decode(ptr.Interface()); err != nil {
		return nil, callErr(session.KindInvalidArgs, "", "check the parameters against the tool's schema", "%v", err)
	}
	return ptr.Elem().Interface().(session.Intent), nil
}

func (c *Catalog) toolHint(name string) string {
	var names []string
	for _, e := range c.entries {
		if !e.spec.Hidden {
			names = append(names, e.name)
		}
	}
	hint := "tools: " + strings.Join(names, ", ")
	if best := suggest.Nearest(name, names, 3); best != "" {
		hint = fmt.Sprintf("did you mean %q? %s", best, hint)
	}
	return hint
}

func jsonErr(err error, raw string) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	if errors.Is(err, errUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
		return fmt.Sprintf("it ends too early (%d bytes; a closing brace or quote is missing)", len(raw))
	}
	return err.Error()
}

var errUnexpectedEOF = errors.New("unexpected EOF")

// sentArgsClip bounds the quote of unparsable arguments in an error: the
// history repeats them as {} (servers such as Ollama refuse anything else),
// so this quote is what the model sees of what it sent.
const sentArgsClip = 300

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func paramList(s *jsonschema.Schema) string {
	var parts []string
	for _, name := range propertyNames(s) {
		p := name
		if !slices.Contains(s.Required, name) {
			p += " (optional)"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "no parameters: {}"
	}
	return "the parameters " + strings.Join(parts, ", ")
}

// dropNulls deletes optional properties sent as null, recursively.
func dropNulls(obj map[string]any, s *jsonschema.Schema) {
	for name, val := range obj {
		p := s.Properties[name]
		if val == nil && !slices.Contains(s.Required, name) {
			delete(obj, name)
			continue
		}
		if p == nil {
			continue
		}
		switch v := val.(type) {
		case map[string]any:
			dropNulls(v, p)
		case []any:
			for _, it := range v {
				if m, ok := it.(map[string]any); ok && p.Items != nil {
					dropNulls(m, p.Items)
				}
			}
		}
	}
}

// wholeIntegers rewrites integers spelt as 45.0 or 4.5e1 (valid JSON
// Schema integers) as 45, which encoding/json can decode into an int.
func wholeIntegers(v any, s *jsonschema.Schema) any {
	switch x := v.(type) {
	case json.Number:
		if schemaType(s) == "integer" {
			if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
		}
	case map[string]any:
		for k, it := range x {
			if p := s.Properties[k]; p != nil {
				x[k] = wholeIntegers(it, p)
			}
		}
	case []any:
		for i, it := range x {
			if s.Items != nil {
				x[i] = wholeIntegers(it, s.Items)
			}
		}
	}
	return v
}

// plainNumbers converts json.Number to float64 for the validator.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, it := range x {
			out[k] = plainNumbers(it)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = plainNumbers(it)
		}
		return out
	}
	return v
}

// explain finds the first problem in v against s and says it precisely,
// with the path and what to send instead.
func explain(v any, s *jsonschema.Schema, path string) *tool.Error {
	at := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	desc := func(p *jsonschema.Schema, name string) string {
		if p != nil && p.Description != "" {
			return name + " is " + p.Description
		}
		return ""
	}
	switch want := schemaType(s); want {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return callErr(session.KindInvalidArgs, path, "send an object with "+paramList(s), "%s must be an object, not %s", label(path), jsonKind(v))
		}
		for _, name := range s.Required {
			if _, ok := obj[name]; !ok {
				return callErr(session.KindInvalidArgs, at(name), desc(s.Properties[name], name), "the required parameter %q is missing", name)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			if _, ok := s.Properties[name]; !ok {
				hint := paramList(s)
				if near := suggest.Nearest(name, propertyNames(s), 2); near != "" {
					hint = fmt.Sprintf("did you mean %q? Allowed: %s", near, hint)
				}
				return callErr(session.KindInvalidArgs, at(name), hint, "%q is not a parameter of this tool", name)
			}
		}
		for _, name := range propertyNames(s) {
			if val, ok := obj[name]; ok {
				if ce := explain(val, s.Properties[name], at(name)); ce != nil {
					return ce
				}
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return callErr(session.KindInvalidArgs, path, "send a JSON array", "%s must be an array, not %s", label(path), jsonKind(v))
		}
		if s.MinItems != nil && len(arr) < *s.MinItems || s.MaxItems != nil && len(arr) > *s.MaxItems {
			return callErr(session.KindInvalidArgs, path, fmt.Sprintf("send %s", itemRange(s)), "%s has %d items", label(path), len(arr))
		}
		for i, it := range arr {
			if ce := explain(it, s.Items, fmt.Sprintf("%s[%d]", path, i)); ce != nil {
				return ce
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return callErr(session.KindInvalidArgs, path, desc(s, label(path)), "%s must be a string, not %s", label(path), jsonKind(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, any(str)) {
			return callErr(session.KindInvalidArgs, path, "use one of "+enumList(s.Enum), "%q is not an allowed value for %s", str, label(path))
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
				return callErr(session.KindInvalidArgs, path, desc(s, label(path)), "%q is not a valid value for %s", str, label(path))
			}
		}
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			return callErr(session.KindInvalidArgs, path, desc(s, label(path)), "%s must be a number, not %s", label(path), jsonKind(v))
		}
		f, err := n.Float64()
		if err != nil {
			return callErr(session.KindInvalidArgs, path, "", "%s is not a usable number", label(path))
		}
		if want == "integer" && f != math.Trunc(f) {
			return callErr(session.KindInvalidArgs, path, "send a whole number", "%s must be a whole number, got %v", label(path), n)
		}
		if s.Minimum != nil && f < *s.Minimum || s.Maximum != nil && f > *s.Maximum {
			return callErr(session.KindInvalidArgs, path, fmt.Sprintf("%s must be %s", label(path), numRange(s)), "%s = %v is out of range", label(path), n)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return callErr(session.KindInvalidArgs, path, "send true or false", "%s must be true or false, not %s", label(path), jsonKind(v))
		}
	}
	return nil
}

func schemaType(s *jsonschema.Schema) string {
	if s == nil {
		return ""
	}
	if s.Type != "" {
		return s.Type
	}
	for _, t := range s.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

func label(path string) string {
	if path == "" {
		return "the arguments"
	}
	return path
}

func numRange(s *jsonschema.Schema) string {
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf("between %g and %g", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		return fmt.Sprintf("at least %g", *s.Minimum)
	}
	return fmt.Sprintf("at most %g", *s.Maximum)
}

func itemRange(s *jsonschema.Schema) string {
	switch {
	case s.MinItems != nil && s.MaxItems != nil:
		return fmt.Sprintf("between %d and %d items", *s.MinItems, *s.MaxItems)
	case s.MinItems != nil:
		return fmt.Sprintf("at least %d items", *s.MinItems)
	}
	return fmt.Sprintf("at most %d items", *s.MaxItems)
}

func enumList(values []any) string {
	var parts []string
	for _, v := range values {
		if v != nil {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, ", ")
}
