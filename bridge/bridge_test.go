package bridge

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/clip"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
	"github.com/lessongen/lessongen/whiteboard"
)

var update = flag.Bool("update", false, "rewrite golden files")

// catalogJSON is every level's tools in both forms, as models see them.
// catalogJSON is what the models of one modality's levels see, per form:
// its golden is testdata/catalog/<modality>.golden.json, so a new modality
// adds its own file and leaves the others untouched.
func catalogJSON(t *testing.T, modality string) []byte {
	t.Helper()
	out := map[string]map[string][]tool.Def{}
	for _, form := range []struct {
		name string
		f    Form
	}{{"strict", Strict}, {"compatible", Compatible}} {
		out[form.name] = map[string][]tool.Def{}
		for _, l := range testBridge(t).Levels() {
			if l.Modality != modality {
				continue
			}
			c, err := testBridge(t).Catalog(l.Modality)
			if err != nil {
				t.Fatal(err)
			}
			out[form.name][l.Name] = c.Tools(l, form.f)
		}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// TestCatalogGolden makes every change to what models see show up in
// review: one golden per registered modality.
func TestCatalogGolden(t *testing.T) {
	for _, d := range testRegistry().All() {
		t.Run(d.Name, func(t *testing.T) {
			got := catalogJSON(t, d.Name)
			golden := filepath.Join("testdata", "catalog", d.Name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./bridge -run TestCatalogGolden -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("the tool catalog changed; review the diff and run go test ./bridge -run TestCatalogGolden -update\n%s", firstDiff(string(want), string(got)))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(al), len(bl))
}

func allTools(t *testing.T, form Form) []tool.Def {
	t.Helper()
	var tools []tool.Def
	for _, m := range registered(t) {
		c, err := testBridge(t).Catalog(m)
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, c.All(form)...)
	}
	return tools
}

func TestSchemasAreValidJSONSchema(t *testing.T) {
	for _, form := range []Form{Strict, Compatible} {
		for _, tool := range allTools(t, form) {
			var s jsonschema.Schema
			if err := json.Unmarshal(tool.Parameters, &s); err != nil {
				t.Errorf("%s: parameters do not decode as a schema: %v", tool.Name, err)
				continue
			}
			if _, err := s.Resolve(nil); err != nil {
				t.Errorf("%s: schema does not resolve: %v", tool.Name, err)
			}
			if s.Type != "object" {
				t.Errorf("%s: parameters must be an object schema, got %q", tool.Name, s.Type)
			}
			// OpenAI rejects an object schema without "properties".
			var raw map[string]any
			json.Unmarshal(tool.Parameters, &raw)
			if _, ok := raw["properties"]; !ok {
				t.Errorf("%s: parameters have no \"properties\": %s", tool.Name, tool.Parameters)
			}
		}
	}
}

// strictForbidden are keywords OpenAI's strict mode rejects (or did, for
// most of its life); the strict form must not use them.
var strictForbidden = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
	"minProperties", "maxProperties", "default", "patternProperties", "if", "then", "else", "allOf", "not", "oneOf"}

func TestStrictFormObeysStrictRules(t *testing.T) {
	for _, tool := range allTools(t, Strict) {
		if !tool.Strict {
			t.Errorf("%s: strict flag not set", tool.Name)
		}
		var root map[string]any
		if err := json.Unmarshal(tool.Parameters, &root); err != nil {
			t.Fatal(err)
		}
		checkStrict(t, tool.Name, "", root)
	}
}

func checkStrict(t *testing.T, tool, path string, s map[string]any) {
	t.Helper()
	for _, k := range strictForbidden {
		if _, ok := s[k]; ok {
			t.Errorf("%s %s: strict schema uses %q", tool, path, k)
		}
	}
	if s["type"] == "object" || (s["type"] != nil && fmt.Sprint(s["type"]) == "[object null]") {
		if _, ok := s["properties"]; !ok {
			t.Errorf("%s %s: object schema without properties", tool, path)
		}
		if _, ok := s["required"]; !ok {
			t.Errorf("%s %s: object schema without required", tool, path)
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if s["additionalProperties"] != false {
			t.Errorf("%s %s: object without additionalProperties: false", tool, path)
		}
		var required []string
		for _, r := range s["required"].([]any) {
			required = append(required, r.(string))
		}
		for name, p := range props {
			if !slices.Contains(required, name) {
				t.Errorf("%s %s: property %q not required", tool, path, name)
			}
			checkStrict(t, tool, path+"."+name, p.(map[string]any))
		}
		if len(required) != len(props) {
			t.Errorf("%s %s: required lists %d names for %d properties", tool, path, len(required), len(props))
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		checkStrict(t, tool, path+"[]", items)
	}
}

func TestHiddenIntentsAreNotTools(t *testing.T) {
	names := map[string]bool{}
	for _, tool := range allTools(t, Strict) {
		names[tool.Name] = true
	}
	for _, hidden := range []string{"undo", "redo", "select_elements", "close_placeholders", "set_slide_props"} {
		if names[hidden] {
			t.Errorf("hidden intent %s is offered as a tool", hidden)
		}
	}
	for _, visible := range []string{"add_text", "add_slide", "describe_whiteboard", "list_pending", "set_objectives"} {
		if !names[visible] {
			t.Errorf("visible intent %s is missing", visible)
		}
	}
}

func TestEveryLevelHasReadOnlyTools(t *testing.T) {
	for _, l := range testBridge(t).Levels() {
		c, _ := testBridge(t).Catalog(l.Modality)
		var read []string
		for _, tool := range c.Tools(l, Strict) {
			if spec, _ := c.Spec(tool.Name); spec.ReadOnly {
				read = append(read, tool.Name)
			}
		}
		if !slices.Contains(read, "list_pending") || len(read) < 2 {
			t.Errorf("%s: read-only tools %v, want a describe tool and list_pending", l.Name, read)
		}
	}
}

// sample fills every field of an intent with a valid, non-zero value.
func sample(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	fill(v, reflect.StructField{})
	return v
}

func fill(v reflect.Value, f reflect.StructField) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			// A field no call carries (json:"-") stays zero.
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				fill(v.Field(i), v.Type().Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), f)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), reflect.StructField{})
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("heading"), reflect.ValueOf("{{ .slide.title }}"))
	case reflect.String:
		if enum, ok := f.Tag.Lookup("enum"); ok {
			v.SetString(strings.Split(enum, ",")[0])
		} else if _, ok := v.Interface().(patterned); ok {
			v.SetString("#1b5e20") // the one patterned type is a colour
		} else {
			v.SetString("some " + f.Name)
		}
	case reflect.Int, reflect.Int64:
		n := int64(7)
		if m, ok := f.Tag.Lookup("minimum"); ok {
			fmt.Sscan(m, &n)
			n += 3
		}
		v.SetInt(n)
	case reflect.Float64:
		v.SetFloat(42.5)
	case reflect.Bool:
		v.SetBool(true)
	}
}

func TestEveryVisibleIntentRoundTrips(t *testing.T) {
	for _, d := range testBridge(t).Registry().All() {
		c, _ := testBridge(t).Catalog(d.Name)
		for _, in := range d.Intents {
			if in.Spec().Hidden {
				continue
			}
			want := sample(reflect.TypeOf(in)).Interface().(session.Intent)
			if s, ok := want.(lesson.AddSlide); ok {
				// A brief per child kind that takes one, as the registry says.
				s.Briefs = map[string]string{}
				for _, k := range testBridge(t).Registry().Children() {
					if k.Brief != "" {
						s.Briefs[k.Name] = "a brief for the " + k.Name
					}
				}
				want = s
			}
			name, args, err := Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			got, ce := c.Parse(name, string(args))
			if ce != nil {
				t.Errorf("%s: %s does not parse back: %v", name, args, ce)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: round trip\n got %#v\nwant %#v", name, got, want)
			}
		}
	}
}

// Strict mode sends every optional field, as null when not used.
func TestStrictNullsMeanAbsent(t *testing.T) {
	c, _ := testBridge(t).Catalog("whiteboard")
	got, ce := c.Parse("add_text", `{"x":10,"y":20,"w":300,"h":40,"text":"Hi","style":null,"pending_id":null}`)
	if ce != nil {
		t.Fatal(ce)
	}
	want := whiteboard.AddText{Box: whiteboard.Box{X: 10, Y: 20, W: 300, H: 40}, Text: "Hi"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
	if _, ce := c.Parse("add_text", `{"x":10,"y":20,"w":300,"h":40,"text":null}`); ce == nil || ce.Path != "text" {
		t.Errorf("a required field sent as null must be refused at its path, got %v", ce)
	}
}

func TestWholeNumbersInAnySpelling(t *testing.T) {
	c, _ := testBridge(t).Catalog("lesson")
	for _, args := range []string{`{"minutes":45}`, `{"minutes":45.0}`, `{"minutes":4.5e1}`} {
		in, ce := c.Parse("set_duration", args)
		if ce != nil || in != (lesson.SetDuration{Minutes: 45}) {
			t.Errorf("%s: %v %v", args, in, ce)
		}
	}
}

func TestBadCalls(t *testing.T) {
	c, _ := testBridge(t).Catalog("whiteboard")
	ok := `"x":10,"y":20,"w":300,"h":40`
	for _, tc := range []struct {
		name, tool, args string
		kind             session.ErrorKind
		path             string
		hint             string
	}{
		{"unknown tool", "add_txt", `{}`, session.KindNotFound, "", `did you mean "add_text"?`},
		{"malformed JSON", "add_text", `{"x": 10,`, session.KindInvalidArgs, "", "send one JSON object"},
		{"trailing garbage", "add_text", `{` + ok + `,"text":"a"} {}`, session.KindInvalidArgs, "", "exactly one"},
		{"empty arguments", "add_text", ``, session.KindInvalidArgs, "", "x, y, w, h, text"},
		{"not an object", "add_text", `"hello"`, session.KindInvalidArgs, "", ""},
		{"missing field", "add_text", `{` + ok + `}`, session.KindInvalidArgs, "text", "the words shown"},
		{"extra field", "add_text", `{` + ok + `,"text":"a","colour":"red"}`, session.KindInvalidArgs, "colour", "parameters x, y"},
		{"misspelt field", "add_text", `{` + ok + `,"txt":"a"}`, session.KindInvalidArgs, "text", ""},
		{"wrong type", "add_text", `{"x":"ten","y":20,"w":300,"h":40,"text":"a"}`, session.KindInvalidArgs, "x", "left edge"},
		{"out of range", "add_text", `{"x":-5,"y":20,"w":300,"h":40,"text":"a"}`, session.KindInvalidArgs, "x", "between 0 and 10000"},
		{"bad enum", "add_shape", `{` + ok + `,"shape":"star"}`, session.KindInvalidArgs, "shape", "rect, ellipse, line"},
		{"nested wrong type", "add_text", `{` + ok + `,"text":"a","style":{"bold":"yes"}}`, session.KindInvalidArgs, "style.bold", "true or false"},
		{"fraction for integer", "set_canvas", `{"width":1280.5,"height":720}`, session.KindInvalidArgs, "width", "whole number"},
		{"duplicate key", "add_text", `{"x":1,"x":2,"y":20,"w":300,"h":40,"text":"a"}`, session.KindInvalidArgs, "x", "once"},
		{"duplicate nested key", "add_text", `{` + ok + `,"text":"a","style":{"bold":true,"bold":false}}`, session.KindInvalidArgs, "style.bold", "once"},
		{"arguments too large", "add_text", `{` + ok + `,"text":"` + strings.Repeat("a", tool.MaxArgsBytes) + `"}`, session.KindInvalidArgs, "", "send shorter values"},
		{"same key in another case", "add_text", `{` + ok + `,"text":"a","Text":"b"}`, session.KindInvalidArgs, "Text", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ce := c.Parse(tc.tool, tc.args)
			if ce == nil {
				t.Fatalf("accepted %s", tc.args)
			}
			if ce.Kind != tc.kind || ce.Path != tc.path || !strings.Contains(ce.Hint, tc.hint) {
				t.Errorf("got %+v; want kind %s path %q hint containing %q", ce, tc.kind, tc.path, tc.hint)
			}
		})
	}
}

func TestDuplicateKeyPaths(t *testing.T) {
	for raw, want := range map[string]string{
		`{"a":1,"b":{"c":[1,{"d":1,"d":2}]}}`: "b.c[1].d",
		`{"a":{"x":1},"b":{"x":1},"a":2}`:     "a",
		`{"a":[{"x":1},{"x":1}],"b":"a"}`:     "",
		`{"a":"{\"x\":1,\"x\":2}"}`:           "",
	} {
		got, dup := duplicateKey(raw)
		if got != want || dup != (want != "") {
			t.Errorf("%s: got %q %v, want %q", raw, got, dup, want)
		}
	}
	c, _ := testBridge(t).Catalog("lesson")
	_, ce := c.Parse("set_vocabulary", `{"terms":[{"term":"a","definition":"b"},{"term":"c","definition":"d","term":"e"}]}`)
	if ce == nil || ce.Path != "terms[1].term" || !strings.Contains(ce.Message, "terms[1].term is given more than once") {
		t.Errorf("got %+v", ce)
	}
}

// newBoard returns a whiteboard session with one authored text element.
func newBoard(t *testing.T) *session.Session {
	t.Helper()
	b := whiteboard.Todo("a diagram")
	return session.New("board", b)
}

func TestCallReachesReduceErrors(t *testing.T) {
	ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), Strict, ApproveAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	env, err := ts.Call(ctx, "add_text", `{"x":5000,"y":20,"w":300,"h":40,"text":"far"}`)
	if err != nil {
		t.Fatal(err)
	}
	if env.OK || env.Error.Kind != session.KindInvalidArgs || env.Error.Path != "x" || !strings.Contains(env.Error.Hint, "the canvas is 1280 wide") {
		t.Errorf("got %+v", env.Error)
	}
	env, _ = ts.Call(ctx, "add_arrow", `{"from":"a","to":"b"}`)
	if env.Error == nil || env.Error.Kind != session.KindNotFound || env.Error.Path != "from" {
		t.Errorf("arrow to nothing: %+v", env.Error)
	}
	env, _ = ts.Call(ctx, "add_text", `{"x":10,"y":20,"w":300,"h":40,"text":"Hi"}`)
	if !env.OK || len(env.Result) != 1 {
		t.Fatalf("got %+v", env)
	}
	data, _ := json.Marshal(env)
	if !strings.Contains(string(data), `"added":"text1"`) || !strings.Contains(string(data), `"placed_at":"p1"`) {
		t.Errorf("envelope should say what was committed: %s", data)
	}
}

func TestPolicyRefusesToolsOutsideLevel(t *testing.T) {
	sess := newBoard(t)
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", sess, Strict, ApproveAuto, nil)
	for _, tool := range ts.Tools() {
		if tool.Name == "add_text" {
			t.Fatal("the metadata level is offered add_text")
		}
	}
	v := sess.Version()
	env, err := ts.Call(context.Background(), "add_text", `{"x":10,"y":20,"w":300,"h":40,"text":"Hi"}`)
	if err != nil {
		t.Fatal(err)
	}
	if env.Error == nil || env.Error.Kind != session.KindPermission {
		t.Errorf("got %+v", env)
	}
	env, _ = ts.Call(context.Background(), "select_elements", `{"ids":[]}`)
	if env.Error == nil || env.Error.Kind != session.KindPermission {
		t.Errorf("hidden intent callable: %+v", env)
	}
	if sess.Version() != v {
		t.Error("a refused call changed the session")
	}
}

func TestDenyCommitsNothing(t *testing.T) {
	sess := newBoard(t)
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", sess, Strict, ApproveDeny, nil)
	env, err := ts.Call(context.Background(), "set_heading", `{"heading":"Leaves"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !env.OK || !env.DryRun {
		t.Errorf("got %+v", env)
	}
	if sess.Version() != 0 {
		t.Error("deny committed a change")
	}
	sess.View(func(st session.State) {
		if st.(*whiteboard.Board).Heading.Set {
			t.Error("heading set in deny mode")
		}
	})
}

type fakeAsker struct {
	answer bool
	err    error
	asked  []Proposal
}

func (a *fakeAsker) Ask(_ context.Context, p Proposal) (bool, error) {
	a.asked = append(a.asked, p)
	return a.answer, a.err
}

func TestAskGate(t *testing.T) {
	if _, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), Strict, ApproveAsk, nil); err != ErrNoTerminal {
		t.Errorf("ask without a terminal: %v", err)
	}
	for _, answer := range []bool{false, true} {
		sess := newBoard(t)
		asker := &fakeAsker{answer: answer}
		ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", sess, Strict, ApproveAsk, asker)
		env, err := ts.Call(context.Background(), "set_heading", `{"heading":"Leaves"}`)
		if err != nil {
			t.Fatal(err)
		}
		if len(asker.asked) != 1 || len(asker.asked[0].Preview.Outputs) == 0 {
			t.Fatalf("the asker should see a preview: %+v", asker.asked)
		}
		if committed := sess.Version() == 1; committed != answer || env.OK != answer {
			t.Errorf("answer %v: committed %v, env %+v", answer, committed, env)
		}
		if !answer && env.Error.Kind != session.KindPermission {
			t.Errorf("a declined change should be a permission error: %+v", env.Error)
		}
	}
	asker := &fakeAsker{err: ErrNoTerminal}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", newBoard(t), Strict, ApproveAsk, asker)
	env, _ := ts.Call(context.Background(), "set_heading", `{"heading":"Leaves"}`)
	if env.Error == nil || env.Error.Kind != session.KindPermission {
		t.Errorf("ask with nobody to ask must refuse: %+v", env)
	}
}

// The file diff is taken from the state as the change leaves it, and
// rendered after the session is unlocked and the change reversed.
func TestAskGateDiff(t *testing.T) {
	sess := newBoard(t)
	asker := &fakeAsker{answer: false}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", sess, Strict, ApproveAsk, asker)
	ts.Diff = func(s *session.Session, st session.State) func() (string, error) {
		during := st.Describe()
		return func() (string, error) {
			var after string
			s.View(func(st session.State) { after = st.Describe() }) // would block under the lock
			return "during: " + during + "\nafter: " + after, nil
		}
	}
	if _, err := ts.Call(context.Background(), "set_heading", `{"heading":"Leaves"}`); err != nil {
		t.Fatal(err)
	}
	if len(asker.asked) != 1 {
		t.Fatalf("asked %d times", len(asker.asked))
	}
	during, after, _ := strings.Cut(asker.asked[0].Diff, "\nafter: ")
	if !strings.Contains(during, "Leaves") || strings.Contains(after, "Leaves") {
		t.Errorf("diff saw %q", asker.asked[0].Diff)
	}
}

func TestReadOnlyToolsNeedNoApproval(t *testing.T) {
	asker := &fakeAsker{answer: false}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), Strict, ApproveAsk, asker)
	env, err := ts.Call(context.Background(), "list_pending", "")
	if err != nil || !env.OK || len(asker.asked) != 0 {
		t.Errorf("env %+v err %v asked %d", env, err, len(asker.asked))
	}
	if len(env.Pending) != 1 || env.Pending[0].ID != "p1" {
		t.Errorf("pending: %+v", env.Pending)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("add_text", `{"x":10,"y":20,"w":300,"h":40,"text":"Hi"}`)
	f.Add("add_slide", `{"title":"T","section":"Explore","duration_minutes":5,"notes":"n","whiteboard":"w","pending_id":null,"position":null}`)
	f.Add("set_vocabulary", `{"terms":[{"term":"a","definition":"b"}]}`)
	f.Add("update_element", `{"id":"x","style":{"align":"left"}}`)
	f.Add("nope", `[`)
	f.Add("add_text", `{"x":1,"x":2,"y":20,"w":300,"h":40,"text":"Hi"}`)
	f.Add("set_vocabulary", `{"terms":[{"term":"a","definition":"b","term":"c"}]}`)
	f.Fuzz(func(t *testing.T, name, args string) {
		for _, m := range registered(t) {
			c, _ := testBridge(t).Catalog(m)
			in, ce := c.Parse(name, args)
			if (in == nil) == (ce == nil) {
				t.Fatalf("Parse must return exactly one of intent or error: %v %v", in, ce)
			}
			if ce != nil && (ce.Kind == "" || ce.Message == "") {
				t.Fatalf("error without kind or message: %+v", ce)
			}
			if in != nil {
				// What parsed must encode and parse back to the same intent.
				n, a, err := Encode(in)
				if err != nil || n != name {
					t.Fatalf("encode: %v %s", err, n)
				}
				again, ce := c.Parse(n, string(a))
				if ce != nil || !reflect.DeepEqual(again, in) {
					t.Fatalf("re-parse of %s: %v", a, ce)
				}
			}
		}
	})
}

// A focused toolset (fill --slide) offers only read-only tools and those
// that change one item, and lets them change only that item.
func TestFocusedToolset(t *testing.T) {
	doc, err := compose.Load("../examples/photosynthesis/lesson.yaml", testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "lesson", session.LevelNode), "lesson", doc.Session(), Strict, ApproveDeny, nil)
	ts.Focus = "light"
	var names []string
	for _, tool := range ts.Tools() {
		names = append(names, tool.Name)
	}
	if want := "update_slide move_slide remove_slide describe_lesson list_pending note_for_author ask_author"; strings.Join(names, " ") != want {
		t.Errorf("focused tools %v, want %s", names, want)
	}
	if p := ts.Pending(); len(p) != 1 || p[0].Path != "slides[light].notes" {
		t.Errorf("focused pending %+v", p)
	}
	ctx := context.Background()
	for _, call := range []struct{ name, args string }{
		{"update_slide", `{"id":"hook","notes":"x"}`},
		{"add_slide", `{"title":"T","section":"S","duration_minutes":3,"notes":"n","whiteboard":"w"}`},
	} {
		env, err := ts.Call(ctx, call.name, call.args)
		if err != nil || env.Error == nil || env.Error.Kind != session.KindPermission {
			t.Errorf("%s outside the focus: %+v %v", call.name, env, err)
		}
	}
	env, err := ts.Call(ctx, "update_slide", `{"id":"light","notes":"Light splits water."}`)
	if err != nil || !env.OK {
		t.Errorf("update of the focused slide: %+v %v", env, err)
	}
}

// A subagent may add at most its level's MaxNew items; further adds get a
// limit envelope and change nothing, while other changes still work.
func TestNewItemsPerSubagentAreCapped(t *testing.T) {
	level := levelFor(t, "whiteboard", session.LevelNode)
	if level.MaxNew != whiteboard.MaxNewElements || level.NewItems != "elements" {
		t.Fatalf("level %+v", level)
	}
	sess := newBoard(t)
	ts, _ := testBridge(t).NewToolset(level, "board", sess, Strict, ApproveAuto, nil)
	ctx := context.Background()
	add := func(i int) tool.Envelope {
		t.Helper()
		env, err := ts.Call(ctx, "add_text", fmt.Sprintf(`{"x":%d,"y":%d,"w":10,"h":10,"text":"t","style":null,"pending_id":null}`, i%100*12, i/100*12))
		if err != nil {
			t.Fatal(err)
		}
		return env
	}
	// A refused add does not count.
	if env, _ := ts.Call(ctx, "add_text", `{"x":-1,"y":0,"w":10,"h":10,"text":"t","style":null,"pending_id":null}`); env.OK {
		t.Fatal("bad add accepted")
	}
	for i := range level.MaxNew {
		if env := add(i); !env.OK {
			t.Fatalf("add %d refused: %+v", i, env.Error)
		}
	}
	v := sess.Version()
	env := add(level.MaxNew)
	if env.OK || env.Error.Kind != session.KindLimit || env.Error.Message != "not run: this subagent has added 60 elements, the most one may add" {
		t.Fatalf("add past the cap: %+v", env.Error)
	}
	if sess.Version() != v {
		t.Error("a capped add changed the board")
	}
	if env, _ := ts.Call(ctx, "move_element", `{"id":"text1","x":500,"y":500}`); !env.OK {
		t.Errorf("a move after the cap: %+v", env.Error)
	}
	// The next subagent on the same node starts counting afresh.
	again, _ := testBridge(t).NewToolset(level, "board", sess, Strict, ApproveAuto, nil)
	ts = again
	if env := add(level.MaxNew + 1); !env.OK {
		t.Errorf("a new subagent is capped by the old one's adds: %+v", env.Error)
	}
	lessonNode := levelFor(t, "lesson", session.LevelNode)
	if lessonNode.MaxNew != lesson.MaxNewSlides || lessonNode.NewItems != "slides" {
		t.Errorf("lesson level %+v", lessonNode)
	}
}

// Arguments past tool.MaxArgsBytes are refused whole; a long value under it is
// committed but echoed back clipped; a huge author hint is clipped in the
// pending list.
func TestLongValues(t *testing.T) {
	c, _ := testBridge(t).Catalog("lesson")
	_, ce := c.Parse("set_title", `{"title":"`+strings.Repeat("x", 50_000_000)+`"}`)
	if ce == nil || ce.Kind != session.KindInvalidArgs || ce.Message != "the arguments are 50.0 MB; the most a call may send is 64.0 KB" {
		t.Fatalf("got %+v", ce)
	}
	d, err := compose.Load(writeLessonFile(t, "version: 1\nmetadata:\n  title:\nslides: !pending \""+strings.Repeat("h", 100_000)+"\"\n"), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "lesson", session.LevelMetadata), "lesson", d.Session(), Strict, ApproveAuto, nil)
	long := strings.Repeat("y", 20_000)
	env, err := ts.Call(context.Background(), "set_title", `{"title":"`+long+`"}`)
	if err != nil || !env.OK {
		t.Fatalf("%+v %v", env, err)
	}
	data, _ := json.Marshal(env)
	if len(data) > 2*clip.MaxValue || !strings.Contains(string(data), "… [truncated, 20.0 KB]") {
		t.Errorf("echo not clipped: %d bytes", len(data))
	}
	d.View(func(p *lesson.Plan) {
		if v, _ := p.Metadata.Title.Get(); v != long {
			t.Error("the value itself was clipped")
		}
	})
	node := PendingAt(d.Session(), levelFor(t, "lesson", session.LevelNode), "")
	if len(node) != 1 || !strings.HasSuffix(node[0].Hint, "… [truncated, 100.0 KB]") {
		t.Errorf("pending %+v", node)
	}
}

func writeLessonFile(t *testing.T, src string) string {
	t.Helper()
	path := t.TempDir() + "/lesson.yaml"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A tool result lists the first MaxPendingShown pending items and counts the
// rest; list_pending lists them all.
func TestEnvelopeListsSomePending(t *testing.T) {
	var src strings.Builder
	src.WriteString("version: 1\nmetadata:\n  title: T\nslides:\n")
	for i := range MaxPendingShown + 5 {
		fmt.Fprintf(&src, "  - id: s%d\n    title: S\n    notes:\n    whiteboard: {heading: H, elements: []}\n", i)
	}
	d, err := compose.Load(writeLessonFile(t, src.String()), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "lesson", session.LevelNode), "lesson", d.Session(), Strict, ApproveAuto, nil)
	env, _ := ts.Call(context.Background(), "list_pending", "")
	if len(env.Pending) != MaxPendingShown || env.PendingMore != 5 {
		t.Errorf("envelope lists %d pending, %d more", len(env.Pending), env.PendingMore)
	}
	if all, _ := env.Result[0].([]session.Pending); len(all) != MaxPendingShown+5 {
		t.Errorf("list_pending returned %d items", len(all))
	}
	env, _ = ts.Call(context.Background(), "update_slide", `{"id":"s0","notes":"n","title":null,"section":null,"duration_minutes":null}`)
	if !env.OK || len(env.Pending) != MaxPendingShown || env.PendingMore != 4 {
		t.Errorf("after filling one: ok %v, %d listed, %d more (%+v)", env.OK, len(env.Pending), env.PendingMore, env.Error)
	}
}

// The envelope carries the warnings a call caused and counts the others.
func TestEnvelopeWarningsElsewhere(t *testing.T) {
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), Strict, ApproveAuto, nil)
	ctx := context.Background()
	ts.Call(ctx, "add_text", `{"x":0,"y":200,"w":100,"h":40,"text":"a","style":null,"pending_id":null}`)
	env, _ := ts.Call(ctx, "add_text", `{"x":50,"y":220,"w":100,"h":40,"text":"b","style":null,"pending_id":null}`)
	if len(env.Warnings) != 1 || env.WarningsElsewhere != 0 {
		t.Errorf("overlapping add: %+v, %d elsewhere", env.Warnings, env.WarningsElsewhere)
	}
	env, _ = ts.Call(ctx, "add_text", `{"x":500,"y":500,"w":100,"h":40,"text":"c","style":null,"pending_id":null}`)
	data, _ := json.Marshal(env)
	if len(env.Warnings) != 0 || !strings.Contains(string(data), `"warnings_elsewhere":1`) {
		t.Errorf("far add: %s", data)
	}
}

// A whiteboard's tools are bounded by its canvas: min/max in the compatible
// form, the numbers in the description in the strict one.
func TestToolSchemasBoundedByCanvas(t *testing.T) {
	b := whiteboard.Todo("a diagram")
	b.Canvas.Set, b.Canvas.Value = true, whiteboard.Canvas{Width: 800, Height: 600}
	sess := session.New("board", b)
	find := func(form Form, name string) map[string]any {
		ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", sess, form, ApproveAuto, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ts.Tools() {
			if d.Name == name {
				var s struct {
					Properties map[string]any `json:"properties"`
				}
				if err := json.Unmarshal(d.Parameters, &s); err != nil {
					t.Fatal(err)
				}
				return s.Properties
			}
		}
		t.Fatalf("no tool %s", name)
		return nil
	}
	props := find(Compatible, "add_text")
	for name, want := range map[string][2]float64{"x": {0, 800}, "y": {0, 600}, "w": {1, 800}, "h": {1, 600}} {
		p := props[name].(map[string]any)
		if p["minimum"] != want[0] || p["maximum"] != want[1] {
			t.Errorf("compatible %s: min %v max %v, want %v", name, p["minimum"], p["maximum"], want)
		}
	}
	props = find(Strict, "add_text")
	if d := props["w"].(map[string]any)["description"].(string); !strings.Contains(d, "1 to 800") {
		t.Errorf("strict w description %q does not bound it by the canvas", d)
	}
	if _, has := props["w"].(map[string]any)["maximum"]; has {
		t.Error("strict form carries maximum")
	}
	// Tools without coordinates are unchanged; the catalog itself still
	// declares the general range.
	cat, _ := testBridge(t).Catalog("whiteboard")
	for _, d := range cat.Tools(levelFor(t, "whiteboard", session.LevelNode), Compatible) {
		if d.Name == "add_text" && !strings.Contains(string(d.Parameters), `"maximum":10000`) {
			t.Errorf("catalog add_text changed: %s", d.Parameters)
		}
	}
}

// Every subagent of a level with a node per slide is offered the same
// tools in the same order, whatever is pending at its node, so one cached
// prompt prefix serves them all; a setter for nothing that was pending is
// refused with the tools for what is left, and each pending item names
// only the setters that fill it.
func TestToolsSameForLevel(t *testing.T) {
	br := testBridge(t)
	level := levelFor(t, "whiteboard", session.LevelMetadata)
	open := func(board string) *Toolset {
		src := "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: " + board + "\n"
		doc, err := compose.Load(writeLessonFile(t, src), testRegistry())
		if err != nil {
			t.Fatal(err)
		}
		sess, err := doc.Child("a", "whiteboard")
		if err != nil {
			t.Fatal(err)
		}
		ts, err := br.NewToolset(level, "slides/a/whiteboard", sess, Strict, ApproveAuto, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	ts := open(`{heading: Light, layout: !pending "left to right", elements: !pending "a leaf"}`)
	var names []string
	for _, d := range ts.Tools() {
		names = append(names, d.Name)
	}
	// The read-only tools first, then every setter of the level.
	if got := strings.Join(names, " "); got != "describe_whiteboard list_pending note_for_author ask_author set_heading set_layout set_canvas set_background" {
		t.Errorf("tools %s: want the read-only ones, then every setter", got)
	}
	env, err := ts.Call(context.Background(), "set_heading", `{"heading":"Other"}`)
	if err != nil {
		t.Fatal(err)
	}
	if env.Error == nil || env.Error.Kind != session.KindPermission || env.Error.Hint != "tools for what is left: set_layout" {
		t.Errorf("set_heading: %+v", env.Error)
	}
	// Every result says, for each item left, which tools fill it.
	var left []string
	for _, p := range env.Pending {
		left = append(left, p.Path+"="+strings.Join(p.Tools, ","))
	}
	if got := strings.Join(left, " "); got != "layout=set_layout" {
		t.Errorf("pending with their tools: %s", got)
	}
	// Once the layout is set, nothing is left; set_layout may still
	// correct it, the other setters stay refused.
	if env, _ := ts.Call(context.Background(), "set_layout", `{"layout":"leaf left, labels right"}`); !env.OK {
		t.Fatalf("set_layout: %+v", env.Error)
	}
	env, _ = ts.Call(context.Background(), "set_background", `{"background":"#ffffff"}`)
	if env.Error == nil || env.Error.Hint != "nothing of that kind is pending" {
		t.Errorf("set_background after the layout: %+v", env.Error)
	}
	if env, _ := ts.Call(context.Background(), "set_layout", `{"layout":"leaf in the middle"}`); !env.OK {
		t.Errorf("set_layout again: %+v", env.Error)
	}
	// The list the model saw does not change mid-conversation, and a
	// subagent with other items pending gets the very same list.
	if len(ts.Tools()) != len(names) {
		t.Errorf("tools changed mid-conversation: %d", len(ts.Tools()))
	}
	if a, b := ts.Tools(), open(`!pending "a leaf"`).Tools(); !reflect.DeepEqual(a, b) {
		t.Error("two subagents of one level with different items pending got different tools")
	}
}

// The lesson's levels, which run once per lesson, are offered only the
// setters of what is pending: nothing would share a longer list's prefix.
func TestRootToolsTrimmedToPending(t *testing.T) {
	src := "version: 1\nmetadata:\n  title: Light\n  objectives: !pending \"two\"\n  vocabulary:\n    - term: chlorophyll\n      definition: !pending\nslides: []\n"
	doc, err := compose.Load(writeLessonFile(t, src), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	ts, err := testBridge(t).NewToolset(levelFor(t, "lesson", session.LevelMetadata), "lesson", doc.Session(), Strict, ApproveAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range ts.Tools() {
		names = append(names, d.Name)
	}
	if want := "describe_lesson list_pending note_for_author ask_author set_objectives define_term"; strings.Join(names, " ") != want {
		t.Errorf("tools %v, want %s", names, want)
	}
	env, _ := ts.Call(context.Background(), "set_title", `{"title":"Other"}`)
	if env.Error == nil || env.Error.Kind != session.KindPermission || env.Error.Hint != "tools for what is left: set_objectives, define_term" {
		t.Errorf("set_title: %+v", env.Error)
	}
}

// note_for_author is offered at every level, is read-only, records the
// note with its node and level, and changes nothing.
func TestNoteForAuthor(t *testing.T) {
	sess := newBoard(t)
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "slides/a/whiteboard", sess, Strict, ApproveAuto, nil)
	var got []tool.Note
	ts.Notes = func(n tool.Note) { got = append(got, n) }
	if !ts.ReadOnly(NoteTool) || !slices.ContainsFunc(ts.Tools(), func(d tool.Def) bool { return d.Name == NoteTool }) {
		t.Fatalf("note_for_author not offered as read-only: %v", ts.Tools())
	}
	v := sess.Version()
	env, err := ts.Call(context.Background(), NoteTool, `{"text":"The title asks why leaves are green; the board asks where mass comes from.","about":"heading"}`)
	if err != nil || !env.OK {
		t.Fatalf("%+v %v", env, err)
	}
	want := tool.Note{Node: "slides/a/whiteboard", Level: "whiteboard.node", About: "heading", Text: "The title asks why leaves are green; the board asks where mass comes from."}
	if len(got) != 1 || got[0] != want {
		t.Errorf("notes %+v, want %+v", got, want)
	}
	if sess.Version() != v {
		t.Error("a note changed the session")
	}
	for _, args := range []string{`{"text":"  ","about":null}`, `{"about":"x"}`, `{"text":"x","extra":1}`, `not json`} {
		if env, _ := ts.Call(context.Background(), NoteTool, args); env.OK || env.Error.Kind != session.KindInvalidArgs {
			t.Errorf("%s: %+v", args, env)
		}
	}
	if len(got) != 1 {
		t.Errorf("a refused note was recorded: %+v", got)
	}
}
