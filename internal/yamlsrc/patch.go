package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// PendingTag marks a spot still to be generated.
const PendingTag = "!pending"

// Pending returns the hint of a pending node and whether n is pending: a
// null, or a scalar tagged !pending (whose value is the hint).
func Pending(n *yaml.Node) (hint string, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.Tag {
	case PendingTag:
		return n.Value, true
	case "!!null":
		return "", true
	}
	return "", false
}

// PendingNode builds the node for a pending spot with an optional hint.
func PendingNode(hint string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: PendingTag, Value: hint, Style: yaml.TaggedStyle}
	if hint != "" {
		n.Style |= yaml.DoubleQuotedStyle
	}
	return n
}

// Edit replaces Data[Start:End] with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Apply returns data with the edits applied. Edits must not overlap.
func Apply(data []byte, edits []Edit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b Edit) int { return a.Start - b.Start })
	var out bytes.Buffer
	out.Grow(len(data))
	last := 0
	for _, e := range edits {
		if e.Start < last || e.End < e.Start || e.End > len(data) {
			return nil, fmt.Errorf("overlapping or out-of-range edit [%d,%d) after %d", e.Start, e.End, last)
		}
		out.Write(data[last:e.Start])
		out.WriteString(e.Text)
		last = e.End
	}
	out.Write(data[last:])
	return out.Bytes(), nil
}

// Patch returns the file's bytes changed to hold cur. Where cur equals the
// original tree the original bytes stay exactly as they were: comments, key
// order, quoting and blank lines. An unchanged tree gives back Data itself.
func (s *Source) Patch(cur *yaml.Node) ([]byte, error) {
	p := &patcher{s: s, unit: s.indentUnit()}
	p.node(s.Root, cur, place{kind: atRoot})
	if p.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsafePatch, p.err)
	}
	if len(p.edits) == 0 {
		return s.Data, nil
	}
	out, err := Apply(s.text, p.edits)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsafePatch, err)
	}
	// Never hand back text that does not say what cur says: check by parsing.
	back, err := Parse(s.File, out)
	if err != nil || !Equal(back.Root, cur) {
		return nil, fmt.Errorf("%w in %s", ErrUnsafePatch, s.File)
	}
	return s.finish(out), nil
}

// finish gives patched text the file's CRLF line ends and byte order mark
// back.
func (s *Source) finish(out []byte) []byte {
	if s.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if s.bom {
		out = append(slices.Clip(utf8BOM), out...)
	}
	return out
}

// ErrUnsafePatch means the file's layout defeated splicing; the caller can
// fall back to Render, which keeps the data but not the formatting.
var ErrUnsafePatch = errors.New("cannot splice the change into the original text")

// Render writes a tree as fresh YAML with the given indent step.
func Render(n *yaml.Node, indent int) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(indent)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Equal reports whether two trees hold the same data, ignoring style,
// comments and key order. Two pending spots are equal when their hints are.
func Equal(a, b *yaml.Node) bool {
	a, b = deref(a), deref(b)
	if a == nil || b == nil {
		return a == b
	}
	ha, pa := Pending(a)
	hb, pb := Pending(b)
	if pa || pb {
		return pa && pb && ha == hb
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return scalarEqual(a, b)
	case yaml.MappingNode:
		if len(a.Content) != len(b.Content) {
			return false
		}
		bv := make(map[string]*yaml.Node, len(b.Content)/2)
		for i := 0; i+1 < len(b.Content); i += 2 {
			bv[b.Content[i].Value] = b.Content[i+1]
		}
		for i := 0; i+1 < len(a.Content); i += 2 {
			v, ok := bv[a.Content[i].Value]
			if !ok || !Equal(a.Content[i+1], v) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !Equal(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) > 0 {
			n = n.Content[0]
		} else {
			return nil
		}
	}
	return n
}

// scalarEqual compares values, not spellings: 45 and 45.0, 'a' and "a".
func scalarEqual(a, b *yaml.Node) bool {
	if a.Value == b.Value {
		return true
	}
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(normalizeNumber(x), normalizeNumber(y))
}

func normalizeNumber(v any) any {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case uint64:
		return float64(n)
	}
	return v
}

type placeKind int

const (
	atRoot placeKind = iota
	asValue
	asItem
)

// place says where a node sits, which decides how a replacement is spliced.
type place struct {
	kind placeKind
	key  *yaml.Node // asValue: the key before the value
	dash int        // asItem: offset of the item's '-'
}

type patcher struct {
	s     *Source
	unit  int
	edits []Edit
	err   error
	// skip, when set, is an original node left alone as if unchanged
	// (ListPatcher patches its list item by item).
	skip *yaml.Node
}

func (p *patcher) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

func (p *patcher) node(o, c *yaml.Node, pl place) {
	if p.err != nil || o == p.skip || Equal(o, c) {
		return
	}
	if o.Kind == yaml.AliasNode {
		p.replace(o, c, pl)
		return
	}
	switch {
	case o.Kind == yaml.MappingNode && c.Kind == yaml.MappingNode && p.block(o) && len(c.Content) > 0:
		p.mapping(o, c, pl)
	case o.Kind == yaml.SequenceNode && c.Kind == yaml.SequenceNode && p.block(o) && len(c.Content) > 0:
		p.sequence(o, c, pl)
	case p.flowPatchable(o, c) && p.flowPatch(o, c):
	default:
		p.replace(o, c, pl)
	}
}

// block reports whether n is a non-empty block collection (not [..] or {..}).
func (p *patcher) block(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return false
	}
	off := p.s.skipProps(p.s.start(n))
	return off < len(p.s.text) && p.s.text[off] != '[' && p.s.text[off] != '{'
}

// flow reports whether n is a non-empty flow collection ([..] or {..}).
func (p *patcher) flow(n *yaml.Node) bool {
	if (n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode) || len(n.Content) == 0 {
		return false
	}
	off := p.s.skipProps(p.s.start(n))
	return off < len(p.s.text) && (p.s.text[off] == '[' || p.s.text[off] == '{')
}

// sameShape reports whether c has o's structure: the same kind, the same
// number of items, the same keys. Only then can a flow collection be
// patched value by value.
func sameShape(o, c *yaml.Node) bool {
	if o.Kind != c.Kind || len(o.Content) != len(c.Content) {
		return false
	}
	if o.Kind == yaml.MappingNode {
		keys := map[string]bool{}
		for i := 0; i+1 < len(c.Content); i += 2 {
			keys[c.Content[i].Value] = true
		}
		for i := 0; i+1 < len(o.Content); i += 2 {
			if !keys[o.Content[i].Value] {
				return false
			}
		}
	}
	return true
}

// flowPatchable reports whether flow collection o can become c by
// rewriting only scalars that changed: c has o's shape all the way down to
// them. Otherwise the collection is rewritten whole.
func (p *patcher) flowPatchable(o, c *yaml.Node) bool {
	if !p.flow(o) || !sameShape(o, c) {
		return false
	}
	ok := true
	eachChild(o, c, func(oc, cc *yaml.Node) {
		ok = ok && (Equal(oc, cc) || oc.Kind == yaml.ScalarNode || p.flowPatchable(oc, cc))
	})
	return ok
}

// eachChild calls fn with each of o's values or items and c's counterpart;
// mappings pair by key (see sameShape).
func eachChild(o, c *yaml.Node, fn func(oc, cc *yaml.Node)) {
	if o.Kind == yaml.SequenceNode {
		for i := range o.Content {
			fn(o.Content[i], c.Content[i])
		}
		return
	}
	cv := make(map[string]*yaml.Node, len(c.Content)/2)
	for i := 0; i+1 < len(c.Content); i += 2 {
		cv[c.Content[i].Value] = c.Content[i+1]
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		fn(o.Content[i+1], cv[o.Content[i].Value])
	}
}

// flowPatch patches flow collection o into c value by value, keeping the
// edits only if the collection's new text reads back as c; else it reports
// false and the caller rewrites the collection whole.
func (p *patcher) flowPatch(o, c *yaml.Node) bool {
	sub := &patcher{s: p.s, unit: p.unit}
	sub.flowChildren(o, c)
	if sub.err != nil {
		return false
	}
	text, err := applyWithin(p.s.text, p.s.start(o), p.s.End(o), sub.edits)
	if err != nil {
		return false
	}
	var back yaml.Node
	if yaml.Unmarshal([]byte(text), &back) != nil || !Equal(&back, c) {
		return false
	}
	p.edits = append(p.edits, sub.edits...)
	return true
}

// flowChildren patches a flow collection's changed scalars in place, so a
// definition filled in `{term: villa, definition: !pending }` leaves the
// rest of the line as the author wrote it.
func (p *patcher) flowChildren(o, c *yaml.Node) {
	eachChild(o, c, func(oc, cc *yaml.Node) {
		switch {
		case p.err != nil || Equal(oc, cc):
		case oc.Kind == yaml.ScalarNode:
			p.flowReplace(oc, cc)
		default:
			p.flowChildren(oc, cc)
		}
	})
}

// flowReplace rewrites o, inside a flow collection, as c written in flow
// style. A bare !pending's spaces before the next , ] or } go with it.
func (p *patcher) flowReplace(o, c *yaml.Node) {
	start, end := p.s.start(o), p.s.End(o)
	if o.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		// A plain scalar in flow style ends at the first , ] } or comment,
		// which the block-style scan does not know.
		off := p.s.skipProps(start)
		if off > start && (off >= len(p.s.text) || strings.IndexByte(",]}\n", p.s.text[off]) >= 0) {
			off = p.s.propsEnd(start) // a bare tag: the value is empty
		}
		stop := off
		for stop < end && strings.IndexByte(",]}\n", p.s.text[stop]) < 0 && !(p.s.text[stop] == '#' && isSpace(p.s.text[stop-1])) {
			stop++
		}
		end = start + len(strings.TrimRight(string(p.s.text[start:stop]), " \t"))
	}
	if _, pending := Pending(o); pending && o.Value == "" {
		j := end
		for j < len(p.s.text) && p.s.text[j] == ' ' {
			j++
		}
		if j < len(p.s.text) && strings.IndexByte(",]}", p.s.text[j]) >= 0 {
			end = j
		}
	}
	out := strings.TrimSuffix(p.render(&yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{c}}), "\n")
	inner, ok := strings.CutPrefix(out, "[")
	inner, ok2 := strings.CutSuffix(inner, "]")
	if !ok || !ok2 || strings.Contains(inner, "\n") {
		p.fail("value at line %d does not fit on its line in flow style", o.Line)
		return
	}
	p.edits = append(p.edits, Edit{Start: start, End: end, Text: inner})
}

// cleanBefore reports whether only spaces precede offset off on its line.
func (p *patcher) cleanBefore(off int) bool {
	ls := p.s.lineStart(p.s.lineOf(off))
	return strings.TrimLeft(string(p.s.text[ls:off]), " ") == ""
}

func (p *patcher) mapping(o, c *yaml.Node, pl place) {
	index := make(map[string]int, len(o.Content)/2)
	for i := 0; i+1 < len(o.Content); i += 2 {
		index[o.Content[i].Value] = i
	}
	// New keys go after the original key that precedes them in c; keys with
	// none go at the end, since the first key may share its line with a dash.
	inserts := map[int][]*yaml.Node{}
	anchor := len(o.Content) - 2
	kept := map[int]bool{}
	for i := 0; i+1 < len(c.Content); i += 2 {
		j, ok := index[c.Content[i].Value]
		if !ok {
			inserts[anchor] = append(inserts[anchor], c.Content[i], c.Content[i+1])
			continue
		}
		kept[j] = true
		anchor = j
	}
	for j := 0; j+1 < len(o.Content); j += 2 {
		if !kept[j] && !p.cleanBefore(p.s.start(o.Content[j])) {
			p.replace(o, c, pl) // the key shares its line with a dash
			return
		}
	}

	for i := 0; i+1 < len(c.Content); i += 2 {
		if j, ok := index[c.Content[i].Value]; ok {
			p.node(o.Content[j+1], c.Content[i+1], place{kind: asValue, key: o.Content[j]})
		}
	}
	for j := 0; j+1 < len(o.Content); j += 2 {
		if kept[j] {
			continue
		}
		start := p.s.lineStart(o.Content[j].Line)
		p.edits = append(p.edits, Edit{Start: start, End: p.s.nextLineStart(p.s.End(o.Content[j+1])), Text: ""})
	}
	col := o.Content[0].Column - 1
	for after, pairs := range inserts {
		m := &yaml.Node{Kind: yaml.MappingNode, Content: pairs}
		p.insertLines(p.s.nextLineStart(p.s.End(o.Content[after+1])), indentAll(p.render(m), col))
	}
}

// insertLines inserts whole lines at a line start, fixing a missing final
// newline at the end of the file.
func (p *patcher) insertLines(off int, text string) {
	if off == len(p.s.text) && len(p.s.text) > 0 && p.s.text[len(p.s.text)-1] != '\n' {
		text = "\n" + strings.TrimSuffix(text, "\n")
	}
	p.edits = append(p.edits, Edit{Start: off, End: off, Text: text})
}

// itemKey identifies a list item across versions: by id, by pending hint, or
// by scalar value. Items without one never match and are rewritten.
func itemKey(n *yaml.Node) string {
	n = deref(n)
	if hint, ok := Pending(n); ok {
		return "pending\x00" + hint
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return "scalar\x00" + n.Value
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "id" && n.Content[i+1].Kind == yaml.ScalarNode {
				return "id\x00" + n.Content[i+1].Value
			}
		}
	}
	return ""
}

func (p *patcher) sequence(o, c *yaml.Node, pl place) {
	dashes := make([]int, len(o.Content))
	for i, item := range o.Content {
		d, ok := p.dashBefore(item, o.Column)
		if !ok || !p.cleanBefore(d) {
			p.replace(o, c, pl)
			return
		}
		dashes[i] = d
	}
	if len(o.Content) == len(c.Content) && sameKeys(o.Content, c.Content) {
		for i := range o.Content {
			p.node(o.Content[i], c.Content[i], place{kind: asItem, dash: dashes[i]})
		}
		return
	}

	// The items changed: rebuild the list from the original items' own text
	// (moved with their comments, patched inside) and newly rendered ones.
	n := len(o.Content)
	bodyStart := make([]int, n)
	bodyEnd := make([]int, n)
	for i := range o.Content {
		bodyStart[i] = p.s.lineStart(p.s.lineOf(dashes[i]))
		bodyEnd[i] = p.s.nextLineStart(p.s.End(o.Content[i]))
		if bodyEnd[i] < bodyStart[i] || i > 0 && bodyStart[i] < bodyEnd[i-1] {
			p.fail("list item at line %d overlaps its neighbour", o.Content[i].Line)
			return
		}
	}
	lead := func(i int) string {
		if i == 0 {
			return ""
		}
		return string(p.s.text[bodyEnd[i-1]:bodyStart[i]])
	}
	used := make([]bool, n)
	match := make([]int, len(c.Content))
	for i, item := range c.Content {
		match[i] = -1
		k := itemKey(item)
		if k == "" {
			continue
		}
		for j := range o.Content {
			if !used[j] && itemKey(o.Content[j]) == k {
				used[j], match[i] = true, j
				break
			}
		}
	}
	// Mappings without an id (an author's slide whose id is derived) match
	// in order, when both versions hold as many: a run never adds or drops
	// one (what it adds gets an id), so the k-th is the same item.
	if ko, kc := keyless(o.Content), keyless(c.Content); len(ko) == len(kc) {
		for x, i := range kc {
			used[ko[x]], match[i] = true, ko[x]
		}
	} else {
		// Items were added among them (at a placeholder): a keyless item
		// is the one it equals, else the one whose first entry it shares
		// (a term whose definition was filled in the same run).
		for _, same := range []func(a, b *yaml.Node) bool{Equal, sameFirstEntry} {
			for _, i := range kc {
				for _, j := range ko {
					if match[i] < 0 && !used[j] && same(o.Content[j], c.Content[i]) {
						used[j], match[i] = true, j
					}
				}
			}
		}
	}

	var out strings.Builder
	// A deleted item's own lines go; the comments and blank lines above it
	// stay where they were.
	flushDeleted := func(from int) {
		for j := from; j < n && !used[j]; j++ {
			out.WriteString(lead(j))
		}
	}
	flushDeleted(0)
	col := p.s.colOf(dashes[0])
	for i, item := range c.Content {
		j := match[i]
		if j < 0 {
			out.WriteString(indentAll(p.render(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{item}}), col))
			continue
		}
		sub := &patcher{s: p.s, unit: p.unit}
		sub.node(o.Content[j], item, place{kind: asItem, dash: dashes[j]})
		if sub.err != nil {
			p.err = sub.err
			return
		}
		body, err := applyWithin(p.s.text, bodyStart[j], bodyEnd[j], sub.edits)
		if err != nil {
			p.fail("%v", err)
			return
		}
		out.WriteString(lead(j))
		out.WriteString(body)
		if !strings.HasSuffix(body, "\n") {
			out.WriteString("\n")
		}
		flushDeleted(j + 1)
	}
	start, end := bodyStart[0], bodyEnd[n-1]
	text := out.String()
	if end == len(p.s.text) && (end == 0 || p.s.text[end-1] != '\n') {
		text = strings.TrimSuffix(text, "\n")
	}
	p.edits = append(p.edits, Edit{Start: start, End: end, Text: text})
}

// keyless lists the indexes of the mappings in items that have no key.
func keyless(items []*yaml.Node) []int {
	var out []int
	for i, item := range items {
		if itemKey(item) == "" && deref(item).Kind == yaml.MappingNode {
			out = append(out, i)
		}
	}
	return out
}

// sameFirstEntry reports whether two mappings begin with the same key and
// the same plain value: {term: villa, …} before and after its definition.
func sameFirstEntry(a, b *yaml.Node) bool {
	a, b = deref(a), deref(b)
	if len(a.Content) < 2 || len(b.Content) < 2 || a.Content[0].Value != b.Content[0].Value {
		return false
	}
	va, vb := deref(a.Content[1]), deref(b.Content[1])
	_, pa := Pending(va)
	_, pb := Pending(vb)
	return !pa && !pb && va.Kind == yaml.ScalarNode && vb.Kind == yaml.ScalarNode && va.Value == vb.Value
}

// sameKeys reports whether two lists of one length hold the same items in
// the same order, so each can be patched where it is. An item without a key
// (a mapping without an id, say a vocabulary term) matches a keyless item
// of the same kind at its position.
func sameKeys(a, b []*yaml.Node) bool {
	for i := range a {
		ka, kb := itemKey(a[i]), itemKey(b[i])
		if ka != kb || ka == "" && deref(a[i]).Kind != deref(b[i]).Kind {
			return false
		}
	}
	return true
}

func applyWithin(data []byte, start, end int, edits []Edit) (string, error) {
	local := make([]Edit, len(edits))
	for i, e := range edits {
		if e.Start < start || e.End > end {
			return "", fmt.Errorf("nested edit [%d,%d) outside item [%d,%d)", e.Start, e.End, start, end)
		}
		local[i] = Edit{Start: e.Start - start, End: e.End - start, Text: e.Text}
	}
	out, err := Apply(data[start:end], local)
	return string(out), err
}

// dashBefore finds the '-' that introduces a block sequence item: the first
// non-space byte before the item, skipping comments (`- # note`), which must
// sit at the list's column.
func (p *patcher) dashBefore(item *yaml.Node, col int) (int, bool) {
	off := p.s.start(item) - 1
	for {
		for off >= 0 && isSpace(p.s.text[off]) {
			off--
		}
		if off < 0 {
			return 0, false
		}
		c := p.s.commentStart(off)
		if c < 0 {
			break
		}
		off = c - 1
	}
	if p.s.text[off] != '-' || p.s.colOf(off) != col-1 {
		return 0, false
	}
	return off, true
}

// commentStart returns where the comment that covers offset off begins on
// its line, or -1 if off is not inside a comment.
func (s *Source) commentStart(off int) int {
	ls := s.lineStart(s.lineOf(off))
	for i := ls; i <= off; i++ {
		if s.text[i] == '#' && (i == ls || s.text[i-1] == ' ' || s.text[i-1] == '\t') {
			return i
		}
		if s.text[i] == '"' || s.text[i] == '\'' {
			return -1 // quoted text on the line: do not guess
		}
	}
	return -1
}

// colOf is the 0-based column (in runes) of offset off.
func (s *Source) colOf(off int) int {
	ls := s.lineStart(s.lineOf(off))
	return len([]rune(string(s.text[ls:off])))
}

// replace rewrites node o as c where o sits, keeping the text around it.
func (p *patcher) replace(o, c *yaml.Node, pl place) {
	end := p.s.End(o)
	switch pl.kind {
	case atRoot:
		p.edits = append(p.edits, Edit{Start: p.s.start(o), End: end, Text: strings.TrimSuffix(p.render(c), "\n")})
		return
	case asValue:
		colon, ok := p.colonAfter(pl.key)
		if !ok {
			p.fail("no ':' after key %q at line %d", pl.key.Value, pl.key.Line)
			return
		}
		col := pl.key.Column - 1
		wrapped := p.render(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "k"}, c}})
		value := shiftRest(strings.TrimSuffix(strings.TrimPrefix(wrapped, "k:"), "\n"), col)
		p.splice(colon, o, end, value, col+p.unit)
	case asItem:
		col := p.s.colOf(pl.dash)
		wrapped := p.render(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{c}})
		value := shiftRest(strings.TrimSuffix(strings.TrimPrefix(wrapped, "-"), "\n"), col)
		p.splice(pl.dash+1, o, end, value, col+2)
	}
}

// splice replaces the text from after a key's colon (or an item's dash) to
// the end of the old value. A comment that followed the old value on its line
// stays on the first line of the new one.
func (p *patcher) splice(from int, o *yaml.Node, end int, value string, childCol int) {
	startLine := p.s.lineOf(from)
	if p.s.lineOf(p.s.start(o)) > startLine {
		// The old value began on a later line; keep the key's line (and any
		// comment on it) and put the new value below.
		from = p.s.lineEnd(from)
		if !strings.HasPrefix(value, "\n") {
			value = "\n" + strings.Repeat(" ", childCol) + strings.TrimLeft(value, " ")
		}
		p.edits = append(p.edits, Edit{Start: from, End: end, Text: value})
		return
	}
	eol := p.s.lineEnd(end)
	rest := strings.TrimSpace(string(p.s.text[end:eol]))
	if rest == "" || !strings.Contains(value, "\n") {
		p.edits = append(p.edits, Edit{Start: from, End: end, Text: value})
		return
	}
	first, others, _ := strings.Cut(value, "\n")
	if strings.TrimSpace(first) == "" && (end <= from || strings.TrimSpace(string(p.s.text[from:end])) == "") {
		// A null value filled with a block: nothing on the key's line
		// changes, so its comment keeps its column.
		p.edits = append(p.edits, Edit{Start: eol, End: eol, Text: "\n" + others})
		return
	}
	p.edits = append(p.edits, Edit{Start: from, End: eol, Text: first + " " + rest + "\n" + others})
}

func (p *patcher) colonAfter(key *yaml.Node) (int, bool) {
	off := p.s.End(key)
	for off < len(p.s.text) && (p.s.text[off] == ' ' || p.s.text[off] == '\t') {
		off++
	}
	if off < len(p.s.text) && p.s.text[off] == ':' {
		return off + 1, true
	}
	return 0, false
}

func (p *patcher) render(n *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(p.unit)
	if err := enc.Encode(n); err != nil {
		p.fail("%v", err)
	}
	_ = enc.Close()
	return b.String()
}

// indentAll prefixes every non-empty line with col spaces.
func indentAll(text string, col int) string {
	if col == 0 {
		return text
	}
	pad := strings.Repeat(" ", col)
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "")
}

// shiftRest indents every line but the first, which continues an existing line.
func shiftRest(text string, col int) string {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok {
		return text
	}
	return first + "\n" + indentAll(rest, col)
}

// indentUnit guesses the file's indentation step from its first nested
// mapping, so inserted text looks like the author's. Default 2.
func (s *Source) indentUnit() int {
	var find func(n *yaml.Node) int
	find = func(n *yaml.Node) int {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Kind == yaml.MappingNode && len(v.Content) > 0 && v.Line > k.Line && v.Column > k.Column {
					return v.Column - k.Column
				}
				if u := find(v); u > 0 {
					return u
				}
			}
		case yaml.SequenceNode:
			for _, it := range n.Content {
				if u := find(it); u > 0 {
					return u
				}
			}
		}
		return 0
	}
	if s.Root != nil {
		if u := find(s.Root); u > 0 && u <= 8 {
			return u
		}
	}
	return 2
}
