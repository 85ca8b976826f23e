package yamlsrc

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is an optional document value that may be absent, pending (to be
// generated, with an optional hint) or set.
type Field[T any] struct {
	Value   T
	Set     bool
	Pending bool
	Hint    string
}

// Val returns a set field.
func Val[T any](v T) Field[T] { return Field[T]{Value: v, Set: true} }

// Todo returns a pending field with a hint.
func Todo[T any](hint string) Field[T] { return Field[T]{Pending: true, Hint: hint} }

// Get returns the value and whether it is set.
func (f Field[T]) Get() (T, bool) { return f.Value, f.Set }

// Or returns the value if set, else def.
func (f Field[T]) Or(def T) T {
	if f.Set {
		return f.Value
	}
	return def
}

// The codec reaches Field through these methods, since reflection cannot
// name a generic type's instantiations.

func (f *Field[T]) valuePtr() any { return &f.Value }
func (f *Field[T]) markPending(hint string) {
	var zero T
	*f = Field[T]{Value: zero, Pending: true, Hint: hint}
}
func (f *Field[T]) markSet() { f.Set, f.Pending, f.Hint = true, false, "" }
func (f Field[T]) state() (set, pending bool, hint string, value any) {
	return f.Set, f.Pending, f.Hint, f.Value
}

type fieldPtr interface {
	valuePtr() any
	markPending(hint string)
	markSet()
}

type fieldVal interface {
	state() (set, pending bool, hint string, value any)
}

// Placeholder is embedded in list item types that may be pending
// (`- !pending "two practice slides"`): such an item holds only its hint.
// Its fields are bookkeeping, never part of a tool call or result.
type Placeholder struct {
	IsPlaceholder bool   `yaml:"-" json:"-"`
	PlaceholderID string `yaml:"-" json:"-"`
	Hint          string `yaml:"-" json:"-"`
}

func (p *Placeholder) placeholder() *Placeholder { return p }

// PlaceholderKey is what generated_for records on an item a run generated
// for this placeholder: its hint, which an author can read, or its id
// when it has none.
func (p *Placeholder) PlaceholderKey() string {
	if p.Hint != "" {
		return p.Hint
	}
	return p.PlaceholderID
}

// PlaceholderFor finds the placeholder of items whose PlaceholderKey is
// key, which an item generated_for names: the one an earlier, stopped run
// generated the item for.
func PlaceholderFor[T placeholderItem](items []T, key string) (ph T, ok bool) {
	for _, it := range items {
		if p := it.placeholder(); p.IsPlaceholder && p.PlaceholderKey() == key {
			return it, true
		}
	}
	return ph, false
}

type placeholderItem interface{ placeholder() *Placeholder }

// PlaceholderItem is a list item type that embeds Placeholder, for
// constraints outside this package (see itemlist.Item).
type PlaceholderItem = placeholderItem

// Position is item's 1-based place among the items of items that are not
// placeholders, as messages number it (session.ItemName).
func Position[T interface {
	comparable
	placeholderItem
}](items []T, item T) int {
	pos := 0
	for _, it := range items {
		if !it.placeholder().IsPlaceholder {
			pos++
		}
		if it == item {
			break
		}
	}
	return pos
}

// PickPlaceholder chooses the placeholder that new content fills: the one
// named id, or, when id is empty and exactly one is open, that one (else
// none: the content goes at the end). When id names no placeholder, missing
// is set and hint lists the open ones for the error a caller reports.
func PickPlaceholder[T placeholderItem](items []T, id string) (pick T, missing bool, hint string) {
	var open []T
	for _, it := range items {
		if ph := it.placeholder(); ph.IsPlaceholder {
			if id != "" && ph.PlaceholderID == id {
				return it, false, ""
			}
			open = append(open, it)
		}
	}
	if id != "" {
		if len(open) == 0 {
			return pick, true, "there are no placeholders; omit pending_id"
		}
		ids := make([]string, len(open))
		for i, it := range open {
			ids[i] = it.placeholder().PlaceholderID
		}
		return pick, true, "open placeholders: " + strings.Join(ids, ", ")
	}
	if len(open) == 1 {
		return open[0], false, ""
	}
	return pick, false, ""
}

// PlaceholderOf is a list item type whose pointer holds a Placeholder: a
// list of values ([]Item) as well as of pointers ([]*Slide).
type PlaceholderOf[T any] interface {
	*T
	placeholderItem
}

// NumberPlaceholders gives each placeholder of items that has no id one:
// prefix and its 1-based place among the list's placeholders.
func NumberPlaceholders[T any, P PlaceholderOf[T]](items []T, prefix string) {
	n := 0
	for i := range items {
		if ph := P(&items[i]).placeholder(); ph.IsPlaceholder {
			n++
			if ph.PlaceholderID == "" {
				ph.PlaceholderID = prefix + strconv.Itoa(n)
			}
		}
	}
}

// FillPlaceholder returns a copy of items with the placeholder named id
// (or, when id is "", the only one) replaced by with, in its place; items
// is left as it was, for undo. When none fits, err says which to name.
func FillPlaceholder[T any, P PlaceholderOf[T]](items []T, id string, with []T) (out []T, filled Placeholder, err error) {
	open := OpenSpots[T, P](items)
	ids := make([]string, len(open))
	for i, ph := range open {
		ids[i] = ph.PlaceholderID
	}
	at := -1
	for i := range items {
		ph := P(&items[i]).placeholder()
		if ph.IsPlaceholder && (ph.PlaceholderID == id || id == "" && len(open) == 1) {
			at, filled = i, *ph
			break
		}
	}
	switch {
	case at >= 0:
	case len(open) == 0:
		return nil, filled, fmt.Errorf("there are no placeholders")
	case id == "":
		return nil, filled, fmt.Errorf("several placeholders are open; name one as pending_id: %s", strings.Join(ids, ", "))
	default:
		return nil, filled, fmt.Errorf("no placeholder %q; open placeholders: %s", id, strings.Join(ids, ", "))
	}
	out = make([]T, 0, len(items)-1+len(with))
	out = append(out, items[:at]...)
	out = append(out, with...)
	return append(out, items[at+1:]...), filled, nil
}

// OpenSpot is one placeholder of a list, where it sits: Index in the list,
// After the number of real items before it.
type OpenSpot struct {
	Placeholder
	Index, After int
}

// OpenSpots lists the placeholders of items with where each sits.
func OpenSpots[T any, P PlaceholderOf[T]](items []T) []OpenSpot {
	var out []OpenSpot
	after := 0
	for i := range items {
		ph := P(&items[i]).placeholder()
		if !ph.IsPlaceholder {
			after++
			continue
		}
		out = append(out, OpenSpot{Placeholder: *ph, Index: i, After: after})
	}
	return out
}

// IsOpen reports whether the item is a placeholder, and its hint.
func (p *Placeholder) IsOpen() (hint string, open bool) { return p.Hint, p.IsPlaceholder }
