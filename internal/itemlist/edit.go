package itemlist

import (
	"fmt"
	"slices"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Each edit returns its exact inverse, which touches only what the edit
// changed: undo costs the same for a list of 20 items as for one of 2,000.

// Add puts it, which has its id, in the list: in place of the placeholder
// pendingID names (or, with pendingID "", the only one open), which it
// then fills; else at 1-based position pos among the real items, or at
// the end when pos is 0. A list pending as a whole first becomes a list
// holding one placeholder with its hint, so partial work and the hint
// left can both be saved. ph is the placeholder filled, if any.
func (l List[E, P]) Add(it P, pendingID string, pos int) (ph P, undo func(), err error) {
	old := *l.Field
	if l.Field.Pending {
		var blank E
		first := P(&blank)
		first.entry().Placeholder = yamlsrc.Placeholder{IsPlaceholder: true, Hint: l.Field.Hint}
		*l.Field = yamlsrc.Val([]P{first})
		l.Reindex()
	}
	if *l.ByID == nil {
		l.Reindex()
	}
	ph, missing, hint := yamlsrc.PickPlaceholder(l.Items(), pendingID)
	if missing {
		*l.Field = old
		l.Reindex()
		return nil, nil, session.Reject(session.KindNotFound, "pending_id", hint, "no placeholder %q", pendingID)
	}
	list := l.Items()
	at := len(list)
	switch {
	case ph != nil:
		at = slices.Index(list, ph)
		ph.entry().Filled++
		it.entry().FilledFor = ph.entry().PlaceholderID
		*it.Refs().GeneratedFor = ph.entry().PlaceholderKey()
	case pos > 0:
		at = offsetOf(list, pos)
	}
	*l.Field = yamlsrc.Val(slices.Insert(list, at, it))
	(*l.ByID)[id(it)] = it
	return ph, func() {
		if ph != nil {
			ph.entry().Filled--
		}
		delete(*l.ByID, id(it))
		if old.Pending {
			*l.Field = old
			return
		}
		l.Field.Value = slices.DeleteFunc(l.Field.Value, func(x P) bool { return x == it })
	}, nil
}

// Move puts it at 1-based position pos among the real items.
func (l List[E, P]) Move(it P, pos int) (undo func(), err error) {
	_, count := l.Position(id(it))
	if pos < 1 || pos > count {
		return nil, session.Reject(session.KindInvalidArgs, "position", fmt.Sprintf("position must be between 1 and %d", count), "position %d is out of range", pos)
	}
	old := slices.Clone(l.Items())
	list := slices.DeleteFunc(l.Field.Value, func(x P) bool { return x == it })
	l.Field.Value = slices.Insert(list, offsetOf(list, pos), it)
	return func() { l.Field.Value = old }, nil
}

// Remove takes it out of the list; the placeholder it filled is owed an
// item again.
func (l List[E, P]) Remove(it P) (undo func()) {
	i := slices.Index(l.Field.Value, it)
	l.Field.Value = slices.Delete(l.Field.Value, i, i+1)
	delete(*l.ByID, id(it))
	ph := l.Uncredit(it)
	return func() {
		l.Field.Value = slices.Insert(l.Field.Value, i, it)
		(*l.ByID)[id(it)] = it
		if ph != nil {
			ph.entry().Filled++
		}
	}
}

// Uncredit owes the placeholder it filled, if still in the list, an item
// again, as it has left; it returns that placeholder.
func (l List[E, P]) Uncredit(it P) P {
	for _, ph := range l.Items() {
		if e := ph.entry(); e.IsPlaceholder && it.entry().FilledFor != "" && e.PlaceholderID == it.entry().FilledFor {
			e.Filled--
			return ph
		}
	}
	return nil
}

// Close removes the placeholders that received items (Received), and the
// record of what they were filled with from those items. It returns the
// ids of the placeholders closed.
func (l List[E, P]) Close() (closed []string, undo func()) {
	old, oldList := *l.Field, slices.Clone(l.Field.Value)
	var gone []P
	for _, it := range l.Items() {
		if e := it.entry(); e.IsPlaceholder && l.Received(it) {
			closed, gone = append(closed, e.PlaceholderID), append(gone, it)
		}
	}
	l.Field.Value = slices.DeleteFunc(l.Field.Value, func(it P) bool { return slices.Contains(gone, it) })
	type mark struct{ generatedFor, filledFor string }
	cleared := map[P]mark{}
	for _, it := range l.Field.Value {
		if e := it.entry(); e.FilledFor != "" && slices.Contains(closed, e.FilledFor) {
			cleared[it] = mark{*it.Refs().GeneratedFor, e.FilledFor}
			*it.Refs().GeneratedFor, e.FilledFor = "", ""
		}
	}
	return closed, func() {
		*l.Field = old
		l.Field.Value = oldList
		for it, m := range cleared {
			*it.Refs().GeneratedFor, it.entry().FilledFor = m.generatedFor, m.filledFor
		}
	}
}

// Reports an edit of the list gives whoever dispatched it.
type (
	// Added: item ID added at 1-based Position, filling placeholder
	// PendingID if any.
	Added struct {
		ID        string `json:"added"`
		Position  int    `json:"position"`
		PendingID string `json:"placed_at,omitempty"`
	}
	// Moved: item ID moved to Position.
	Moved struct {
		ID       string `json:"moved"`
		Position int    `json:"position"`
	}
	// Removed: item ID removed.
	Removed struct {
		ID string `json:"removed"`
	}
	// Changed: the fields of item ID an update set.
	Changed struct {
		ID     string   `json:"changed"`
		Fields []string `json:"fields"`
	}
	// Closed: the placeholders Close removed.
	Closed struct {
		Placeholders []string `json:"closed"`
	}
)

// Copy is a copy of the list's field whose items are copies too, for a
// snapshot that makes an undo exact; deep, if given, copies what an item
// points to.
func (l List[E, P]) Copy(deep func(P)) yamlsrc.Field[[]P] {
	f := *l.Field
	if f.Value != nil {
		f.Value = make([]P, len(l.Field.Value))
		for i, it := range l.Field.Value {
			c := *it
			f.Value[i] = &c
			if deep != nil {
				deep(&c)
			}
		}
	}
	return f
}
