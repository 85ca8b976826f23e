package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/modality"
)

// flightCourse writes a course of n finished lessons, each with one
// pending whiteboard: nothing a lesson waits for, so every lesson may
// start at once.
func flightCourse(t testing.TB, dir string, n int) string {
	files := map[string]string{}
	var course strings.Builder
	course.WriteString("version: 1\ncourse:\n  title: A long unit\n  outcomes: [Know it all]\nlessons:\n")
	for i := range n {
		name := fmt.Sprintf("lessons/%02d.yaml", i+1)
		fmt.Fprintf(&course, "  - {file: %s}\n", name)
		files[name] = fmt.Sprintf("version: 1\nmetadata:\n  title: Lesson %d\n  objectives: [Explain idea %d]\n  vocabulary:\n    - {term: term%d, definition: what term %d means}\nslides:\n  - id: s0\n    title: Slide 0\n    notes: Say it.\n    whiteboard: !pending \"a diagram\"\n", i+1, i+1, i, i)
	}
	files["course.yaml"] = course.String()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "course.yaml")
}

// Every lesson of a course that waits for none has its first request in
// flight at once: the server holds every answer until all n requests
// arrived (before, lessons were prepared one after another and only the
// first one or two arrived).
func TestCourseLessonsStartTogether(t *testing.T) {
	const n = 20
	dir := t.TempDir()
	file := flightCourse(t, dir, n)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, ".config"))
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	t.Setenv("LESSONGEN_MODEL", "m")
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"whiteboard"}, Turns: []fakellm.Turn{{Hold: true, Content: "Done."}}},
	}})
	t.Setenv("LESSONGEN_BASE_URL", srv.URL())
	done := make(chan int, 1)
	go func() {
		_, _, code := run(t, "generate", file, "--concurrency", fmt.Sprint(n))
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := srv.WaitForRequests(ctx, n)
	srv.Release()
	<-done
	if err != nil {
		t.Fatalf("not every lesson had a request in flight: %v", err)
	}
}

// A course's lessons share one set of tool catalogs: derived per lesson,
// they cost each lesson tens of milliseconds of CPU before its first
// request, and a course of 20 lessons had its last lesson's first
// request in flight seconds after its first (#39).
func TestCourseDerivesCatalogsOnce(t *testing.T) {
	const n = 5
	dir := t.TempDir()
	file := flightCourse(t, dir, n)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, ".config"))
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	t.Setenv("LESSONGEN_MODEL", "m")
	srv := fakellm.Start(t, costScript(0))
	t.Setenv("LESSONGEN_BASE_URL", srv.URL())
	var calls atomic.Int32
	defer func(f func(*modality.Registry) (*bridge.Bridge, error)) { newBridge = f }(newBridge)
	newBridge = func(reg *modality.Registry) (*bridge.Bridge, error) {
		calls.Add(1)
		return bridge.New(reg)
	}
	if _, stderr, code := run(t, "generate", file); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("the tool catalogs were derived %d times for a course of %d lessons, want once", got, n)
	}
}
