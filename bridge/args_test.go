package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
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

// countDecodes counts, until the test ends, how often decodeArgs decodes
// each text.
func countDecodes(t *testing.T) map[string]int {
	t.Helper()
	n := map[string]int{}
	decodeHook = func(text string) { n[text]++ }
	t.Cleanup(func() { decodeHook = nil })
	return n
}

// A call's arguments are decoded once on every path from the call to the
// change: the secret check, the schema check, the citation check, the
// approval preview with its diff, the rewrite question, the dispatch.
func TestCallDecodesArgumentsOnce(t *testing.T) {
	ctx := context.Background()
	diff := func(*session.Session, session.State) func() (string, error) {
		return func() (string, error) { return "a diff", nil }
	}
	asked := lessonToolset(t, ApproveAsk, &fakeAsker{answer: true})
	asked.Diff = diff
	rewrite, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", authoredBoard(t), Strict, ApproveAuto, &fakeAsker{answer: true})
	if err != nil {
		t.Fatal(err)
	}
	rewrite.Refine, rewrite.Rewrite, rewrite.Secrets, rewrite.Diff = true, true, redact.New(benchKey, ""), diff
	for _, tc := range []struct {
		name, tool, args string
		ts               *Toolset
		refused          string // in the error message; "" for a call that succeeds
	}{
		{"asked and applied", "set_vocabulary", vocabularyArgs(3, 100), asked, ""},
		{"the author's content, asked and rewritten", "move_element", `{"id":"title","x":600,"y":130}`, rewrite, ""},
		{"read-only", "list_pending", `{}`, asked, ""},
		{"local", "note_for_author", `{"text":"the vocabulary is pitched at year 7"}`, asked, ""},
		{"cites with no sources", "set_objectives", `{"objectives":[{"text":"Explain light","sources":["ch1.md:1"]}]}`, asked, "nothing to cite"},
		{"a secret", "set_title", `{"title":"\u0073k-live-0123456789abcdefWXYZ"}`, asked, "hold a secret"},
		{"schema refusal", "set_vocabulary", `{"terms":[]}`, asked, "terms has 0 items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := countDecodes(t)
			env, err := tc.ts.Call(ctx, tc.tool, tc.args)
			if err != nil || env.OK != (tc.refused == "") || !env.OK && !strings.Contains(env.Error.Message, tc.refused) {
				t.Fatalf("env %+v, err %v", env, err)
			}
			if n[tc.args] != 1 {
				t.Errorf("the arguments were decoded %d times", n[tc.args])
			}
		})
	}
	for _, a := range []*fakeAsker{asked.Asker.(*fakeAsker), rewrite.Asker.(*fakeAsker)} {
		if len(a.asked) != 1 || a.asked[0].Diff != "a diff" {
			t.Errorf("the approval path was not taken: %+v", a.asked)
		}
	}
}

// The citation check reads the decoded arguments, not their text: a key
// spelt with an escape, or a stray brace after the object, is still a
// citation in a run with no sources.
func TestCitingSeesTheDecodedArguments(t *testing.T) {
	for _, args := range []string{
		`{"objectives":[{"text":"Explain light","sour\u0063es":["ch1.md:1"]}]}`,
		`{"objectives":[{"text":"Explain light","sources":["ch1.md:1"]}]}}`,
	} {
		ts, _ := sourcesToolset(t, false)
		env, err := ts.Call(context.Background(), "set_objectives", args)
		if err != nil {
			t.Fatal(err)
		}
		if env.OK || env.Error.Path != "sources" {
			t.Errorf("%s: %+v", args, env)
		}
	}
}

// What the walk over the tokens accepts is what encoding/json's Decode
// accepts, up to its nesting limit, and a refusal says what Decode says.
func TestArgumentsDecodeAsEncodingJSON(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	deepObj := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	for _, text := range []string{
		`{"x": 10,`, `{"x" 10}`, `{"x":1,}`, `[1,]`, `{"x":1]`, `{1:2}`, `nul`, `{"x":"\q"}`, `"\ud800"`,
		`{"x":1e400}`, "{\"x\":\"\xff\"}", `{}}`, `{} {}`, `{"x":[1,{"y":{}}]}`,
		deep(maxDepth), deep(maxDepth + 1), deepObj(maxDepth), deepObj(maxDepth + 1),
	} {
		var want any
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		wantErr := dec.Decode(&want)
		a := decodeArgs(text)
		if (a.err != nil) != (wantErr != nil) {
			t.Errorf("%.40s: decodeArgs %v, Decode %v", text, a.err, wantErr)
			continue
		}
		if wantErr != nil {
			if got := a.syntaxErr(); got.Error() != wantErr.Error() {
				t.Errorf("%.40s: says %v, Decode %v", text, got, wantErr)
			}
			continue
		}
		if !reflect.DeepEqual(a.value, want) || a.more != dec.More() {
			t.Errorf("%.40s: got %v (more %v), want %v", text, a.value, a.more, want)
		}
	}
}

// Hostile arguments: the size limit is exact, a secret behind an escape
// is found even in the largest call, and of a key given twice the first
// is reported, by path, whatever follows.
func TestHostileArguments(t *testing.T) {
	c, _ := testBridge(t).Catalog("whiteboard")
	heading := func(n int, tail string) string {
		return `{"heading":"` + strings.Repeat("a", n-len(`{"heading":""}`)-len(tail)) + tail + `"}`
	}
	if _, ce := c.Parse("set_heading", heading(tool.MaxArgsBytes, "")); ce != nil {
		t.Errorf("arguments of the largest size refused: %v", ce)
	}
	if _, ce := c.Parse("set_heading", heading(tool.MaxArgsBytes+1, "")); ce == nil || !strings.Contains(ce.Message, "the most a call may send") {
		t.Errorf("arguments one byte too large: %v", ce)
	}
	ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", newBoard(t), Strict, ApproveAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.Secrets = redact.New(benchKey, "")
	for _, size := range []int{tool.MaxArgsBytes, tool.MaxArgsBytes + 1} {
		env, _ := ts.Call(context.Background(), "set_heading", heading(size, `\u0073k-live-0123456789abcdefWXYZ`))
		if env.OK || env.Error.Kind != session.KindPermission {
			t.Errorf("%d bytes with an escaped key: %+v", size, env.Error)
		}
	}
	for args, want := range map[string]string{
		`{"heading":"a","style":{"b":1,"b":2},"heading":"c"}`: "style.b",
		`{"heading":"a","heading":"b","x":{"y":1,"y":2}}`:     "heading",
		`{"":{"b":1,"b":2}}`:                    "b",
		`{"heading":"a","heading":"b"} {}`:      "heading",
		`{"heading":"a","x":[{"y":1},{"y":1}]}`: "",
	} {
		got, dup := duplicateKey(args)
		if got != want || dup != (want != "") {
			t.Errorf("%s: %q %v, want %q", args, got, dup, want)
		}
	}
}

// A change refused for whose it is says so first, before the citations it
// carries are refused for a run without sources: that is the real reason,
// and dropping the citations would not help.
func TestOwnershipBeforeCitations(t *testing.T) {
	ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", authoredBoard(t), Strict, ApproveAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.Refine = true
	env, err := ts.Call(context.Background(), "update_element", `{"id":"title","text":"Light","sources":["ch1.md:1"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if env.OK || env.Error.Kind != session.KindPrecondition || strings.Contains(env.Error.Message, "nothing to cite") {
		t.Errorf("got %+v, want the author's element named first", env.Error)
	}
}
