package yamlsrc

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const lessonSrc = `# Photosynthesis, grade 7
version: 1

metadata:
  title: 'Photosynthesis'   # working title
  subject: biology
  objectives:   # two or three
  grade: !pending "grade 7 probably"
  duration_minutes: 45

slides:
  # opening
  - id: hook
    title: "Why are leaves green?"
    notes: !pending

  # the practice block
  - !pending "two practice slides"
  - id: wrap
    title: Wrap-up
`

func mustParse(t *testing.T, src string) *Source {
	t.Helper()
	s, err := Parse("lesson.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return s
}

// clone copies a tree without positions, comments or styles, as a modality
// would build it from its typed model.
func clone(n *yaml.Node) *yaml.Node {
	n = deref(n)
	c := &yaml.Node{Kind: n.Kind, Tag: n.Tag, Value: n.Value}
	if _, ok := Pending(n); ok {
		c = PendingNode(n.Value)
		if n.Tag == "!!null" {
			c = PendingNode("")
		}
	}
	for _, ch := range n.Content {
		c.Content = append(c.Content, clone(ch))
	}
	return c
}

func get(n *yaml.Node, path ...string) *yaml.Node {
	for _, k := range path {
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				n, found = n.Content[i+1], true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return n
}

func set(n *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return
		}
	}
	n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: items}
}

func mapping(kv ...string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i]), scalar(kv[i+1]))
	}
	return m
}

// patch applies change to a copy of src's tree, patches, and checks that the
// result parses back to exactly the changed tree.
func patch(t *testing.T, src string, change func(root *yaml.Node)) string {
	t.Helper()
	s := mustParse(t, src)
	cur := clone(s.Root)
	change(cur)
	out, err := s.Patch(cur)
	if err != nil {
		t.Fatalf("patch: %v", err)
	}
	back, err := Parse("out.yaml", out)
	if err != nil {
		t.Fatalf("patched output does not parse: %v\n%s", err, out)
	}
	if !Equal(back.Root, cur) {
		t.Fatalf("patched output does not hold the change:\n%s", out)
	}
	return string(out)
}

func TestPatchUnchangedKeepsBytes(t *testing.T) {
	files := []string{
		lessonSrc,
		"a: 1\nb: [1, 2]\n",
		"# only a comment above\nkey: value   # trailing\n\n\n# foot\n",
		"list:\n- a\n- b\n", // compact sequence style
		"text: |\n  line one\n\n  line three\nnext: >-\n  folded\n  text\n",
		"no_newline_at_end: true",
		"anchors:\n  base: &b {x: 1}\n  copy: *b\n",
		"quoted: \"tab\\there\"\nsingle: 'it''s'\nunicode: \"ünïcødé\"\n",
	}
	for _, src := range files {
		s := mustParse(t, src)
		out, err := s.Patch(clone(s.Root))
		if err != nil {
			t.Fatalf("patch: %v", err)
		}
		if string(out) != src {
			t.Errorf("unchanged tree changed the file:\n--- want\n%s\n--- got\n%s", src, out)
		}
	}
}

func TestPatchPendingScalarBecomesScalar(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		set(get(r, "metadata"), "grade", scalar("7"))
	})
	want := strings.Replace(lessonSrc, `grade: !pending "grade 7 probably"`, `grade: 7`, 1)
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPatchNullBecomesListKeepingComment(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		set(get(r, "metadata"), "objectives", seq(scalar("Explain photosynthesis"), scalar("Name its inputs")))
	})
	want := strings.Replace(lessonSrc, "  objectives:   # two or three\n",
		"  objectives:   # two or three\n    - Explain photosynthesis\n    - Name its inputs\n", 1)
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPatchPendingItemBecomesItems(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		slides := get(r, "slides")
		slides.Content = []*yaml.Node{slides.Content[0],
			mapping("id", "p1", "title", "Practice one"),
			mapping("id", "p2", "title", "Practice two"),
			slides.Content[2]}
	})
	want := strings.Replace(lessonSrc, "  - !pending \"two practice slides\"\n",
		"  - id: p1\n    title: Practice one\n  - id: p2\n    title: Practice two\n", 1)
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPatchMoveAndDeleteKeepComments(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		slides := get(r, "slides")
		slides.Content = []*yaml.Node{slides.Content[2], slides.Content[0]}
	})
	for _, keep := range []string{"# opening", "# the practice block", "title: \"Why are leaves green?\""} {
		if !strings.Contains(out, keep) {
			t.Errorf("lost %q:\n%s", keep, out)
		}
	}
	if strings.Contains(out, "two practice slides") {
		t.Errorf("deleted item still there:\n%s", out)
	}
}

func TestPatchInsertAndDeleteKeys(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		m := get(r, "metadata")
		set(m, "language", scalar("en"))
		m.Content = append(m.Content[:2], m.Content[4:]...) // drop subject
	})
	if strings.Contains(out, "subject") || !strings.Contains(out, "  duration_minutes: 45\n  language: en\n") {
		t.Errorf("got\n%s", out)
	}
	if !strings.Contains(out, "title: 'Photosynthesis'   # working title") {
		t.Errorf("untouched line changed:\n%s", out)
	}
}

func TestPatchNestedInsideMovedItem(t *testing.T) {
	out := patch(t, lessonSrc, func(r *yaml.Node) {
		slides := get(r, "slides")
		hook := slides.Content[0]
		set(hook, "notes", scalar("Ask the class.\nThen show a leaf."))
		slides.Content = []*yaml.Node{slides.Content[2], hook}
	})
	if !strings.Contains(out, "    notes: |-\n      Ask the class.\n      Then show a leaf.\n") {
		t.Errorf("got\n%s", out)
	}
}

func TestPatchWholePendingMapping(t *testing.T) {
	src := "slides:\n  - id: a\n    whiteboard: !pending \"a diagram\"  # keep me\n"
	out := patch(t, src, func(r *yaml.Node) {
		wb := &yaml.Node{Kind: yaml.MappingNode}
		set(wb, "heading", scalar("Leaf"))
		set(wb, "elements", seq(mapping("id", "e1", "type", "text")))
		set(get(r, "slides").Content[0], "whiteboard", wb)
	})
	want := "slides:\n  - id: a\n    whiteboard: # keep me\n      heading: Leaf\n      elements:\n        - id: e1\n          type: text\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPatchNoTrailingNewline(t *testing.T) {
	out := patch(t, "a: 1\nb:", func(r *yaml.Node) {
		set(r, "b", scalar("2"))
		set(r, "c", scalar("3"))
	})
	if out != "a: 1\nb: 2\nc: 3" {
		t.Errorf("got %q", out)
	}
}

func TestPatchFourSpaceIndent(t *testing.T) {
	src := "metadata:\n    title: x\n    objectives:\n"
	out := patch(t, src, func(r *yaml.Node) {
		set(get(r, "metadata"), "objectives", seq(scalar("a")))
	})
	if out != "metadata:\n    title: x\n    objectives:\n        - a\n" {
		t.Errorf("got %q", out)
	}
}

func TestPatchBlockValueToScalar(t *testing.T) {
	src := "a:   # note\n  - x\n  - y\nb: 1\n"
	out := patch(t, src, func(r *yaml.Node) { set(r, "a", scalar("z")) })
	if out != "a:   # note\n  z\nb: 1\n" {
		t.Errorf("got %q", out)
	}
}

func TestEndOfScalars(t *testing.T) {
	src := "a: plain text  # c\nb: \"dq \\\" x\"\nc: 'sq '' x'\nd: |\n  one\n\n  two\ne: multi\n  line plain\nf: !pending\ng: &x !pending \"h\"\n"
	s := mustParse(t, src)
	want := map[string]string{
		"a": "plain text", "b": `"dq \" x"`, "c": `'sq '' x'`, "d": "|\n  one\n\n  two",
		"e": "multi\n  line plain", "f": "!pending", "g": `&x !pending "h"`,
	}
	for i := 0; i+1 < len(s.Root.Content); i += 2 {
		k, v := s.Root.Content[i], s.Root.Content[i+1]
		got := string(s.text[s.start(v):s.End(v)])
		if got != want[k.Value] {
			t.Errorf("%s: extent %q, want %q", k.Value, got, want[k.Value])
		}
	}
}

func TestParseErrorsHavePositions(t *testing.T) {
	_, err := Parse("bad.yaml", []byte("a: 1\nb: [1, 2\nc: 3\n"))
	ps, ok := err.(Problems)
	if !ok || len(ps) != 1 || ps[0].File != "bad.yaml" || !strings.Contains(ps[0].Message, "did not find expected") {
		t.Fatalf("got %v", err)
	}
	_, err = Parse("tab.yaml", []byte("a:\n\tb: 1\n"))
	if err == nil || !strings.Contains(err.Error(), "tab") {
		t.Fatalf("tab error should mention tabs: %v", err)
	}
	_, err = Parse("empty.yaml", nil)
	if err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty: %v", err)
	}
}

// An item written as "- # note" with its content below is still spliced
// item by item, so comments elsewhere in the list survive a change.
func TestPatchItemAfterCommentedDash(t *testing.T) {
	src := "slides:\n  - # the first slide\n    id: a\n    title: A   # and this\n  - id: b\n    heading: !pending\n"
	out := patch(t, src, func(r *yaml.Node) {
		set(get(r, "slides").Content[1], "heading", scalar("B"))
	})
	want := strings.Replace(src, "heading: !pending", "heading: B", 1)
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out = patch(t, src, func(r *yaml.Node) {
		sl := get(r, "slides")
		sl.Content = append(sl.Content, mapping("id", "c"))
	})
	if !strings.HasPrefix(out, src) {
		t.Errorf("adding an item changed the ones before it:\n%s", out)
	}
}

// Filling a null key with a block leaves the key's line as written, so a
// comment aligned with its neighbours stays in its column.
func TestPatchNullKeepsCommentColumn(t *testing.T) {
	src := "metadata:\n  objectives:      # c\n  grade: 7         # d\n"
	out := patch(t, src, func(r *yaml.Node) {
		set(get(r, "metadata"), "objectives", seq(scalar("a"), scalar("b")))
	})
	want := "metadata:\n  objectives:      # c\n    - a\n    - b\n  grade: 7         # d\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Items added at a placeholder among keyless mappings (vocabulary terms)
// leave every other item's bytes, even one filled in the same run.
func TestPatchItemsAtPlaceholderAmongKeyless(t *testing.T) {
	src := "vocabulary:   # terms\n" +
		"  - legion                  # bare\n" +
		"  - {term: villa, definition: !pending}   # define\n" +
		"  - !pending \"two more terms\"\n" +
		"  - {term: empire, definition: lands}\n"
	out := patch(t, src, func(r *yaml.Node) {
		v := get(r, "vocabulary")
		villa := mapping("term", "villa", "definition", "a farm")
		v.Content = []*yaml.Node{v.Content[0], villa,
			mapping("term", "fort", "definition", "a camp"),
			mapping("term", "road", "definition", "a way"),
			v.Content[3]}
	})
	want := "vocabulary:   # terms\n" +
		"  - legion                  # bare\n" +
		"  - {term: villa, definition: a farm}   # define\n" +
		"  - term: fort\n    definition: a camp\n" +
		"  - term: road\n    definition: a way\n" +
		"  - {term: empire, definition: lands}\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
