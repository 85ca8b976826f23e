package bridge

import (
	"testing"

	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
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

// testRegistry is the registry lessongen runs with, read from the one list.
func testRegistry() *modality.Registry { return modalities.Must() }

// registered names every registered modality, so a test that covers "every
// catalog" covers one added later without an edit.
func registered(t testing.TB) []string {
	var names []string
	for _, d := range testBridge(t).Registry().All() {
		names = append(names, d.Name)
	}
	return names
}

func levelFor(t testing.TB, name string, part session.Level) modality.Level {
	d, ok := testBridge(t).Registry().Lookup(name)
	if !ok {
		t.Fatalf("no modality %s", name)
	}
	return d.Level(part)
}
