package bridge

import (
	"testing"

	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// testBridge is the bridge over the modalities lessongen registers.
func testBridge(t testing.TB) *Bridge {
	t.Helper()
	b, err := New(testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testRegistry() *modality.Registry {
	reg, err := modality.New(lesson.Modality(), whiteboard.Modality(), quiz.Modality())
	if err != nil {
		panic(err)
	}
	return reg
}

func levelFor(t testing.TB, name string, part session.Level) modality.Level {
	d, ok := testBridge(t).Registry().Lookup(name)
	if !ok {
		t.Fatalf("no modality %s", name)
	}
	return d.Level(part)
}
