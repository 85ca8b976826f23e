package yamlsrc

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// ListPatcher patches one file again and again as a run changes it, at a
// cost in proportion to what changed since the last call rather than to
// the file. It sees the file as the items of one block list of the root
// mapping (a lesson's slides) and the text around them. PatchItems
// patches only the items given (each against its original text, as Patch
// does) and verifies each by parsing its own text; Patch patches and
// verifies everything, and Seed takes the file as it is. The bytes are those Patch would give; whatever
// cannot be done this way is handed to Patch.
//
// An item's text is checked alone because a block list item cannot reach
// outside itself: it starts with a dash at the list's column, every other
// line is blank, a comment or indented past that column, and what follows
// it (the next dash, a key, the end) ends it as the end of its own text
// would. Anchors, aliases and directives can reach across items: a file
// with any (or a key named twice, or a lone CR) is always patched whole.
type ListPatcher struct {
	s    *Source
	key  string
	unit int
	// The original list, when it can be patched item by item (ok): its
	// items' dashes and column, and each item's text, from its dash's
	// line to the line after it.
	ok         bool
	seq        *yaml.Node
	col        int
	dashes     []int
	start, end []int
	// The last output, when laid out item by item (laid): the text before
	// and after the list, and each item's text.
	laid          bool
	before, after string
	bodies        []string
}

// NewListPatcher returns a ListPatcher of s whose list is the value of
// key in s's root mapping.
func (s *Source) NewListPatcher(key string) *ListPatcher {
	lp := &ListPatcher{s: s, key: key, unit: s.indentUnit()}
	lp.ok = lp.find()
	return lp
}

// find locates the list and the text of each item.
func (lp *ListPatcher) find() bool {
	s := lp.s
	// An anchor or alias needs a & or *: most files have neither, and are
	// not walked.
	if s.Root == nil || s.Root.Kind != yaml.MappingNode || bytes.ContainsAny(s.text, "&*") && anchored(s.Root) || duplicateKeys(s.Root) ||
		bytes.HasPrefix(s.text, []byte("%")) || bytes.Contains(s.text, []byte("\n%")) ||
		bytes.IndexByte(s.text, '\r') >= 0 { // a lone CR ends a line for YAML, not for offsets
		return false
	}
	lp.seq = listOf(s.Root, lp.key)
	p := &patcher{s: s, unit: lp.unit}
	if lp.seq == nil || !p.block(lp.seq) {
		return false
	}
	n := len(lp.seq.Content)
	lp.dashes, lp.start, lp.end = make([]int, n), make([]int, n), make([]int, n)
	for i, item := range lp.seq.Content {
		d, ok := p.dashBefore(item, lp.seq.Column)
		if !ok || !p.cleanBefore(d) {
			return false
		}
		lp.dashes[i] = d
		lp.start[i] = s.lineStart(s.lineOf(d))
		lp.end[i] = s.nextLineStart(s.End(item))
		if lp.end[i] < lp.start[i] || i > 0 && lp.start[i] < lp.end[i-1] {
			return false
		}
	}
	lp.col = s.colOf(lp.dashes[0])
	return true
}

// listOf is the block list at key in mapping m, or nil.
func listOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if v := m.Content[i+1]; v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
				return v
			}
			return nil
		}
	}
	return nil
}

// duplicateKeys reports whether mapping m names a key twice, which Equal
// (by key) cannot tell apart.
func duplicateKeys(m *yaml.Node) bool {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if seen[m.Content[i].Value] {
			return true
		}
		seen[m.Content[i].Value] = true
	}
	return false
}

// anchored reports whether n or anything in it has an anchor or an alias.
func anchored(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	return slices.ContainsFunc(n.Content, anchored)
}

// aligned is cur's list when it holds the original's items in the same
// order (see sameKeys), so each can be patched where it stands.
func (lp *ListPatcher) aligned(cur *yaml.Node) *yaml.Node {
	c := listOf(cur, lp.key)
	if !lp.ok || c == nil || len(c.Content) != len(lp.seq.Content) || !sameKeys(lp.seq.Content, c.Content) {
		return nil
	}
	return c
}

// Patch returns the file's bytes changed to hold cur, like Source.Patch,
// and lays them out for PatchItems.
func (lp *ListPatcher) Patch(cur *yaml.Node) ([]byte, error) {
	lp.laid = false
	c := lp.aligned(cur)
	if c == nil {
		return lp.s.Patch(cur)
	}
	head := &patcher{s: lp.s, unit: lp.unit, skip: lp.seq}
	head.node(lp.s.Root, cur, place{kind: atRoot})
	if head.err != nil {
		return lp.s.Patch(cur)
	}
	first, last := lp.start[0], lp.end[len(lp.end)-1]
	var pre, post []Edit
	for _, e := range head.edits {
		switch {
		case e.End <= first:
			pre = append(pre, e)
		case e.Start >= last:
			post = append(post, Edit{Start: e.Start - last, End: e.End - last, Text: e.Text})
		default:
			return lp.s.Patch(cur) // the change reaches into the list
		}
	}
	before, err1 := Apply(lp.s.text[:first], pre)
	after, err2 := Apply(lp.s.text[last:], post)
	if err1 != nil || err2 != nil {
		return lp.s.Patch(cur)
	}
	bodies := make([]string, len(c.Content))
	var changed []int
	for i := range c.Content {
		body, edited, ok := lp.item(i, c.Content[i])
		if !ok {
			return lp.s.Patch(cur)
		}
		bodies[i] = body
		if edited {
			changed = append(changed, i)
		}
	}
	lp.before, lp.after, lp.bodies = string(before), string(after), bodies
	if len(head.edits) == 0 && len(changed) == 0 {
		lp.laid = true
		return lp.s.Data, nil
	}
	out := lp.assemble()
	if len(head.edits) > 0 {
		// The text around the list changed: check the whole file.
		back, err := Parse(lp.s.File, out)
		if err != nil || !Equal(back.Root, cur) {
			return lp.s.Patch(cur)
		}
	} else {
		for _, i := range changed {
			if !lp.verify(i, c.Content[i]) {
				return lp.s.Patch(cur)
			}
		}
	}
	lp.laid = true
	return lp.s.finish(out), nil
}

// ErrWhole means PatchItems cannot patch the items alone; the caller
// patches the whole file with Patch.
var ErrWhole = errors.New("the file must be patched whole")

// Seed lays out the original text as the last output, for a caller whose
// tree still says what the file says: PatchItems can then follow without
// a first Patch of everything.
func (lp *ListPatcher) Seed() {
	if !lp.ok {
		return
	}
	last := lp.end[len(lp.end)-1]
	lp.before, lp.after = string(lp.s.text[:lp.start[0]]), string(lp.s.text[last:])
	lp.bodies = make([]string, len(lp.seq.Content))
	for i := range lp.bodies {
		lp.bodies[i] = string(lp.s.text[lp.start[i]:lp.end[i]])
	}
	lp.laid = true
}

// PatchItems is Patch when, since the last Patch or Seed, at most the
// list items given (by index) changed: only those are patched and
// checked. It fails with ErrWhole when that cannot be done (nothing laid
// out, or an item is not the original's at its place any more).
func (lp *ListPatcher) PatchItems(items map[int]*yaml.Node) ([]byte, error) {
	if !lp.laid {
		return nil, ErrWhole
	}
	for i, c := range items {
		if i < 0 || i >= len(lp.bodies) || !sameKeys(lp.seq.Content[i:i+1], []*yaml.Node{c}) {
			return nil, ErrWhole
		}
	}
	for _, i := range slices.Sorted(maps.Keys(items)) {
		body, edited, ok := lp.item(i, items[i])
		if !ok {
			lp.laid = false
			return nil, ErrWhole
		}
		lp.bodies[i] = body
		if edited && !lp.verify(i, items[i]) {
			lp.laid = false
			return nil, ErrWhole
		}
	}
	if lp.unchanged() {
		return lp.s.Data, nil
	}
	return lp.s.finish(lp.assemble()), nil
}

// unchanged reports whether the laid-out text is the original's.
func (lp *ListPatcher) unchanged() bool {
	if len(lp.before) != lp.start[0] || len(lp.after) != len(lp.s.text)-lp.end[len(lp.end)-1] {
		return false
	}
	for i, b := range lp.bodies {
		if len(b) != lp.end[i]-lp.start[i] || b != string(lp.s.text[lp.start[i]:lp.end[i]]) {
			return false
		}
	}
	return string(lp.s.text[:lp.start[0]]) == lp.before && string(lp.s.text[lp.end[len(lp.end)-1]:]) == lp.after
}

// item patches original item i into c: its text, whether that differs
// from the original's, and false when it cannot be patched.
func (lp *ListPatcher) item(i int, c *yaml.Node) (body string, edited, ok bool) {
	sub := &patcher{s: lp.s, unit: lp.unit}
	sub.node(lp.seq.Content[i], c, place{kind: asItem, dash: lp.dashes[i]})
	if sub.err != nil {
		return "", false, false
	}
	if len(sub.edits) == 0 {
		return string(lp.s.text[lp.start[i]:lp.end[i]]), false, true
	}
	body, err := applyWithin(lp.s.text, lp.start[i], lp.end[i], sub.edits)
	return body, true, err == nil
}

// lead is the original text between item i and the next.
func (lp *ListPatcher) lead(i int) string {
	return string(lp.s.text[lp.end[i]:lp.start[i+1]])
}

func (lp *ListPatcher) assemble() []byte {
	var b bytes.Buffer
	b.Grow(len(lp.s.text) + len(lp.s.text)/8)
	b.WriteString(lp.before)
	for i, body := range lp.bodies {
		b.WriteString(body)
		if i+1 < len(lp.bodies) {
			b.WriteString(lp.lead(i))
		}
	}
	b.WriteString(lp.after)
	return b.Bytes()
}

// verify checks item i's new text alone, with the blank and comment lines
// that follow it: it must stay within the item (see ListPatcher) and parse
// to c.
func (lp *ListPatcher) verify(i int, c *yaml.Node) bool {
	var trail string
	if i+1 < len(lp.bodies) {
		trail = lp.lead(i)
	} else {
		trail = leadingComments(lp.after)
	}
	piece := lp.bodies[i] + trail
	atEnd := i+1 == len(lp.bodies) && trail == lp.after
	if !strings.HasSuffix(piece, "\n") && !atEnd {
		return false
	}
	lines := strings.Split(strings.TrimSuffix(piece, "\n"), "\n")
	dash := strings.Repeat(" ", lp.col) + "-"
	if rest, ok := strings.CutPrefix(lines[0], dash); !ok || rest != "" && rest[0] != ' ' {
		return false
	}
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t != "" && t[0] != '#' && len(l)-len(t) <= lp.col {
			return false
		}
	}
	back, err := Parse(lp.s.File, []byte(piece))
	if err != nil || back.Root.Kind != yaml.SequenceNode || len(back.Root.Content) != 1 || back.Root.Column != lp.col+1 {
		return false
	}
	return Equal(back.Root.Content[0], c)
}

// leadingComments is the blank and comment lines text starts with.
func leadingComments(text string) string {
	n := 0
	for n < len(text) {
		line, _, _ := strings.Cut(text[n:], "\n")
		if t := strings.TrimSpace(line); t != "" && t[0] != '#' {
			break
		}
		n += len(line) + 1
	}
	return text[:min(n, len(text))]
}
