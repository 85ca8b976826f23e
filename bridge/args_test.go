package bridge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// benchKey is the run's API key in these tests: every call is scanned for it.
const benchKey = "sk-live-0123456789abcdefWXYZ"

// vocabularyArgs is a set_vocabulary call of n terms, each definition
// about size bytes.
func vocabularyArgs(n, size int) string {
	terms := make([]string, n)
	for i := range terms {
		def := strings.Repeat(fmt.Sprintf("word%d ", i), size/6)
		terms[i] = fmt.Sprintf(`{"term":"term %d","definition":%q,"sources":null}`, i, def)
	}
	return `{"terms":[` + strings.Join(terms, ",") + `],"pending_id":null}`
}

// lessonToolset is the lesson's metadata subagent over the photosynthesis
// example, offered every setter, with the run's secrets and no sources.
func lessonToolset(tb testing.TB, approval Approval, asker Asker) *Toolset {
	tb.Helper()
	doc, err := compose.Load("../examples/photosynthesis/lesson.yaml", testRegistry())
	if err != nil {
		tb.Fatal(err)
	}
	ts, err := testBridge(tb).NewToolset(levelFor(tb, "lesson", session.LevelMetadata), "lesson", doc.Session(), Strict, approval, asker)
	if err != nil {
		tb.Fatal(err)
	}
	ts.Refine = true
	ts.Secrets = redact.New(benchKey, "")
	return ts
}

// BenchmarkCall is one tool call from the arguments as sent to the change
// previewed (parse, checks, reduce and reverse), small and near the most
// a call may send.
func BenchmarkCall(b *testing.B) {
	board := func(b *testing.B) *Toolset {
		ts, err := testBridge(b).NewToolset(levelFor(b, "whiteboard", session.LevelMetadata), "board", session.New("board", whiteboard.Todo("a diagram")), Strict, ApproveDeny, nil)
		if err != nil {
			b.Fatal(err)
		}
		ts.Secrets = redact.New(benchKey, "")
		return ts
	}
	lesson := func(b *testing.B) *Toolset { return lessonToolset(b, ApproveDeny, nil) }
	for _, bc := range []struct {
		name, tool, args string
		toolset          func(*testing.B) *Toolset
	}{
		{"small", "set_heading", `{"heading":"Light and leaves"}`, board},
		{"vocabulary-20x2k", "set_vocabulary", vocabularyArgs(20, 2500), lesson},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ts := bc.toolset(b)
			b.SetBytes(int64(len(bc.args)))
			b.ReportAllocs()
			for b.Loop() {
				env, err := ts.Call(context.Background(), bc.tool, bc.args)
				if err != nil || !env.OK {
					b.Fatalf("%v %+v", err, env.Error)
				}
			}
		})
	}
}
