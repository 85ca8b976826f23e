package course

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// MaxOutcomes bounds a course's outcomes: a unit has a handful.
const MaxOutcomes = 8

// SetOutcomes writes the course's end-of-unit outcomes.
type SetOutcomes struct {
	Outcomes []string `json:"outcomes" jsonschema:"end-of-unit outcomes, each one measurable sentence starting with a verb, or as the author's brief asks" minItems:"1" maxItems:"8"`
}

// SetSubject and SetGrade write the course's subject and grade.
type (
	SetSubject struct {
		Subject string `json:"subject" jsonschema:"the school subject, e.g. maths"`
	}
	SetGrade struct {
		Grade string `json:"grade" jsonschema:"the grade or year group, e.g. Year 5"`
	}
)

// AddLesson names the lesson a pending item of the list stands for; the
// run then writes it as a new lesson file and generates it.
type AddLesson struct {
	PendingID string `json:"pending_id" jsonschema:"id of the pending lesson item (from the pending list) this lesson fills"`
	Title     string `json:"title" jsonschema:"the lesson's title, a few words; the new lesson file is named from it"`
	Brief     string `json:"brief" jsonschema:"what the lesson teaches and how it builds on the lessons before it, in one or two sentences: the brief its slides are written from"`
}

// Close ends a course.node subagent: the filled items stay as they are
// until the run writes their files, so there is nothing to remove.
type Close struct{}

func (SetOutcomes) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"course.outcomes"}, Doc: "Set the course's end-of-unit outcomes."}
}
func (SetSubject) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"course.subject"}, Doc: "Set the course's subject."}
}
func (SetGrade) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"course.grade"}, Doc: "Set the grade the course is for."}
}
func (AddLesson) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Fills: []string{"lessons"},
		Doc: "Name the lesson one pending item of the course's lesson list stands for: its title and brief. One call per pending item."}
}
func (Close) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "End the lesson list's turn."}
}

// Intents lists one zero value of every course intent: the closed set.
func Intents() []session.Intent {
	return []session.Intent{SetOutcomes{}, SetSubject{}, SetGrade{}, AddLesson{}, Close{}}
}

// Reduce applies one intent.
func (c *Course) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in := in.(type) {
	case SetOutcomes:
		return c.setOutcomes(rc, in.Outcomes)
	case SetSubject:
		return setText(rc, &c.Subject, "course.subject", in.Subject)
	case SetGrade:
		return setText(rc, &c.Grade, "course.grade", in.Grade)
	case AddLesson:
		return c.addLesson(rc, in)
	case Close:
		return nil, nil
	}
	return nil, fmt.Errorf("course: unknown intent %T", in)
}

func (c *Course) setOutcomes(rc *session.Context, outcomes []string) (func(), error) {
	outcomes = slices.DeleteFunc(slices.Clone(outcomes), func(s string) bool { return strings.TrimSpace(s) == "" })
	switch {
	case len(outcomes) == 0:
		return nil, fmt.Errorf("outcomes: give at least one outcome")
	case len(outcomes) > MaxOutcomes:
		return nil, fmt.Errorf("outcomes: at most %d, got %d; keep the end-of-unit ones", MaxOutcomes, len(outcomes))
	}
	old := c.Outcomes
	c.Outcomes = yamlsrc.Val(outcomes)
	rc.Report(map[string]any{"set": "course.outcomes", "count": len(outcomes)})
	return func() { c.Outcomes = old }, nil
}

func setText(rc *session.Context, f *yamlsrc.Field[string], path, v string) (func(), error) {
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("%s: give the text", path)
	}
	old := *f
	*f = yamlsrc.Val(v)
	rc.Report(map[string]any{"set": path})
	return func() { *f = old }, nil
}

func (c *Course) addLesson(rc *session.Context, in AddLesson) (func(), error) {
	i := slices.IndexFunc(c.Lessons, func(l Lesson) bool { return l.Pending && l.ID == in.PendingID })
	switch {
	case i < 0:
		return nil, fmt.Errorf("pending_id %q names no pending lesson item; the pending list names them (%s)", in.PendingID, strings.Join(c.openIDs(), ", "))
	case c.Lessons[i].Filled():
		return nil, fmt.Errorf("pending_id %q is already named %q; each item is one lesson", in.PendingID, c.Lessons[i].Title)
	case strings.TrimSpace(in.Title) == "":
		return nil, fmt.Errorf("title: give the lesson a title; its file is named from it")
	}
	old := c.Lessons[i]
	c.Lessons[i].Title, c.Lessons[i].Brief = strings.TrimSpace(in.Title), strings.TrimSpace(in.Brief)
	rc.Report(map[string]any{"added": "lesson " + fmt.Sprint(i+1), "title": c.Lessons[i].Title})
	return func() { c.Lessons[i] = old }, nil
}

func (c *Course) openIDs() []string {
	var ids []string
	for _, l := range c.Lessons {
		if l.Pending && !l.Filled() {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

// Recompile has nothing to derive: pending flags are read from the state.
func (c *Course) Recompile(*session.Context, session.Intent) {}

// Pending lists the metadata still to write, then the lesson items still
// to name.
func (c *Course) Pending() []session.Pending {
	var out []session.Pending
	for _, f := range []struct {
		path    string
		pending bool
		hint    string
	}{
		{"course.subject", c.Subject.Pending, c.Subject.Hint},
		{"course.grade", c.Grade.Pending, c.Grade.Hint},
		{"course.outcomes", c.Outcomes.Pending, c.Outcomes.Hint},
	} {
		if f.pending {
			out = append(out, session.Pending{Level: session.LevelMetadata, Path: f.path, Hint: f.hint})
		}
	}
	for i, l := range c.Lessons {
		if l.Pending && !l.Filled() {
			out = append(out, session.Pending{Level: session.LevelNode, Path: "lessons", ID: l.ID, Hint: l.Hint,
				Label: fmt.Sprintf("lesson %d of %d", i+1, len(c.Lessons))})
		}
	}
	return out
}

// Describe says what the course is in a few sentences, the same size
// however many lessons it has (the outline lists them).
func (c *Course) Describe() string {
	var s strings.Builder
	fmt.Fprintf(&s, "A course of %d lessons", len(c.Lessons))
	if t, ok := c.Title.Get(); ok {
		fmt.Fprintf(&s, " titled %q", clip.Text(t))
	}
	if v, ok := c.Subject.Get(); ok {
		fmt.Fprintf(&s, ", subject %s", clip.Text(v))
	}
	if v, ok := c.Grade.Get(); ok {
		fmt.Fprintf(&s, ", for %s", clip.Text(v))
	}
	s.WriteString(".")
	if o, ok := c.Outcomes.Get(); ok && len(o) > 0 {
		fmt.Fprintf(&s, " End-of-unit outcomes: %s.", clip.Text(strings.Join(o, "; ")))
	}
	return s.String()
}

// Content is the course as resume compares it.
func (c *Course) Content() string {
	var s strings.Builder
	s.WriteString(c.Describe())
	for _, l := range c.Lessons {
		fmt.Fprintf(&s, "\n%s|%s|%s", l.File, l.Title, l.Brief)
	}
	return s.String()
}
