package yamlsrc

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/suggest"
)

// The codec maps YAML nodes to Go structs and back, the way both modalities
// need it and yaml.v3's own decoder does not: pending markers become Field
// states or Placeholder items, every problem is reported with its position
// (all of them, not just the first), unknown keys get a "did you mean", and
// encoding keeps struct field order so the patcher can match keys.
//
// Struct tags: `yaml:"name"` (required key) or `yaml:"name,omitempty"`
// (optional, omitted when zero). Field[T] fields are optional unless tagged
// `yaml:"name,required"` (the key must be there, though it may be pending). A
// field `Src *yaml.Node` with tag `yaml:"-"` receives the struct's node.

// KeyOmitter lets a struct drop keys that make no sense for its current
// variant (an arrow has no x or y) while still writing zero values elsewhere.
type KeyOmitter interface {
	OmitKey(key string) bool
}

// KeyDeriver lets a struct leave out of the file a value it derived
// rather than read (an id the author did not write), so a save adds
// nothing to what the author wrote. Unlike KeyOmitter it says nothing of
// which keys a variant may have, so the schema is not affected.
type KeyDeriver interface {
	DerivedKey(key string) bool
}

// NodeDecoder and NodeEncoder let a type that is not a plain struct (such as
// a whiteboard given inline, by file, or as pending) handle its own node.
type NodeDecoder interface {
	DecodeNode(n *yaml.Node, r *Reporter, path string)
}

// ItemNamer names the items of list, found at path, in messages, replacing
// the generic path list[i] (a slide is named by its id, written or derived,
// and its 1-based position). It names the whole list at once, as a derived
// id depends on the ids of the other items; "" keeps the generic path.
type ItemNamer interface {
	ItemNames(path string, list *yaml.Node) []string
}

type NodeEncoder interface {
	EncodeNode() (n *yaml.Node, present bool)
}

// KeySet takes the keys of a mapping that its struct's fields do not name,
// such as a slide's children, whose names a registry decides. A field
// tagged `yaml:",rest"` whose pointer implements it receives them; a key
// that looks like a misspelt field is still reported as unknown. The keys
// it holds are encoded after the struct's fields, in the order it gives.
type KeySet interface {
	DecodeKey(key, val *yaml.Node)
	EncodeKeys() []*yaml.Node
}

type fieldInfo struct {
	name     string
	index    int
	optional bool
}

type structInfo struct {
	fields []fieldInfo
	byName map[string]int
	src    int // index of the Src field, or -1
	rest   int // index of the KeySet field, or -1
}

var structCache sync.Map // reflect.Type → *structInfo

var nodePtrType = reflect.TypeFor[*yaml.Node]()

func infoFor(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}, src: -1, rest: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			if f.Name == "Src" && f.Type == nodePtrType {
				si.src = i
			}
			continue
		}
		if f.Anonymous && tag == "" {
			continue // embedded helpers such as Placeholder carry no keys
		}
		name, opts, _ := strings.Cut(tag, ",")
		if _, ok := reflect.New(f.Type).Interface().(KeySet); ok && opts == "rest" {
			si.rest = i
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		_, isField := reflect.New(f.Type).Interface().(fieldPtr)
		_, custom := reflect.New(f.Type).Interface().(NodeDecoder)
		si.byName[name] = len(si.fields)
		optional := (isField || custom || opts == "omitempty") && opts != "required"
		si.fields = append(si.fields, fieldInfo{name: name, index: i, optional: optional})
	}
	structCache.Store(t, si)
	return si
}

// Decode fills out (a pointer) from n, reporting every problem to r.
// Messages name values by path, starting at path ("" for the document).
func Decode(n *yaml.Node, out any, r *Reporter, path string) {
	decodeValue(n, reflect.ValueOf(out).Elem(), r, path)
}

func describeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", excerpt(n.Value))
}

// excerptRunes bounds how much of a wrong value a message quotes: enough
// to recognise it, never a whole file that was named by mistake.
const excerptRunes = 40

// excerpt is v's first line, cut to excerptRunes with an ellipsis.
func excerpt(v string) string {
	line, _, more := strings.Cut(v, "\n")
	if r := []rune(line); len(r) > excerptRunes {
		line, more = string(r[:excerptRunes]), true
	}
	if more {
		line += "…"
	}
	return line
}

func label(path string) string {
	if path == "" {
		return "the top level"
	}
	return path
}

func decodeValue(n *yaml.Node, v reflect.Value, r *Reporter, path string) {
	n = deref(n)
	if n == nil {
		return
	}
	if v.CanAddr() {
		if nd, ok := v.Addr().Interface().(NodeDecoder); ok {
			nd.DecodeNode(n, r, path)
			return
		}
		if fp, ok := v.Addr().Interface().(fieldPtr); ok {
			if hint, pending := Pending(n); pending {
				fp.markPending(hint)
				return
			}
			decodeValue(n, reflect.ValueOf(fp.valuePtr()).Elem(), r, path)
			fp.markSet()
			return
		}
	}
	if _, pending := Pending(n); pending {
		if n.Tag == PendingTag {
			r.At(n, "%s cannot be pending; write its value (only optional values, lists and whiteboards can be generated)", label(path))
		} else {
			r.At(n, "%s needs a value", label(path))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		decodeValue(n, v.Elem(), r, path)
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			r.At(n, "%s must be text, not %s", label(path), describeKind(n))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
			r.At(n, "%s must be true or false, got %s", label(path), describeKind(n))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if n.Kind != yaml.ScalarNode || n.Decode(&i) != nil {
			r.At(n, "%s must be a whole number, got %s", label(path), describeKind(n))
			return
		}
		v.SetInt(i)
	case reflect.Float32, reflect.Float64:
		var f float64
		if n.Kind != yaml.ScalarNode || n.Decode(&f) != nil {
			r.At(n, "%s must be a number, got %s", label(path), describeKind(n))
			return
		}
		v.SetFloat(f)
	case reflect.Struct:
		decodeStruct(n, v, r, path)
	case reflect.Slice:
		decodeSlice(n, v, r, path)
	case reflect.Map:
		decodeMap(n, v, r, path)
	default:
		r.At(n, "%s: unsupported type %s", label(path), v.Type())
	}
}

func decodeStruct(n *yaml.Node, v reflect.Value, r *Reporter, path string) {
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a mapping of keys to values, not %s", label(path), describeKind(n))
		return
	}
	si := infoFor(v.Type())
	if si.src >= 0 {
		v.Field(si.src).Set(reflect.ValueOf(n))
	}
	suggested := map[string]bool{} // a misspelt key is reported once, not also as missing
	seen, _ := Entries(n, r, label(path), func(key, val *yaml.Node) {
		name := key.Value
		idx, ok := si.byName[name]
		if !ok {
			hint, near := didYouMean(name, si)
			if si.rest >= 0 && near == "" {
				v.Field(si.rest).Addr().Interface().(KeySet).DecodeKey(key, val)
				return
			}
			if near != "" {
				suggested[near] = true
			}
			where := "in " + path
			if path == "" {
				where = "at the top level"
			}
			r.At(key, "unknown key %q %s%s", name, where, hint)
			return
		}
		decodeValue(val, v.Field(si.fields[idx].index), r, join(path, name))
	})
	omitter, _ := v.Interface().(KeyOmitter)
	for _, f := range si.fields {
		if !f.optional && seen[f.name] == nil && !suggested[f.name] && (omitter == nil || !omitter.OmitKey(f.name)) {
			r.At(n, "%s is missing the required key %q", label(path), f.name)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func decodeSlice(n *yaml.Node, v reflect.Value, r *Reporter, path string) {
	if n.Kind != yaml.SequenceNode {
		r.At(n, "%s must be a list, not %s", label(path), describeKind(n))
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	namer, _ := reflect.New(v.Type().Elem()).Interface().(ItemNamer)
	if v.Type().Elem().Kind() == reflect.Pointer {
		namer, _ = reflect.New(v.Type().Elem().Elem()).Interface().(ItemNamer)
	}
	var names []string
	if namer != nil {
		names = namer.ItemNames(path, n)
	}
	for i, item := range n.Content {
		elem := out.Index(i)
		if elem.Kind() == reflect.Pointer {
			elem.Set(reflect.New(elem.Type().Elem()))
		}
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		if i < len(names) && names[i] != "" {
			itemPath = names[i]
		}
		if hint, pending := Pending(deref(item)); pending {
			target := elem
			if target.Kind() != reflect.Pointer {
				target = target.Addr()
			}
			if ph, ok := target.Interface().(placeholderItem); ok {
				*ph.placeholder() = Placeholder{IsPlaceholder: true, Hint: hint}
				continue
			}
		}
		decodeValue(item, elem, r, itemPath)
	}
	v.Set(out)
}

func decodeMap(n *yaml.Node, v reflect.Value, r *Reporter, path string) {
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a mapping of keys to values, not %s", label(path), describeKind(n))
		return
	}
	m := reflect.MakeMap(v.Type())
	Entries(n, r, label(path), func(key, val *yaml.Node) {
		elem := reflect.New(v.Type().Elem()).Elem()
		decodeValue(val, elem, r, join(path, key.Value))
		m.SetMapIndex(reflect.ValueOf(key.Value), elem)
	})
	v.Set(m)
}

// didYouMean returns `; did you mean "x"?` for a near-miss key, or a list of
// the keys allowed, and the near miss if there is one.
func didYouMean(name string, si *structInfo) (hint, near string) {
	names := make([]string, len(si.fields))
	for i, f := range si.fields {
		names[i] = f.name
	}
	if best := suggest.Nearest(name, names, 2); best != "" {
		return fmt.Sprintf("; did you mean %q?", best), best
	}
	return "; allowed keys: " + strings.Join(names, ", "), ""
}

// Encode builds the node tree for v in struct field order: absent fields are
// left out, pending ones become !pending markers.
func Encode(v any) *yaml.Node {
	n, _ := encodeValue(reflect.ValueOf(v))
	return n
}

func encodeValue(v reflect.Value) (*yaml.Node, bool) {
	if v.CanAddr() {
		// A list item placeholder, whatever its type encodes otherwise.
		if ph, ok := v.Addr().Interface().(placeholderItem); ok && ph.placeholder().IsPlaceholder {
			return PendingNode(ph.placeholder().Hint), true
		}
	}
	if ne, ok := v.Interface().(NodeEncoder); ok {
		return ne.EncodeNode()
	}
	if fv, ok := v.Interface().(fieldVal); ok {
		set, pending, hint, value := fv.state()
		switch {
		case pending:
			return PendingNode(hint), true
		case set:
			return encodeValue(reflect.ValueOf(value))
		}
		return nil, false
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, false
		}
		if ph, ok := v.Interface().(placeholderItem); ok && ph.placeholder().IsPlaceholder {
			return PendingNode(ph.placeholder().Hint), true
		}
		return encodeValue(v.Elem())
	}
	switch v.Kind() {
	case reflect.String:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v.String()}
		switch {
		case strings.Contains(v.String(), "\n"):
			n.Style = yaml.LiteralStyle
		case yaml11Bools[strings.ToLower(v.String())]:
			// Quote words YAML 1.1 tools (PyYAML, older Ruby) read as booleans.
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, true
	case reflect.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool())}, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v.Int(), 10)}, true
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		tag := "!!float"
		if f == float64(int64(f)) {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: strconv.FormatFloat(f, 'f', -1, 64)}, true
	case reflect.Struct:
		return encodeStruct(v), true
	case reflect.Slice:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if v.Len() == 0 {
			n.Style = yaml.FlowStyle
		}
		for i := range v.Len() {
			if item, ok := encodeValue(v.Index(i)); ok {
				n.Content = append(n.Content, item)
			}
		}
		return n, true
	case reflect.Map:
		n := &yaml.Node{Kind: yaml.MappingNode}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			if val, ok := encodeValue(v.MapIndex(k)); ok {
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k.String()}, val)
			}
		}
		return n, true
	}
	return nil, false
}

var yaml11Bools = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

func encodeStruct(v reflect.Value) *yaml.Node {
	if v.CanAddr() {
		if ph, ok := v.Addr().Interface().(placeholderItem); ok && ph.placeholder().IsPlaceholder {
			return PendingNode(ph.placeholder().Hint)
		}
	}
	omitter, _ := v.Interface().(KeyOmitter)
	deriver, _ := v.Interface().(KeyDeriver)
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range infoFor(v.Type()).fields {
		fv := v.Field(f.index)
		if omitter != nil && omitter.OmitKey(f.name) || deriver != nil && deriver.DerivedKey(f.name) {
			continue
		}
		if f.optional && fv.IsZero() {
			continue
		}
		if val, ok := encodeValue(fv); ok {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.name}, val)
		}
	}
	if si := infoFor(v.Type()); si.rest >= 0 {
		n.Content = append(n.Content, v.Field(si.rest).Interface().(interface{ EncodeKeys() []*yaml.Node }).EncodeKeys()...)
	}
	return n
}

// Keys lists the keys the struct type of v names, in field order.
func Keys(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for _, f := range infoFor(t).fields {
		names = append(names, f.name)
	}
	return names
}

// Entries calls fn with each key and value of mapping n, in order, except
// a key written twice: that one is reported at its second place (where
// names the mapping in the message) and left out. It returns the keys
// seen, by name, and whether any was doubled. Every reader of a mapping,
// reflective or hand-written, goes through it, so a doubled key reads the
// same everywhere.
func Entries(n *yaml.Node, r *Reporter, where string, fn func(k, v *yaml.Node)) (seen map[string]*yaml.Node, doubled bool) {
	seen = map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			r.At(k, "duplicate key %q in %s (first at line %d); keep one", k.Value, where, first.Line)
			doubled = true
			continue
		}
		seen[k.Value] = k
		fn(k, v)
	}
	return seen, doubled
}
