package main

import (
	"os"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestExitZeroMeansStrict runs generate on the example with its scripted
// model and with models that leave what validate --strict rejects: a run
// that exits 0 writes a lesson validate --strict passes, and one that
// leaves a strict problem exits 3, naming it.
func TestExitZeroMeansStrict(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exampleScript)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		script   string
		wantCode int
		wantErr  string
	}{
		{"the scripted model", string(data), 0, ""},
		// A slide 5 minutes short of the lesson's 45, never lengthened.
		{"minutes left short", strings.Replace(string(data), `"duration_minutes": 7`, `"duration_minutes": 2`, 1), 3, "5 fewer than the lesson's 45"},
		// An element drawn over another, never moved.
		{"an overlap left", strings.Replace(string(data), `"id": "water", "x": 700, "y": 280`, `"id": "water", "x": 700, "y": 170`, 1), 3, "overlaps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.script == string(data) != (tt.wantCode == 0) {
				t.Fatal("the variant changes nothing in the script")
			}
			script, err := fakellm.ParseScript([]byte(tt.script))
			if err != nil {
				t.Fatal(err)
			}
			srv := fakellm.Start(t, script)
			cleanEnv(t)
			t.Setenv("LESSONGEN_BASE_URL", srv.URL())
			t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
			inExampleTree(t, repo)
			code, stdout, stderr := runLessongen(t, "generate", exampleDir+"/lesson.yaml", "-o", "out/lesson.yaml", "--concurrency", "1")
			vcode, vout, verr := runLessongen(t, "validate", "--strict", "out/lesson.yaml")
			if code == 0 && vcode != 0 {
				t.Fatalf("generate exited 0 but validate --strict exits %d:\n%s%s", vcode, vout, verr)
			}
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Fatalf("generate: exit %d, want %d naming %q\n%s%s", code, tt.wantCode, tt.wantErr, stdout, stderr)
			}
		})
	}
}
