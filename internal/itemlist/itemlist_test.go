package itemlist

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// task is a toy item, as a new modality (a worksheet's tasks) would write
// one: it embeds Entry, gives its Refs, and copies nothing else.
type task struct {
	Entry
	ID           string
	Text         yamlsrc.Field[string]
	Sources      []string
	GeneratedFor string
}

func (t *task) Refs() Refs {
	return Refs{ID: &t.ID, GeneratedFor: &t.GeneratedFor, Sources: &t.Sources}
}

var taskSpec = Spec{Noun: "task", IDsLabel: "task ids", Empty: "no tasks yet", Authored: "leave it", Named: "task %q"}

type sheet struct {
	tasks yamlsrc.Field[[]*task]
	byID  map[string]*task
}

func (s *sheet) list() List[task, *task] {
	return List[task, *task]{Field: &s.tasks, ByID: &s.byID, Spec: &taskSpec}
}

func placeholder(hint string) *task {
	return &task{Entry: Entry{Placeholder: yamlsrc.Placeholder{IsPlaceholder: true, Hint: hint}}}
}

// load is a sheet as the file gives it: an authored task t1, a
// placeholder, and a task a stopped run generated for it.
func load(t *testing.T) *sheet {
	t.Helper()
	s := &sheet{tasks: yamlsrc.Val([]*task{
		{ID: "t1", Text: yamlsrc.Val("Read"), Sources: []string{"a.md:1"}},
		placeholder("two practice tasks"),
		{ID: "t2", Text: yamlsrc.Todo[string]("a hint"), GeneratedFor: "two practice tasks"},
	})}
	s.list().Load(nil, func(*yaml.Node) ([]string, []bool) { return nil, nil })
	return s
}

func ids(s *sheet) []string {
	var out []string
	for _, it := range s.tasks.Value {
		if it.IsPlaceholder {
			out = append(out, "["+it.PlaceholderID+"]")
		} else {
			out = append(out, it.ID)
		}
	}
	return out
}

func TestLoadLinksWhatAStoppedRunGenerated(t *testing.T) {
	s := load(t)
	ph := s.tasks.Value[1]
	if ph.PlaceholderID != "p1" || !s.tasks.Value[0].Authored || !s.tasks.Value[0].Cited {
		t.Fatalf("placeholder %q, t1 authored %v cited %v", ph.PlaceholderID, s.tasks.Value[0].Authored, s.tasks.Value[0].Cited)
	}
	// One of the two tasks the hint asks for is there: still open.
	gen, open := s.list().Open(ph)
	if !open || !slices.Equal(gen, []string{"t2"}) || !s.list().Received(ph) {
		t.Fatalf("Open = %v, %v; received %v", gen, open, s.list().Received(ph))
	}
	ps := s.list().Pending("tasks", nil, func(it *task) []Field { return []Field{{Name: "text", Pending: it.Text.Pending}} })
	if len(ps) != 2 || ps[0].ID != "p1" || ps[1].Path != "tasks[t2].text" || ps[1].Label != `task "t2" (2).text` {
		t.Fatalf("Pending = %+v", ps)
	}
}

func TestAddFillsThePlaceholderAndUndoes(t *testing.T) {
	s := load(t)
	n := &task{ID: s.list().Numbered("t", new(int))}
	if n.ID != "t3" {
		t.Fatalf("Numbered = %q; t1 and t2 are taken", n.ID)
	}
	ph, undo, err := s.list().Add(n, "", 0)
	if err != nil || ph == nil || ph.Filled != 1 || n.GeneratedFor != "two practice tasks" || n.FilledFor != "p1" {
		t.Fatalf("Add: ph %v, err %v, task %+v", ph, err, n)
	}
	if got := ids(s); !slices.Equal(got, []string{"t1", "t3", "[p1]", "t2"}) {
		t.Fatalf("after Add: %v", got)
	}
	// Now two: the placeholder closes, and the record of what filled it goes.
	closed, reopen := s.list().Close()
	if !slices.Equal(closed, []string{"p1"}) || n.GeneratedFor != "" || s.tasks.Value[2].GeneratedFor != "" {
		t.Fatalf("Close = %v; generated_for %q, %q", closed, n.GeneratedFor, s.tasks.Value[2].GeneratedFor)
	}
	reopen()
	undo()
	if got := ids(s); !slices.Equal(got, []string{"t1", "[p1]", "t2"}) || ph.Filled != 0 || s.tasks.Value[2].GeneratedFor == "" {
		t.Fatalf("after undo: %v, filled %d", got, ph.Filled)
	}
	if _, ok := s.list().Get("t3"); ok {
		t.Fatal("t3 is still indexed after undo")
	}
}

func TestAddToAPendingListAndRefusals(t *testing.T) {
	s := &sheet{tasks: yamlsrc.Todo[[]*task]("three tasks")}
	s.list().Reindex()
	_, _, err := s.list().Add(&task{ID: "x"}, "p9", 0)
	if e, ok := session.AsError(err); !ok || !strings.Contains(e.Error(), `no placeholder "p9"`) || !s.tasks.Pending {
		t.Fatalf("Add at a missing placeholder: %v; list pending %v", err, s.tasks.Pending)
	}
	ph, undo, err := s.list().Add(&task{ID: "x"}, "", 0)
	if err != nil || ph == nil || ph.Hint != "three tasks" || s.tasks.Pending {
		t.Fatalf("Add to a pending list: %v, %v", ph, err)
	}
	undo()
	if !s.tasks.Pending || s.tasks.Hint != "three tasks" {
		t.Fatalf("undo leaves %+v", s.tasks)
	}
	s = load(t)
	if _, err := s.list().Editable("t1", true); err == nil || !strings.Contains(err.Error(), `task "t1" was written by the author`) {
		t.Fatalf("Editable(authored) = %v", err)
	}
	if _, err := s.list().Editable("nope", true); err == nil || !strings.Contains(err.Error(), "task ids: t1, t2") {
		t.Fatalf("Editable(missing) = %v", err)
	}
}

func TestMoveAndRemove(t *testing.T) {
	s := load(t)
	t2, _ := s.list().Get("t2")
	if _, err := s.list().Move(t2, 3); err == nil {
		t.Fatal("Move past the end was allowed")
	}
	undo, err := s.list().Move(t2, 1)
	if err != nil || !slices.Equal(ids(s), []string{"t2", "t1", "[p1]"}) {
		t.Fatalf("Move: %v, %v", ids(s), err)
	}
	undo()
	ph := s.tasks.Value[1]
	ph.Filled = 1
	t2.FilledFor = "p1"
	back := s.list().Remove(t2)
	if ph.Filled != 0 || !slices.Equal(ids(s), []string{"t1", "[p1]"}) {
		t.Fatalf("Remove: %v, filled %d", ids(s), ph.Filled)
	}
	back()
	if ph.Filled != 1 || !slices.Equal(ids(s), []string{"t1", "[p1]", "t2"}) {
		t.Fatalf("undo Remove: %v, filled %d", ids(s), ph.Filled)
	}
}
