package quiz

import "github.com/lessongen/lessongen/session"

// metaNames are the quiz's own values provenance tracks, in file order.
var metaNames = []string{"kind", "instructions"}

func questionKey(id string) string { return "questions[" + id + "]" }

// questionContent is what a question's provenance hash covers: everything
// a save writes of it but the bookkeeping of an open placeholder.
func questionContent(qu *Question) any {
	return struct {
		Prompt               string
		Answers, Distractors []string
		Feedback             string
		Sources              []string
	}{qu.Prompt.Value, qu.Answers.Value, qu.Distractors.Value, qu.Feedback.Value, qu.Sources}
}

func (q *Quiz) metaField(name string) (string, bool) {
	switch name {
	case "kind":
		return q.Kind.Value, q.Kind.Set
	case "instructions":
		return q.Instructions.Value, q.Instructions.Set
	}
	return "", false
}

// ownMeta reports whether generation (not the author, nor a binding from
// the slide's props) wrote the metadata value name.
func (q *Quiz) ownMeta(name string) bool { return q.generated[name] && q.unbound[name] == nil }

// Generated maps what generation wrote in this quiz to its hash; see
// session.Provenance.
func (q *Quiz) Generated() map[string]string {
	out := map[string]string{}
	for _, name := range metaNames {
		if v, set := q.metaField(name); set && q.ownMeta(name) {
			out[name] = session.ContentHash(v)
		}
	}
	for _, qu := range q.questions() {
		if !qu.IsPlaceholder && !qu.Authored {
			out[questionKey(qu.ID)] = session.ContentHash(questionContent(qu))
		}
	}
	return out
}

// Adopt marks what an earlier run generated, and nobody changed since, as
// generated; see session.Provenance.
func (q *Quiz) Adopt(marks map[string]string) {
	for _, name := range metaNames {
		if v, set := q.metaField(name); set && q.unbound[name] == nil && marks[name] != "" && marks[name] == session.ContentHash(v) {
			if q.generated == nil {
				q.generated = map[string]bool{}
			}
			q.generated[name] = true
		}
	}
	for _, qu := range q.questions() {
		if m := marks[questionKey(qu.ID)]; qu.Authored && !qu.IsPlaceholder && m != "" && m == session.ContentHash(questionContent(qu)) {
			qu.Authored, qu.Cited = false, false
		}
	}
}

// Ownership names the author's values (locked) and generation's
// (editable); see session.Provenance.
func (q *Quiz) Ownership(level session.Level) (locked, editable []string) {
	if level == session.LevelNode {
		return q.questionOwners()
	}
	for _, name := range metaNames {
		if _, set := q.metaField(name); set {
			if q.ownMeta(name) {
				editable = append(editable, name)
			} else {
				locked = append(locked, name)
			}
		}
	}
	return locked, editable
}

func (q *Quiz) questionOwners() (locked, editable []string) {
	for _, qu := range q.questions() {
		switch {
		case qu.IsPlaceholder:
		case qu.Authored:
			locked = append(locked, q.name(qu))
		default:
			editable = append(editable, q.name(qu))
		}
	}
	return locked, editable
}

// SetProtect turns the protection of the author's questions and values on
// or off; see session.Guarded.
func (q *Quiz) SetProtect(on bool) { q.Protect = on }
