package compose_test

import (
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lessontest"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// The fixtures and checks are shared with the lesson tests; see
// internal/lessontest.
const (
	fractionsSrc = lessontest.Fractions
	recapSrc     = lessontest.Recap
	oddSrc       = lessontest.Odd
	compactSrc   = lessontest.Compact
)

type view = lessontest.View

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	return lessontest.WriteFiles(t, files)
}
func load(t *testing.T, src string, extra ...string) *compose.Document {
	t.Helper()
	return lessontest.Load(t, src, extra...)
}
func loadFractions(t *testing.T) *compose.Document {
	t.Helper()
	return lessontest.LoadFractions(t)
}
func plan(d *compose.Document) *lesson.Plan { return lessontest.Plan(d) }
func dispatch(t *testing.T, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return lessontest.Dispatch(t, s, in)
}
func rendered(t *testing.T, d *compose.Document) map[string]string {
	t.Helper()
	return lessontest.Rendered(t, d)
}
func look(t *testing.T, d *compose.Document) view {
	t.Helper()
	return lessontest.Look(t, d)
}
func apply(t *testing.T, d *compose.Document, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return lessontest.Apply(t, d, s, in)
}
func observe(t *testing.T, d *compose.Document) sessiontest.Observer[view] {
	t.Helper()
	return lessontest.Observe(t, d)
}
func reload(t *testing.T, d *compose.Document) *compose.Document {
	t.Helper()
	return lessontest.Reload(t, d)
}
func keptInOrder(t *testing.T, orig, got string, changed ...string) {
	t.Helper()
	lessontest.KeptInOrder(t, orig, got, changed...)
}
func ptr[T any](v T) *T { return &v }
func wantOutputs(t *testing.T, res session.Result, want ...any) {
	t.Helper()
	lessontest.WantOutputs(t, res, want...)
}
func board(slide string) session.Key        { return lessontest.Board(slide) }
func testRegistry() *modality.Registry      { return lessontest.Registry() }
func practice(title string) lesson.AddSlide { return lessontest.Practice(title) }
