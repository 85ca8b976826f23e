package yamlsrc

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type codecItem struct {
	Placeholder
	Src *yaml.Node `yaml:"-"`

	ID   string        `yaml:"id"`
	Note Field[string] `yaml:"note"`
}

type codecDoc struct {
	Src *yaml.Node `yaml:"-"`

	Name  string          `yaml:"name"`
	Count int             `yaml:"count,omitempty"`
	Ratio float64         `yaml:"ratio,omitempty"`
	On    bool            `yaml:"on,omitempty"`
	Title Field[string]   `yaml:"title,required"`
	Hint  Field[string]   `yaml:"hint"`
	Size  Field[int]      `yaml:"size"`
	Tags  Field[[]string] `yaml:"tags"`
	Items []*codecItem    `yaml:"items,omitempty"`
	Extra map[string]int  `yaml:"extra,omitempty"`
}

func decodeDoc(t *testing.T, src string) (codecDoc, Problems) {
	t.Helper()
	s := mustParse(t, src)
	var d codecDoc
	r := &Reporter{File: "doc.yaml"}
	Decode(s.Root, &d, r, "")
	return d, r.Problems
}

func TestDecodeFieldStates(t *testing.T) {
	src := `name: n
title: !pending "a short title"
hint:
size: 3
tags: !pending
`
	d, ps := decodeDoc(t, src)
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	tests := []struct {
		name string
		got  Field[string]
		want Field[string]
	}{
		{"tagged pending with hint", d.Title, Field[string]{Pending: true, Hint: "a short title"}},
		{"null is pending without hint", d.Hint, Field[string]{Pending: true}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	if d.Size != Val(3) {
		t.Errorf("size = %+v, want set to 3", d.Size)
	}
	if !d.Tags.Pending || d.Tags.Set || d.Tags.Value != nil {
		t.Errorf("tags = %+v, want pending", d.Tags)
	}
	if d.Src == nil || d.Src.Kind != yaml.MappingNode || d.Src.Line != 1 {
		t.Errorf("Src not set to the struct's node")
	}
}

func TestDecodePendingSpellings(t *testing.T) {
	tests := []struct {
		value string
		want  Field[string]
	}{
		{`""`, Val("")},
		{"~", Field[string]{Pending: true}},
		{"null", Field[string]{Pending: true}},
		{"!pending", Field[string]{Pending: true}},
		{`!pending ""`, Field[string]{Pending: true}},
		{`!pending "two or three"`, Field[string]{Pending: true, Hint: "two or three"}},
		{"!pending\n  \"hint on the next line\"", Field[string]{Pending: true, Hint: "hint on the next line"}},
		// The word is just text; so is a quoted null.
		{"pending", Val("pending")},
		{`"~"`, Val("~")},
		{`'null'`, Val("null")},
		{"12", Val("12")},
	}
	for _, tt := range tests {
		d, ps := decodeDoc(t, "name: n\ntitle: "+tt.value+"\n")
		if len(ps) != 0 {
			t.Errorf("title: %s: problems %v", tt.value, ps)
			continue
		}
		if d.Title != tt.want {
			t.Errorf("title: %s decoded as %+v, want %+v", tt.value, d.Title, tt.want)
		}
	}
}

func TestDecodeAbsentOptionalField(t *testing.T) {
	d, ps := decodeDoc(t, "name: n\ntitle: t\n")
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	if d.Hint.Set || d.Hint.Pending || d.Size.Set || d.Tags.Set {
		t.Errorf("absent fields decoded as present: %+v %+v %+v", d.Hint, d.Size, d.Tags)
	}
	if v := d.Hint.Or("fallback"); v != "fallback" {
		t.Errorf("Or on an absent field = %q", v)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	src := `nmae: n
count: many
ratio: [1]
on: maybe
hint: {a: 1}
tags: just-one
size: 2.5x
items:
  - id: a
    note: x
  - idd: b
  - scalar
extra: [1]
hint: again
colour: red
`
	_, ps := decodeDoc(t, src)
	want := []struct {
		line, col int
		msg       string
	}{
		{1, 1, `unknown key "nmae" at the top level; did you mean "name"?`},
		{2, 8, `count must be a whole number, got "many"`},
		{3, 8, "ratio must be a number, got a list"},
		{4, 5, `on must be true or false, got "maybe"`},
		{5, 7, "hint must be text, not a mapping"},
		{6, 7, `tags must be a list, not "just-one"`},
		{7, 7, `size must be a whole number, got "2.5x"`},
		{11, 5, `unknown key "idd" in items[1]; did you mean "id"?`},
		// The misspelt key is reported once, not also as a missing "id".
		{12, 5, `items[2] must be a mapping of keys to values, not "scalar"`},
		{13, 8, `extra must be a mapping of keys to values, not a list`},
		{14, 1, `duplicate key "hint" in the top level (first at line 5); keep one`},
		{15, 1, `unknown key "colour" at the top level; allowed keys: name, count, ratio, on, title, hint, size, tags, items, extra`},
		// The required title is missing; name is not reported, as nmae was.
		{1, 1, `the top level is missing the required key "title"`},
	}
	for _, w := range want {
		found := false
		for _, p := range ps {
			if p.Line == w.line && p.Col == w.col && p.Message == w.msg && p.File == "doc.yaml" && !p.Warning {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem at %d:%d %q", w.line, w.col, w.msg)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(ps), len(want), ps)
	}
	for _, p := range ps {
		if strings.Contains(p.Message, `required key "name"`) || strings.Contains(p.Message, `items[1] is missing the required key "id"`) {
			t.Errorf("a misspelt key was also reported missing: %v", p)
		}
	}
}

func TestDecodeRequiredValueCannotBePending(t *testing.T) {
	tests := []struct{ src, msg string }{
		{"name: !pending\ntitle: t\n", "name cannot be pending; write its value"},
		{"name:\ntitle: t\n", "name needs a value"},
		{"title: t\n", `the top level is missing the required key "name"`},
		// A Field tagged required must be present, but may be pending.
		{"name: n\n", `the top level is missing the required key "title"`},
	}
	for _, tt := range tests {
		_, ps := decodeDoc(t, tt.src)
		if len(ps) != 1 || !strings.Contains(ps[0].Message, tt.msg) {
			t.Errorf("%q: problems %v, want one containing %q", tt.src, ps, tt.msg)
		}
	}
	if _, ps := decodeDoc(t, "name: n\ntitle:\n"); len(ps) != 0 {
		t.Errorf("a pending required Field is fine, got %v", ps)
	}
}

func TestDecodePlaceholderItems(t *testing.T) {
	src := `name: n
title: t
items:
  - id: a
    note: !pending "say why"
  - !pending "two more items"
  - ~
  - id: b
`
	d, ps := decodeDoc(t, src)
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	if len(d.Items) != 4 {
		t.Fatalf("%d items", len(d.Items))
	}
	if it := d.Items[0]; it.IsPlaceholder || it.ID != "a" || it.Note != (Field[string]{Pending: true, Hint: "say why"}) || it.Src == nil || it.Src.Line != 4 {
		t.Errorf("item 0 = %+v", it)
	}
	if it := d.Items[1]; !it.IsPlaceholder || it.Hint != "two more items" || it.ID != "" {
		t.Errorf("item 1 = %+v, want a placeholder with its hint", it)
	}
	if it := d.Items[2]; !it.IsPlaceholder || it.Hint != "" {
		t.Errorf("item 2 = %+v, want a placeholder without hint", it)
	}
	if it := d.Items[3]; it.IsPlaceholder || it.ID != "b" {
		t.Errorf("item 3 = %+v", it)
	}
	// A list of plain values has no placeholders: a null item is an error.
	_, ps = decodeDoc(t, "name: n\ntitle: t\ntags:\n  - a\n  -\n")
	if len(ps) != 1 || ps[0].Message != "tags[1] needs a value" || ps[0].Line != 5 {
		t.Errorf("null tag: %v", ps)
	}
}

func TestDecodeFollowsAliases(t *testing.T) {
	d, ps := decodeDoc(t, "name: &n shared\ntitle: *n\n")
	if len(ps) != 0 || d.Title != Val("shared") {
		t.Errorf("title = %+v, problems %v", d.Title, ps)
	}
}

func TestEncodeOrderOmissionAndMarkers(t *testing.T) {
	d := codecDoc{
		// Set in a different order than declared: encoding follows the struct.
		Extra: map[string]int{"b": 2, "a": 1},
		Items: []*codecItem{
			{ID: "x", Note: Val("line one\nline two")},
			{Placeholder: Placeholder{IsPlaceholder: true, Hint: "more"}},
			{ID: "z", Note: Todo[string]("")},
		},
		Tags:  Val([]string{}),
		Size:  Val(0),
		Title: Todo[string]("a title"),
		Ratio: 2.5,
		Count: 3,
		Name:  "doc",
	}
	out, err := Render(Encode(d), 2)
	if err != nil {
		t.Fatal(err)
	}
	// Absent: on (omitempty, false), hint (Field never set). Present though
	// zero: size and tags, which are set.
	want := `name: doc
count: 3
ratio: 2.5
title: !pending "a title"
size: 0
tags: []
items:
  - id: x
    note: |-
      line one
      line two
  - !pending "more"
  - id: z
    note: !pending
extra:
  a: 1
  b: 2
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestEncodeRequiredZeroValueIsWritten(t *testing.T) {
	out, err := Render(Encode(codecDoc{}), 2)
	if err != nil {
		t.Fatal(err)
	}
	// name is required and written even empty; the required title has no
	// value at all and so cannot be written.
	if string(out) != "name: \"\"\n" {
		t.Errorf("got %q", out)
	}
}

func TestEncodeNumbers(t *testing.T) {
	tests := []struct {
		v         any
		tag, text string
	}{
		{3, "!!int", "3"},
		{int64(-7), "!!int", "-7"},
		{2.5, "!!float", "2.5"},
		{3.0, "!!int", "3"}, // whole floats are written as integers
		{0.1, "!!float", "0.1"},
		{1e6, "!!int", "1000000"},
		{true, "!!bool", "true"},
		{"3", "!!str", "3"},
	}
	for _, tt := range tests {
		n := Encode(tt.v)
		if n.Tag != tt.tag || n.Value != tt.text {
			t.Errorf("Encode(%#v) = %s %q, want %s %q", tt.v, n.Tag, n.Value, tt.tag, tt.text)
		}
		// What is written reads back as the same value.
		out, err := Render(n, 2)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(tt.v))
		if err := yaml.Unmarshal(out, back.Interface()); err != nil || !reflect.DeepEqual(back.Elem().Interface(), tt.v) {
			t.Errorf("%#v written as %q reads back as %v (%v)", tt.v, out, back.Elem(), err)
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := codecDoc{
		Name:  "n: with a colon",
		Count: 2,
		On:    true,
		Title: Val("multi\nline\n"),
		Hint:  Todo[string]("later"),
		Tags:  Val([]string{"a", "#not a comment", "yes"}),
		Items: []*codecItem{{ID: "a"}, {Placeholder: Placeholder{IsPlaceholder: true, Hint: "h"}}},
		Extra: map[string]int{"k": 1},
	}
	out, err := Render(Encode(in), 2)
	if err != nil {
		t.Fatal(err)
	}
	got, ps := decodeDoc(t, string(out))
	if len(ps) != 0 {
		t.Fatalf("problems reading back:\n%s\n%v", out, ps)
	}
	got.Src = nil
	for _, it := range got.Items {
		it.Src = nil
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip through\n%s\ngot  %+v\nwant %+v", out, got, in)
	}
}

// variant drops keys that make no sense for its kind, when reading and
// writing.
type variant struct {
	Kind string `yaml:"kind"`
	X    int    `yaml:"x"`
}

func (v variant) OmitKey(key string) bool { return v.Kind == "line" && key == "x" }

func TestKeyOmitter(t *testing.T) {
	var v variant
	r := &Reporter{File: "v.yaml"}
	Decode(mustParse(t, "kind: line\n").Root, &v, r, "")
	if len(r.Problems) != 0 {
		t.Errorf("an omitted key was required: %v", r.Problems)
	}
	Decode(mustParse(t, "kind: box\n").Root, &v, r, "")
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, `required key "x"`) {
		t.Errorf("a non-omitted key was not required: %v", r.Problems)
	}
	if out, _ := Render(Encode(variant{Kind: "line", X: 5}), 2); string(out) != "kind: line\n" {
		t.Errorf("encoded %q", out)
	}
	if out, _ := Render(Encode(variant{Kind: "box"}), 2); string(out) != "kind: box\nx: 0\n" {
		t.Errorf("encoded %q", out)
	}
}

// upper is a custom-coded value: stored upper case, written lower case.
type upper struct{ v string }

func (u *upper) DecodeNode(n *yaml.Node, r *Reporter, path string) {
	if n.Kind != yaml.ScalarNode {
		r.At(n, "%s must be a word", path)
		return
	}
	u.v = strings.ToUpper(n.Value)
}

func (u upper) EncodeNode() (*yaml.Node, bool) {
	if u.v == "" {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.ToLower(u.v)}, true
}

type withCustom struct {
	Word upper `yaml:"word"`
}

func TestCustomNodeCoders(t *testing.T) {
	var w withCustom
	r := &Reporter{File: "w.yaml"}
	Decode(mustParse(t, "word: hello\n").Root, &w, r, "")
	if len(r.Problems) != 0 || w.Word.v != "HELLO" {
		t.Errorf("decoded %+v, %v", w, r.Problems)
	}
	Decode(mustParse(t, "word: [1]\n").Root, &w, r, "")
	if len(r.Problems) != 1 || r.Problems[0].Message != "word must be a word" {
		t.Errorf("problems %v", r.Problems)
	}
	// A custom type is optional: absent is fine.
	r = &Reporter{File: "w.yaml"}
	Decode(mustParse(t, "{}\n").Root, &withCustom{}, r, "")
	if len(r.Problems) != 0 {
		t.Errorf("absent custom value: %v", r.Problems)
	}
	if out, _ := Render(Encode(withCustom{Word: upper{"HI"}}), 2); string(out) != "word: hi\n" {
		t.Errorf("encoded %q", out)
	}
}

func TestProblemsOrderAndKinds(t *testing.T) {
	ps := Problems{
		{File: "b.yaml", Line: 1, Col: 1, Message: "b"},
		{File: "a.yaml", Line: 9, Col: 2, Message: "late", Warning: true},
		{File: "a.yaml", Line: 9, Col: 1, Message: "early"},
		{File: "a.yaml", Line: 2, Col: 5, Message: "first"},
	}
	ps.Sort()
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{"a.yaml:2:5: first", "a.yaml:9:1: early", "a.yaml:9:2: warning: late", "b.yaml:1:1: b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sorted = %q, want %q", got, want)
	}
	if len(ps.Errs()) != 3 || len(ps.Warnings()) != 1 || len(ps) != 4 {
		t.Errorf("Errs/Warnings split wrong or changed the original")
	}
	if ps.Err() == nil {
		t.Error("Err is nil with errors present")
	}
	if err := ps.Warnings().Err(); err != nil {
		t.Errorf("warnings alone are an error: %v", err)
	}
	if !strings.Contains(ps.Error(), "a.yaml:2:5: first\na.yaml:9:1: early") {
		t.Errorf("Error() = %q", ps.Error())
	}
}

func TestReporterWithoutPositionUsesLineOne(t *testing.T) {
	r := &Reporter{File: "f.yaml"}
	r.At(nil, "x %d", 1)
	r.WarnAt(&yaml.Node{}, "y")
	if r.Problems[0] != (Problem{File: "f.yaml", Line: 1, Col: 1, Message: "x 1"}) || !r.Problems[1].Warning || r.Problems[1].Line != 1 {
		t.Errorf("problems = %+v", r.Problems)
	}
}
