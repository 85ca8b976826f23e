package activity_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/activity"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lessontest"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// rmSafely is the slide as an author writes it: comments, a flow
// list, a pending model answer and a criteria placeholder.
const rmSafely = `version: 1
metadata:
  title: The Unix shell
slides:
  - id: rm-safely
    title: Deleting safely
    duration_minutes: 10
    activity:                       # a task pupils do
      instructions: Explain what rm -i does and why we might want it.
      grouping: pairs               # individual | pairs | groups | class
      duration_minutes: 5
      model_answer: !pending        # revealed after the task
      success_criteria: [names the prompt, gives a reason, !pending "one on safety"]
      support: "Start with: rm -i asks ..."
`

func load(t *testing.T, src string) (*session.Session, func() string) {
	t.Helper()
	d := lessontest.Load(t, src)
	s, err := d.Child("rm-safely", "activity")
	if err != nil {
		t.Fatal(err)
	}
	return s, func() string { return lessontest.Rendered(t, d)[d.Path] }
}

func state(s *session.Session) *activity.Activity {
	var a *activity.Activity
	s.View(func(st session.State) { a = st.(*activity.Activity) })
	return a
}

func TestAnAuthorsActivityRoundTripsByteForByte(t *testing.T) {
	_, saved := load(t, rmSafely)
	if got := saved(); got != rmSafely {
		t.Errorf("saved without a change:\n%s\nwant:\n%s", got, rmSafely)
	}
}

func TestPendingPartsAreFilledThroughTheTools(t *testing.T) {
	s, saved := load(t, rmSafely)
	var paths []string
	for _, p := range state(s).Pending() {
		paths = append(paths, p.Path)
	}
	if got := strings.Join(paths, " "); got != "model_answer success_criteria[2]" {
		t.Fatalf("pending = %s", got)
	}
	sessiontest.Dispatch(t, s, activity.SetModelAnswer{ModelAnswer: "rm -i asks before deleting each file, so a slip cannot delete the wrong one."})
	sessiontest.Dispatch(t, s, activity.AddSuccessCriteria{Criteria: []string{"says when to use it"}})
	if ps := state(s).Pending(); len(ps) != 0 {
		t.Fatalf("still pending: %+v", ps)
	}
	got := saved()
	for _, want := range []string{
		"model_answer: rm -i asks before deleting each file, so a slip cannot delete the wrong one.        # revealed after the task",
		"success_criteria: [names the prompt, gives a reason, says when to use it]",
		"grouping: pairs               # individual | pairs | groups | class",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("saved lesson lacks %q:\n%s", want, got)
		}
	}
	lessontest.KeptInOrder(t, rmSafely, got, "model_answer", "success_criteria")
}

func TestTheAuthorsValuesAreProtected(t *testing.T) {
	s, _ := load(t, rmSafely)
	for _, in := range []session.Intent{
		activity.SetInstructions{Instructions: "Something else."},
		activity.SetGrouping{Grouping: "groups"},
		activity.SetSupport{Support: "other"},
	} {
		if _, err := s.Dispatch(t.Context(), in); err == nil {
			t.Errorf("%T overwrote the author's value", in)
		}
	}
	if _, err := s.Dispatch(t.Context(), activity.SetGrouping{Grouping: "trios"}); err == nil || !strings.Contains(err.Error(), "trios") {
		t.Errorf("an unknown grouping: %v", err)
	}
}

func TestAWholePendingActivityIsFilledAndSaved(t *testing.T) {
	src := strings.Replace(rmSafely, rmSafely[strings.Index(rmSafely, "    activity:"):], "    activity: !pending \"pairs explain rm -i\"\n", 1)
	s, saved := load(t, src)
	if got := saved(); got != src {
		t.Fatalf("an untouched pending activity changed:\n%s", got)
	}
	if d := state(s).Describe(); !strings.Contains(d, "Brief for this activity: pairs explain rm -i.") {
		t.Errorf("describe lacks the brief: %s", d)
	}
	for _, in := range []session.Intent{
		activity.SetInstructions{Instructions: "Explain rm -i to your partner."},
		activity.SetGrouping{Grouping: "pairs"},
		activity.SetActivityMinutes{DurationMinutes: 4},
		activity.SetModelAnswer{ModelAnswer: "It asks first."},
		activity.AddSuccessCriteria{Criteria: []string{"names the prompt", "gives a reason"}},
		activity.SetSupport{Support: "Try it on a copy."},
		activity.SetStretch{Stretch: "What does rm -r do?"},
	} {
		sessiontest.Dispatch(t, s, in)
	}
	if ps := state(s).Pending(); len(ps) != 0 {
		t.Fatalf("still pending: %+v", ps)
	}
	want := "    activity:\n      instructions: Explain rm -i to your partner.\n      grouping: pairs\n      duration_minutes: 4\n      model_answer: It asks first.\n" +
		"      success_criteria:\n        - names the prompt\n        - gives a reason\n      support: Try it on a copy.\n      stretch: What does rm -r do?\n"
	if got := saved(); !strings.HasSuffix(got, want) {
		t.Errorf("saved:\n%s\nwant it to end:\n%s", got, want)
	}
}

func TestBadActivitiesAreReportedWhereTheyAre(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"grouping: pairs ", "grouping: trios ", "lesson.yaml:10:17: slides[0].activity.grouping must be one of individual, pairs, groups or class, got \"trios\""},
		{"duration_minutes: 5", "duration_minutes: 0", "lesson.yaml:11:25: slides[0].activity.duration_minutes must be between 1 and 120"},
		{"instructions: Explain what rm -i does and why we might want it.", "stretch: x", "is missing the required key \"instructions\""},
		{"names the prompt", "{a: b}", "lesson.yaml:13:26:"},
	} {
		src := strings.Replace(rmSafely, tc.from, tc.to, 1)
		s, err := yamlsrc.Parse("lesson.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		slides := yamlsrc.Value(s.Root, "slides")
		n := yamlsrc.Value(slides.Content[0], "activity")
		r := &yamlsrc.Reporter{File: "lesson.yaml"}
		activity.Decode(n, r, "slides[0].activity")
		if !strings.Contains(r.Problems.Error(), tc.want) {
			t.Errorf("%s → %s: %v, want %q", tc.from, tc.to, r.Problems, tc.want)
		}
	}
}

func TestTheModelAnswerIsTeacherOnly(t *testing.T) {
	s, _ := load(t, rmSafely)
	sessiontest.Dispatch(t, s, activity.SetModelAnswer{ModelAnswer: "SECRET-ANSWER"})
	r := activity.Render(state(s), nil)
	if strings.Contains(r.Body, "SECRET-ANSWER") || !strings.Contains(r.Notes, "SECRET-ANSWER") {
		t.Errorf("model answer: body %q, notes %q", r.Body, r.Notes)
	}
	for _, want := range []string{"pairs", "5 min", "Explain what rm -i does", "names the prompt", "Support:"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("body lacks %q: %s", want, r.Body)
		}
	}
	deck := activity.RenderPPTX(state(s), nil, pptx.Box{W: 100, H: 100})
	for _, p := range deck.Shapes[0].(*pptx.Sp).Paras {
		for _, r := range p.Runs {
			if strings.Contains(r.Text, "SECRET-ANSWER") {
				t.Error("the model answer is on the PowerPoint slide")
			}
		}
	}
	if len(deck.Key) != 1 || !strings.Contains(deck.Key[0].Runs[0].Text, "SECRET-ANSWER") {
		t.Errorf("the model answer is not in the deck's key: %+v", deck.Key)
	}
	if d := state(s).Describe(); strings.Contains(d, "SECRET-ANSWER") {
		t.Errorf("describe repeats the model answer, which later subagents would see: %s", d)
	}
}

// An activity longer than its slide is flagged at its minutes: the task's
// minutes are part of the slide's.
func TestAnActivityLongerThanItsSlideIsFlagged(t *testing.T) {
	src := strings.Replace(rmSafely, "      duration_minutes: 5", "      duration_minutes: 15", 1)
	dir := lessontest.WriteFiles(t, map[string]string{"lesson.yaml": src})
	d, err := compose.Load(filepath.Join(dir, "lesson.yaml"), lessontest.Registry())
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(d.Warnings)
	if want := "lesson.yaml:11:25: warning: slide \"rm-safely\" (1).activity.duration_minutes: the activity takes 15 minutes, more than the slide's 10"; !strings.Contains(got, want) {
		t.Errorf("warnings %s, want %q", got, want)
	}
}

// A refinement adds criteria after the author's, which stay as written;
// the added ones are generation's, in provenance, and only they may change
// in a later run.
func TestCriteriaAddedAfterTheAuthors(t *testing.T) {
	// A block list: a grown flow list is written anew in block style
	// (yamlsrc's TestPatchInsideFlowCollections), its values unchanged.
	src := strings.Replace(rmSafely, `success_criteria: [names the prompt, gives a reason, !pending "one on safety"]`,
		"success_criteria:\n        - names the prompt   # the author's\n        - gives a reason", 1)
	s, saved := load(t, src)
	sessiontest.Dispatch(t, s, activity.AddSuccessCriteria{Criteria: []string{"says when to use it"}})
	added := strings.Replace(src, "        - gives a reason\n", "        - gives a reason\n        - says when to use it\n", 1)
	if got := saved(); got != added {
		t.Errorf("saved:\n%s\nwant:\n%s", got, added)
	}
	marks := state(s).Generated()
	if len(marks) != 1 || marks["success_criteria[+1]"] == "" {
		t.Fatalf("provenance %v, want the added criterion alone", marks)
	}
	// A later run, given the record, owns the added criterion only.
	s2, _ := load(t, added)
	state(s2).Adopt(marks)
	locked, editable := state(s2).Ownership(session.LevelNode)
	if strings.Join(editable, ",") != "the last 1 of success_criteria (added after the author's)" || !strings.Contains(strings.Join(locked, ","), "success_criteria") {
		t.Errorf("locked %v, editable %v", locked, editable)
	}
}
