// Package itemlist is the one ordered list of items a modality holds:
// a lesson's slides, a whiteboard's elements, a quiz's questions. Some
// items the author wrote, some a run added, some are placeholders
// (`- !pending "two practice slides"`) where a run adds more. List keeps
// the index by id and the placeholder rules: which placeholder new items
// fill, what each has received (in this session, or from a run that
// stopped), when it closes; and add, move and remove with their undo.
//
// A new modality with a list of items embeds Entry in its item type, gives
// it Refs, and holds a yamlsrc.Field of pointers to it; nothing here is
// written again.
package itemlist

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Entry is what every list item carries besides its own fields: whether it
// is a placeholder, who wrote it, and which placeholder it fills. None of
// it is a key of the file or of a tool call.
type Entry struct {
	yamlsrc.Placeholder
	// Authored items came from the file; generation may fill their
	// pending fields but not otherwise change them.
	Authored bool `yaml:"-" json:"-"`
	// Loaded items came from the file, whoever wrote them (provenance may
	// lift Authored; this stays).
	Loaded bool `yaml:"-" json:"-"`
	// IDDerived: the id is not in the file (see yamlsrc.ItemIDs), so a
	// save leaves it out.
	IDDerived bool `yaml:"-" json:"-"`
	// Cited: the author wrote the item's sources, which generation keeps.
	Cited bool `yaml:"-" json:"-"`
	// Filled counts, on a placeholder, the items generated for it in
	// this session.
	Filled int `yaml:"-" json:"-"`
	// FilledFor names, on a generated item, the placeholder it fills.
	FilledFor string `yaml:"-" json:"-"`
}

func (e *Entry) entry() *Entry { return e }

// DerivedKey leaves an id the author did not write out of the file (see
// yamlsrc.KeyDeriver): only the author writes an item's id there, and a
// run never adds one to an authored item.
func (e Entry) DerivedKey(key string) bool { return key == "id" && e.IDDerived }

// Refs are the fields of an item's own type the list reads and writes.
type Refs struct {
	// ID is the item's id.
	ID *string
	// GeneratedFor is what the file records of the placeholder a run
	// generated the item for (yamlsrc.Placeholder.PlaceholderKey), kept
	// while the placeholder stays open.
	GeneratedFor *string
	// Sources are the item's citations.
	Sources *[]string
	// Src is the node the item was read from, if any, for positions.
	Src *yaml.Node
}

// Item is a list item type E whose pointer P embeds Entry and has Refs.
type Item[E any] interface {
	*E
	yamlsrc.PlaceholderItem
	entry() *Entry
	Refs() Refs
}

// WrittenID is the shape of an id an author writes for an item of a child
// node: a letter, then letters, digits, - and _.
var WrittenID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// Spec is how messages speak of a list's items.
type Spec struct {
	// Noun names one item: "question".
	Noun string
	// IDsLabel introduces the ids a not-found hint lists: "question ids".
	IDsLabel string
	// Empty is the not-found hint when the list has no items.
	Empty string
	// SortIDs lists the ids of a not-found hint sorted, else in list order.
	SortIDs bool
	// Authored is the hint refusing to change an author's item as a whole.
	Authored string
	// Named names one item in messages, with its id for %q: "question %q".
	Named string
}

// List is a view of an owner's list of items: the field that holds them,
// the owner's index by id, and how messages name them. It holds no state
// of its own, so an owner makes one whenever it needs it.
type List[E any, P Item[E]] struct {
	Field *yamlsrc.Field[[]P]
	ByID  *map[string]P
	Spec  *Spec
}

// Items are the list's items (nil while the list is pending as a whole).
func (l List[E, P]) Items() []P { return l.Field.Value }

func id[E any, P Item[E]](it P) string { return *it.Refs().ID }

// Reindex rebuilds the index by id and gives each placeholder without an
// id one: p and its 1-based place among the list's placeholders.
func (l List[E, P]) Reindex() {
	*l.ByID = make(map[string]P, len(l.Items()))
	n := 0
	for _, it := range l.Items() {
		if e := it.entry(); e.IsPlaceholder {
			n++
			if e.PlaceholderID == "" {
				e.PlaceholderID = fmt.Sprintf("p%d", n)
			}
			continue
		}
		(*l.ByID)[id(it)] = it
	}
}

// Get returns the item with id, if any.
func (l List[E, P]) Get(id string) (P, bool) {
	it, ok := (*l.ByID)[id]
	return it, ok
}

// Load marks the items read from node, the list in the file: authored
// (placeholders aside), with the ids derived for those written without
// one (itemIDs, made with yamlsrc.ItemIDs); then indexes them and ties
// what a stopped run generated for a placeholder still open back to it.
func (l List[E, P]) Load(node *yaml.Node, itemIDs func(*yaml.Node) ([]string, []bool)) {
	ids, derived := itemIDs(node)
	for i, it := range l.Items() {
		e, r := it.entry(), it.Refs()
		e.Authored = !e.IsPlaceholder
		e.Loaded = e.Authored
		if i < len(derived) && derived[i] {
			*r.ID, e.IDDerived = ids[i], true
		}
		e.Cited = e.Authored && len(*r.Sources) > 0
	}
	l.Reindex()
	l.linkGenerated()
}

// linkGenerated ties each item an earlier, stopped run generated for a
// placeholder still open (generated_for names its hint, or its id when it
// has none) back to that placeholder.
func (l List[E, P]) linkGenerated() {
	for _, it := range l.Items() {
		e, gen := it.entry(), *it.Refs().GeneratedFor
		if e.IsPlaceholder || gen == "" {
			continue
		}
		if ph, ok := yamlsrc.PlaceholderFor(l.Items(), gen); ok {
			e.FilledFor = ph.entry().PlaceholderID
		}
	}
}

// filledFor lists the items added for placeholder ph; loaded only: those
// a stopped run generated.
func (l List[E, P]) filledFor(ph P, loaded bool) []string {
	var ids []string
	for _, it := range l.Items() {
		e := it.entry()
		if !e.IsPlaceholder && e.FilledFor == ph.entry().PlaceholderID && (e.Loaded || !loaded) {
			ids = append(ids, id(it))
		}
	}
	return ids
}

// Received reports whether placeholder ph has received items, in this
// session or from a stopped run: it closes when the turn ends.
func (l List[E, P]) Received(ph P) bool {
	return ph.entry().Filled > 0 || len(l.filledFor(ph, true)) > 0
}

// Open reports whether placeholder ph still asks for items, and the ids
// of those it has: every one added this session when it has any, else
// what a stopped run added.
func (l List[E, P]) Open(ph P) (generated []string, open bool) {
	e := ph.entry()
	generated = l.filledFor(ph, true)
	if !session.PlaceholderOpen(e.Hint, e.Filled, len(generated)) {
		return nil, false
	}
	if e.Filled > 0 {
		generated = l.filledFor(ph, false)
	}
	return generated, true
}

// Field is one field of an item that may be pending, for Pending.
type Field struct {
	Name    string
	Pending bool
	Hint    string
}

// Pending lists the open places of the list: the whole list when it is
// pending (as placeholder p1), each placeholder still open as name[i],
// labelled by label with the item before it (nil at the start) and its
// position; and each real item's pending fields, of those fields gives,
// as name[id].field.
func (l List[E, P]) Pending(name string, label func(prev P, pos int) string, fields func(it P) []Field) []session.Pending {
	var ps []session.Pending
	if l.Field.Pending {
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: name, Hint: l.Field.Hint, ID: "p1"})
	}
	pos := 0
	var prev P
	for i, it := range l.Items() {
		if e := it.entry(); e.IsPlaceholder {
			if gen, open := l.Open(it); open {
				p := session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("%s[%d]", name, i), Hint: e.Hint, ID: e.PlaceholderID, Generated: gen}
				if label != nil {
					p.Label = label(prev, pos)
				}
				ps = append(ps, p)
			}
			continue
		}
		pos++
		prev = it
		for _, f := range fields(it) {
			if f.Pending {
				ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("%s[%s].%s", name, id(it), f.Name), Hint: f.Hint,
					Label: session.ItemName(l.Spec.Noun, id(it), pos) + "." + f.Name})
			}
		}
	}
	return ps
}

// Position is an item's 1-based position among the real items (0 when no
// item has id), and their count.
func (l List[E, P]) Position(id string) (pos, count int) {
	for _, it := range l.Items() {
		if it.entry().IsPlaceholder {
			continue
		}
		count++
		if *it.Refs().ID == id {
			pos = count
		}
	}
	return pos, count
}

// Each calls fn with every real item and its 1-based position.
func (l List[E, P]) Each(fn func(it P, pos int)) {
	pos := 0
	for _, it := range l.Items() {
		if !it.entry().IsPlaceholder {
			pos++
			fn(it, pos)
		}
	}
}

// offsetOf converts a 1-based position among the real items of list into
// an index in it, which may also hold placeholders.
func offsetOf[E any, P Item[E]](list []P, pos int) int {
	n := 0
	for i, it := range list {
		if it.entry().IsPlaceholder {
			continue
		}
		n++
		if n == pos {
			return i
		}
	}
	return len(list)
}

// NotFound is the error for an id no item has, listing those that are.
func (l List[E, P]) NotFound(path, id string) error {
	var ids []string
	if l.Spec.SortIDs {
		ids = slices.Sorted(maps.Keys(*l.ByID))
	} else {
		l.Each(func(it P, _ int) { ids = append(ids, *it.Refs().ID) })
	}
	return session.RejectUnknown(path, l.Spec.Noun, id, ids, l.Spec.IDsLabel, l.Spec.Empty)
}

// Editable returns item id if generation may change it as a whole: it
// exists, and unless protect is off, the author did not write it.
func (l List[E, P]) Editable(id string, protect bool) (P, error) {
	it, ok := l.Get(id)
	if !ok {
		return nil, l.NotFound("id", id)
	}
	if it.entry().Authored && protect {
		return nil, session.Reject(session.KindPrecondition, "id", l.Spec.Authored, l.Spec.Named+" was written by the author", id)
	}
	return it, nil
}

// Taken reports whether id names an item or a placeholder of the list.
func (l List[E, P]) Taken(id string) bool {
	if _, ok := l.Get(id); ok {
		return true
	}
	for _, it := range l.Items() {
		if e := it.entry(); e.IsPlaceholder && e.PlaceholderID == id {
			return true
		}
	}
	return false
}

// Numbered is a new id: prefix and the next number *next counts that no
// item has.
func (l List[E, P]) Numbered(prefix string, next *int) string {
	for {
		*next++
		id := fmt.Sprintf("%s%d", prefix, *next)
		if _, taken := l.Get(id); !taken {
			return id
		}
	}
}

// Free is base when no item has it as id, else the first of base-2,
// base-3, … none has.
func (l List[E, P]) Free(base string) string {
	id := base
	for n := 2; ; n++ {
		if _, taken := l.Get(id); !taken {
			return id
		}
		id = fmt.Sprintf("%s-%d", base, n)
	}
}

// Citations lists every item's citations, for validate --sources.
func (l List[E, P]) Citations() []sources.Ref {
	var out []sources.Ref
	l.Each(func(it P, pos int) {
		r := it.Refs()
		out = append(out, sources.Refs(r.Src, *r.Sources, session.ItemName(l.Spec.Noun, *r.ID, pos)+".sources")...)
	})
	return out
}

// Cite replaces the sources of it with given, unless given is nil (then
// it reports false): while protect is on, the author's citations stay as
// written.
func (l List[E, P]) Cite(it P, given []string, protect bool) (bool, error) {
	if given == nil {
		return false, nil
	}
	if it.entry().Cited && protect {
		return false, session.Reject(session.KindPrecondition, "sources", "the author's citations stay as written", "sources of "+l.Spec.Named+" were written by the author", id(it))
	}
	if err := sources.CheckList(given); err != nil {
		return false, err
	}
	*it.Refs().Sources = slices.Clone(given)
	return true, nil
}

// Provenance (see session.Provenance): key gives an item's key by its id,
// content what its hash covers.

// Hashes adds to out the hash of each item generation wrote, by its key.
func (l List[E, P]) Hashes(out map[string]string, key func(id string) string, content func(P) any) {
	l.Each(func(it P, _ int) {
		if !it.entry().Authored {
			out[key(id(it))] = session.ContentHash(content(it))
		}
	})
}

// Adopt treats each item of the author's an earlier run generated, and
// nobody changed since, as generation's: a later run may change it.
func (l List[E, P]) Adopt(marks map[string]string, key func(id string) string, content func(P) any) {
	l.Each(func(it P, _ int) {
		e := it.entry()
		if m := marks[key(id(it))]; e.Authored && m != "" && m == session.ContentHash(content(it)) {
			e.Authored, e.Cited = false, false
		}
	})
}

// Owners names the author's items (locked) and generation's (editable).
func (l List[E, P]) Owners() (locked, editable []string) {
	l.Each(func(it P, pos int) {
		name := session.ItemName(l.Spec.Noun, id(it), pos)
		if it.entry().Authored {
			locked = append(locked, name)
		} else {
			editable = append(editable, name)
		}
	})
	return locked, editable
}
