// Package nodemeta keeps the bookkeeping of a child node's own values (a
// whiteboard's heading, a quiz's kind): which generation set in this
// session, and which a binding from the slide's props set, with what the
// file had there, since that is what a save writes. Whiteboards and
// quizzes share it; a new child modality needs no copy.
package nodemeta

import (
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Meta is a node's bookkeeping of its own values, by name.
type Meta struct {
	generated map[string]bool
	// appended counts, per list the author wrote, the items generation
	// added after the author's (AppendTo).
	appended map[string]int
	unbound  map[string]*yamlsrc.Field[string]
	// whole: the node was given pending as a whole, with the author's hint.
	whole bool
	hint  string
}

// PendingWhole records that the node was given pending as a whole
// (`whiteboard: !pending "hint"`), with the author's hint.
func (m *Meta) PendingWhole(hint string) { m.whole, m.hint = true, hint }

// Whole is the author's hint for a node given pending as a whole, and
// whether it was.
func (m *Meta) Whole() (hint string, whole bool) { return m.hint, m.whole }

// Marks is a snapshot of what generation set: whole values, and items
// appended to the author's lists.
type Marks struct {
	generated map[string]bool
	appended  map[string]int
}

// Generated is a copy of which values generation set, for a snapshot;
// Restore puts it back. (What a binding set is not undone: bindings are
// resolved again at every load.)
func (m *Meta) Generated() Marks {
	return Marks{maps.Clone(m.generated), maps.Clone(m.appended)}
}

// Restore puts back what Generated copied.
func (m *Meta) Restore(marks Marks) { m.generated, m.appended = marks.generated, marks.appended }

// Appended is how many items at the end of the author's list name
// generation added.
func (m *Meta) Appended(name string) int { return m.appended[name] }

// AppendTo records that the last n items of the author's list name are
// generation's (replacing what it appended before).
func (m *Meta) AppendTo(name string, n int) {
	if m.appended == nil {
		m.appended = map[string]int{}
	}
	m.appended[name] = n
}

// AppendedKey is the provenance key of the last n items of the author's
// list name, which generation appended: "misconceptions[+1]".
func AppendedKey(name string, n int) string { return name + "[+" + strconv.Itoa(n) + "]" }

// AppendedCount reads AppendedKey: the count of items key names in list
// name, if it names that list's appended items.
func AppendedCount(key, name string) (int, bool) {
	count, ok := strings.CutPrefix(key, name+"[+")
	n, err := strconv.Atoi(strings.TrimSuffix(count, "]"))
	return n, ok && err == nil && n > 0 && strings.HasSuffix(count, "]")
}

// Tail is the last n items of a list value (any slice).
func Tail(list any, n int) (any, bool) {
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Slice || n < 1 || n > v.Len() {
		return nil, false
	}
	return v.Slice(v.Len()-n, v.Len()).Interface(), true
}

// AppendedOwner names, for a prompt's list of what may change, the items
// generation appended to the author's list name.
func AppendedOwner(name string, n int) string {
	return fmt.Sprintf("the last %d of %s (added after the author's)", n, name)
}

// Mark records that generation set value name.
func (m *Meta) Mark(name string) {
	if m.generated == nil {
		m.generated = map[string]bool{}
	}
	m.generated[name] = true
}

// Bound reports whether a binding from the slide's props set name: that
// value is the slide's, not generation's.
func (m *Meta) Bound(name string) bool { return m.unbound[name] != nil }

// Own reports whether generation (not the author, nor a binding) wrote
// value name.
func (m *Meta) Own(name string) bool { return m.generated[name] && !m.Bound(name) }

// Bind sets f, the bound property name, to value, keeping what the file
// had so the binding, not its value, is what is saved: it is resolved
// again at every load.
func (m *Meta) Bind(name string, f *yamlsrc.Field[string], value string) {
	if m.unbound == nil {
		m.unbound = map[string]*yamlsrc.Field[string]{}
	}
	if m.unbound[name] == nil {
		orig := *f
		if m.whole && orig.Pending && orig.Hint == "" {
			// Pending only because the whole node was: nothing the
			// author wrote, and the binding fills it at every load.
			orig = yamlsrc.Field[string]{}
		}
		m.unbound[name] = &orig
	}
	*f = yamlsrc.Val(value)
}

// Unbind puts back, in the fields field finds by name (on a copy of the
// node about to be saved), what the file had before each binding.
func (m *Meta) Unbind(field func(name string) *yamlsrc.Field[string]) {
	for name, orig := range m.unbound {
		*field(name) = *orig
	}
}

// Writable refuses to overwrite a value the author (or a binding) wrote
// while protect is on; what generation itself set may be set again.
func (m *Meta) Writable(name string, set, protect bool) error {
	if protect && set && !m.generated[name] {
		return session.Reject(session.KindPrecondition, name, "it was written by the author or bound from the slide's props; leave it as it is", "%s is already set", name)
	}
	return nil
}

// SetText sets the text value name, held in f, to value trimmed, when
// Writable allows it, and reports it.
func (m *Meta) SetText(rc *session.Context, name string, f *yamlsrc.Field[string], value string, protect bool) error {
	if err := m.Writable(name, f.Set, protect); err != nil {
		return err
	}
	v, err := NonEmpty(name, value)
	if err != nil {
		return err
	}
	*f = yamlsrc.Val(v)
	m.Mark(name)
	rc.Report(Set{Field: name, Value: v})
	return nil
}

// Encode writes node, the copy of a node about to be saved on which Unbind
// has put back what bindings replaced: as one `!pending "hint"` marker
// when untouched says it is still pending as a whole, as it was read.
func (m *Meta) Encode(node any, untouched bool) (*yaml.Node, bool) {
	if m.whole && untouched {
		return yamlsrc.PendingNode(m.hint), true
	}
	return yamlsrc.Encode(node), true
}

// NonEmpty is v trimmed, refused when nothing is left.
func NonEmpty(path, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", session.Reject(session.KindInvalidArgs, path, "give a non-empty value", "%s is empty", path)
	}
	return v, nil
}

// Provenance: value gives each of names' content and whether it is set.

// Hashes maps the values of names generation wrote to their hash; see
// session.Provenance.
func (m *Meta) Hashes(names []string, value func(name string) (any, bool)) map[string]string {
	out := map[string]string{}
	for _, name := range names {
		v, set := value(name)
		if set && m.Own(name) {
			out[name] = session.ContentHash(v)
		}
		if t, ok := Tail(v, m.appended[name]); set && ok {
			out[AppendedKey(name, m.appended[name])] = session.ContentHash(t)
		}
	}
	return out
}

// Adopt marks the values of names an earlier run generated, and nobody
// changed since, as generated; see session.Provenance.
func (m *Meta) Adopt(names []string, value func(name string) (any, bool), marks map[string]string) {
	for _, name := range names {
		v, set := value(name)
		if set && !m.Bound(name) && marks[name] != "" && marks[name] == session.ContentHash(v) {
			m.Mark(name)
		}
		for key, mark := range marks {
			n, ok := AppendedCount(key, name)
			if !ok || !set || m.Own(name) {
				continue
			}
			if t, ok := Tail(v, n); ok && session.ContentHash(t) == mark {
				m.AppendTo(name, n)
			}
		}
	}
}

// Owners names the values of names that are set: the author's (locked)
// and generation's (editable); see session.Provenance.
func (m *Meta) Owners(names []string, value func(name string) (any, bool)) (locked, editable []string) {
	for _, name := range names {
		if _, set := value(name); set {
			if m.Own(name) {
				editable = append(editable, name)
			} else {
				locked = append(locked, name)
			}
			if n := m.appended[name]; n > 0 && !m.Own(name) {
				editable = append(editable, AppendedOwner(name, n))
			}
		}
	}
	return locked, editable
}

// Set reports a value set: its name and what it is now.
type Set struct {
	Field string `json:"set"`
	Value any    `json:"value"`
}

// Reduce applies a change to a node small enough to undo by snapshot:
// save copies what apply may touch and returns how to put it back, which
// a refused change runs at once and an accepted one returns as its undo.
func Reduce(save func() (restore func()), apply func() error) (func(), error) {
	restore := save()
	if err := apply(); err != nil {
		restore()
		return nil, err
	}
	return restore, nil
}
