package yamlsrc

import "strings"

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
type Placeholder struct {
	IsPlaceholder bool   `yaml:"-"`
	PlaceholderID string `yaml:"-"`
	Hint          string `yaml:"-"`
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
