package lesson

import (
	"fmt"
	"slices"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// An author's metadata list may hold placeholders (`- !pending "one more
// common misconception"`): its set_ tool, given the placeholder's id as
// pending_id, adds items there and leaves the author's items as written.
// A placeholder's id is the list's name and its place among the list's
// placeholders: objectives-1.

// numberLists gives each list placeholder its id, once, at load.
func (m *Metadata) numberLists() {
	yamlsrc.NumberPlaceholders(m.Objectives.Value, "objectives-")
	yamlsrc.NumberPlaceholders(m.KeyLearningPoints.Value, "key_learning_points-")
	yamlsrc.NumberPlaceholders(m.Materials.Value, "materials-")
	yamlsrc.NumberPlaceholders(m.Vocabulary.Value, "vocabulary-")
	yamlsrc.NumberPlaceholders(m.Misconceptions.Value, "misconceptions-")
	yamlsrc.NumberPlaceholders(m.KeyQuestions.Value, "key_questions-")
	yamlsrc.NumberPlaceholders(m.Sections.Value, "sections-")
}

// listPending lists the open placeholders of the metadata lists.
func (m *Metadata) listPending() []session.Pending {
	var ps []session.Pending
	add := func(name string, spots []yamlsrc.OpenSpot) {
		for _, sp := range spots {
			where := "at the start"
			if sp.After > 0 {
				where = fmt.Sprintf("after item %d", sp.After)
			}
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: fmt.Sprintf("metadata.%s[%d]", name, sp.Index),
				Hint: sp.Hint, ID: sp.PlaceholderID, Label: fmt.Sprintf("new metadata.%s items %s", name, where)})
		}
	}
	add("objectives", yamlsrc.OpenSpots(m.Objectives.Value))
	add("vocabulary", yamlsrc.OpenSpots(m.Vocabulary.Value))
	add("key_learning_points", yamlsrc.OpenSpots(m.KeyLearningPoints.Value))
	add("misconceptions", yamlsrc.OpenSpots(m.Misconceptions.Value))
	add("materials", yamlsrc.OpenSpots(m.Materials.Value))
	add("key_questions", yamlsrc.OpenSpots(m.KeyQuestions.Value))
	add("sections", yamlsrc.OpenSpots(m.Sections.Value))
	return ps
}

// ItemsAdded reports items added at a list placeholder.
type ItemsAdded struct {
	List      string `json:"added_to"`
	PendingID string `json:"placed_at"`
	Count     int    `json:"items"`
}

// setList sets a metadata list: at a placeholder of the author's list
// when it has one open (or pending_id names one), else as a whole, as
// setField does.
func setList[T any, P yamlsrc.PlaceholderOf[T]](p *Plan, rc *session.Context, f *yamlsrc.Field[[]T], name, id string, items []T) (func(), error) {
	if id == "" && (!f.Set || len(yamlsrc.OpenSpots[T, P](f.Value)) == 0) {
		if p.Protect && f.Set && !p.generated[name] {
			return appendList(p, rc, f, name, items)
		}
		return setField(p, rc, f, name, items)
	}
	if !f.Set {
		return nil, session.Reject(session.KindPrecondition, "pending_id", "the whole list is pending; omit pending_id", "%s has no placeholders", name)
	}
	out, ph, err := yamlsrc.FillPlaceholder[T, P](f.Value, id, items)
	if err != nil {
		return nil, session.Reject(session.KindNotFound, "pending_id", err.Error(), "%s: no placeholder to fill", name)
	}
	// One call fills a metadata placeholder, so it brings what the hint
	// counts ("two more common misconceptions"), else the author gets less
	// than asked with nothing left pending to say so.
	if n := session.HintCount(ph.Hint); len(items) < n {
		return nil, session.Reject(session.KindInvalidArgs, name, fmt.Sprintf("pass at least %d items for this placeholder in one call", n), "placeholder %s (%q) asks for %d items; got %d", ph.PlaceholderID, ph.Hint, n, len(items))
	}
	old := f.Value
	f.Value = out
	rc.Report(ItemsAdded{List: name, PendingID: ph.PlaceholderID, Count: len(items)})
	return func() { f.Value = old }, nil
}

// ItemsAppended reports items added after the author's own in a list the
// author wrote: the author's stay as written and locked, these are the
// run's (a later refinement may change them).
type ItemsAppended struct {
	List        string `json:"appended_to"`
	AuthorItems int    `json:"after_the_authors_items"`
	Count       int    `json:"items"`
}

// appendList adds items after the author's in a list the author wrote
// (an instruction adding "one more misconception"): the author's items
// are never changed, and what a run appended before is replaced, as a set
// replaces what generation wrote.
func appendList[T any](p *Plan, rc *session.Context, f *yamlsrc.Field[[]T], name string, items []T) (func(), error) {
	before := p.appended[name]
	authors := len(f.Value) - before
	old := f.Value
	f.Value = append(slices.Clip(f.Value[:authors]), items...)
	if p.appended == nil {
		p.appended = map[string]int{}
	}
	p.appended[name] = len(items)
	rc.Report(ItemsAppended{List: name, AuthorItems: authors, Count: len(items)})
	return func() { f.Value, p.appended[name] = old, before }, nil
}
