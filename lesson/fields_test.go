package lesson_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// romansSrc carries the fields real plans need, in block and flow style,
// with vocabulary in both shapes and definitions pending in both styles.
const romansSrc = `version: 1
metadata:
  title: Why did the Romans leave Britain?
  subject: history
  grade: KS1
  key_learning_points:
    - The Roman army left Britain around AD 410.
    - Towns and roads fell out of use.   # over many years
  misconceptions:
    - misconception: The Romans left all at once.
      response: Show the timeline; the army left over decades.
    - {misconception: Everyone left with them., response: Most Britons stayed.}
  materials: [timeline cards, a map of Roman Britain]
  vocabulary:
    - legion                      # listed, no definition wanted
    - {term: empire, definition: lands ruled by one emperor}
    - {term: villa, definition: !pending }
    - term: Hadrian's Wall
      definition: !pending "one sentence, for six-year-olds"
slides: []
`

func TestNewFieldsLoad(t *testing.T) {
	d := load(t, romansSrc)
	m := plan(d).Metadata
	if !reflect.DeepEqual(lesson.Texts(m.KeyLearningPoints.Value), []string{"The Roman army left Britain around AD 410.", "Towns and roads fell out of use."}) {
		t.Errorf("key learning points = %+v", m.KeyLearningPoints)
	}
	var got []string
	for _, c := range m.Misconceptions.Value {
		got = append(got, c.Misconception+" | "+c.Response)
	}
	if want := []string{
		"The Romans left all at once. | Show the timeline; the army left over decades.",
		"Everyone left with them. | Most Britons stayed.",
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("misconceptions = %+v", m.Misconceptions)
	}
	if !reflect.DeepEqual(lesson.Texts(m.Materials.Value), []string{"timeline cards", "a map of Roman Britain"}) {
		t.Errorf("materials = %+v", m.Materials)
	}
	v := m.Vocabulary.Value
	h2, p2 := v[2].PendingDefinition()
	h3, p3 := v[3].PendingDefinition()
	if len(v) != 4 || !v[0].IsBare() || v[0].Term != "legion" || v[1].IsBare() || v[1].Definition != "lands ruled by one emperor" ||
		!p2 || h2 != "" || !p3 || h3 != "one sentence, for six-year-olds" {
		t.Errorf("vocabulary = %+v", v)
	}
	want := []session.Pending{
		{Level: session.LevelMetadata, Path: "metadata.vocabulary[villa].definition"},
		{Level: session.LevelMetadata, Path: "metadata.vocabulary[Hadrian's Wall].definition", Hint: "one sentence, for six-year-olds"},
	}
	if got := plan(d).Pending(); !reflect.DeepEqual(got, want) {
		t.Errorf("pending = %+v\nwant %+v", got, want)
	}
}

func TestNewFieldsRoundTripByteForByte(t *testing.T) {
	d := load(t, romansSrc)
	if files, err := d.Render(""); err != nil || len(files) != 0 {
		t.Fatalf("an unchanged lesson writes %d files (err %v)", len(files), err)
	}
	files, err := d.Render(filepath.Join(t.TempDir(), "copy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files[len(files)-1].Data); got != romansSrc {
		t.Errorf("copy differs:\n%s", got)
	}
	src, _ := yamlsrc.Parse("lesson.yaml", []byte(romansSrc))
	if n := yamlsrc.Encode(*plan(d)); !yamlsrc.Equal(src.Root, n) {
		out, _ := yamlsrc.Render(n, 2)
		t.Errorf("encoding changes the data:\n%s", out)
	}
}

// Defining the pending terms changes only those definitions: every other
// byte the author wrote, bare terms and comments included, stays.
func TestDefineTermKeepsEveryAuthorByte(t *testing.T) {
	d := load(t, romansSrc)
	s := d.Session()
	res := apply(t, d, s, lesson.DefineTerm{Term: "villa", Definition: " a large Roman country house "})
	wantOutputs(t, res, lesson.Set{Field: "vocabulary[villa].definition", Value: "a large Roman country house"})
	apply(t, d, s, lesson.DefineTerm{Term: "hadrian's wall", Definition: "A long stone wall the Romans built across the north."})
	// What this session defined it may define again.
	apply(t, d, s, lesson.DefineTerm{Term: "villa", Definition: "a big Roman house in the countryside"})
	want := strings.Replace(romansSrc, "{term: villa, definition: !pending }", "{term: villa, definition: a big Roman house in the countryside}", 1)
	want = strings.Replace(want, `definition: !pending "one sentence, for six-year-olds"`, "definition: A long stone wall the Romans built across the north.", 1)
	if got := rendered(t, d)[d.Path]; got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	if p := plan(d).Pending(); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	reloaded := plan(reload(t, d)).Metadata.Vocabulary.Value
	if reloaded[2].Definition != "a big Roman house in the countryside" || !reloaded[0].IsBare() {
		t.Errorf("reloaded vocabulary = %+v", reloaded)
	}
}

func TestDefineTermRejects(t *testing.T) {
	tests := []struct {
		name string
		src  string
		in   lesson.DefineTerm
		kind session.ErrorKind
		path string
		hint string
	}{
		{"a bare term", romansSrc, lesson.DefineTerm{Term: "legion", Definition: "x"}, session.KindPrecondition, "term", "listed it without a definition on purpose; leave it; terms awaiting a definition: villa, Hadrian's Wall"},
		{"an authored definition", romansSrc, lesson.DefineTerm{Term: "empire", Definition: "x"}, session.KindPrecondition, "term", "the author wrote its definition"},
		{"an unknown term", romansSrc, lesson.DefineTerm{Term: "forum", Definition: "x"}, session.KindNotFound, "term", "terms awaiting a definition: villa, Hadrian's Wall"},
		{"an empty definition", romansSrc, lesson.DefineTerm{Term: "villa", Definition: " "}, session.KindInvalidArgs, "definition", "non-empty"},
		{"no vocabulary", "version: 1\nmetadata:\n  title: T\n  vocabulary: !pending\nslides: []\n", lesson.DefineTerm{Term: "villa", Definition: "x"}, session.KindPrecondition, "term", "use set_vocabulary"},
		{"replacing the author's list", romansSrc, lesson.DefineTerm{}, session.KindPrecondition, "terms", "write each pending definition with define_term (terms awaiting a definition: villa, Hadrian's Wall)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := load(t, tt.src)
			var in session.Intent = tt.in
			if tt.path == "terms" {
				in = lesson.SetVocabulary{Terms: []lesson.Term{{Term: "a", Definition: "b"}}}
			}
			sessiontest.Rejected(t, d.Session(), in, tt.kind, tt.path, tt.hint, observe(t, d))
		})
	}
}

// Each new field may be pending; filling it changes only that spot, and the
// change undoes exactly.
func TestNewFieldsArePendable(t *testing.T) {
	const src = `version: 1
metadata:
  title: Rivers
  key_learning_points: !pending "three, for a grade 5 class"
  misconceptions:
  materials: !pending
  vocabulary: [source, {term: mouth, definition: !pending }]
slides: []
`
	d := load(t, src)
	var paths []string
	for _, p := range plan(d).Pending() {
		paths = append(paths, p.Path+"|"+p.Hint)
	}
	if want := []string{"metadata.key_learning_points|three, for a grade 5 class", "metadata.misconceptions|", "metadata.materials|", "metadata.vocabulary[mouth].definition|"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("pending = %q\nwant %q", paths, want)
	}
	s := d.Session()
	apply(t, d, s, lesson.SetKeyLearningPoints{Points: lesson.Items(" Rivers flow downhill. ", "", "They carry sediment.")})
	apply(t, d, s, lesson.SetMisconceptions{Misconceptions: []lesson.Misconception{{Misconception: "Rivers flow south.", Response: "Trace a river that flows north on the map."}}})
	apply(t, d, s, lesson.SetMaterials{Materials: lesson.Items("a stream table")})
	apply(t, d, s, lesson.DefineTerm{Term: "mouth", Definition: "where a river meets the sea"})
	got := rendered(t, d)[d.Path]
	want := `version: 1
metadata:
  title: Rivers
  key_learning_points:
    - Rivers flow downhill.
    - They carry sediment.
  misconceptions:
    - misconception: Rivers flow south.
      response: Trace a river that flows north on the map.
  materials:
    - a stream table
  vocabulary: [source, {term: mouth, definition: where a river meets the sea}]
slides: []
`
	if got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	d2 := reload(t, d)
	if len(plan(d2).Pending()) != 0 {
		t.Errorf("pending after reload: %+v", plan(d2).Pending())
	}
}

func TestNewFieldsRejectBadValues(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\n  key_learning_points: !pending\n  misconceptions: !pending\n  materials: !pending\nslides: []\n")
	s := d.Session()
	for _, tt := range []struct {
		in         session.Intent
		path, hint string
	}{
		{lesson.SetKeyLearningPoints{Points: lesson.Items(" ")}, "points", "between 1 and 8"},
		{lesson.SetMaterials{}, "materials", "between 1 and 15"},
		{lesson.SetMisconceptions{}, "misconceptions", "between 1 and 8"},
		{lesson.SetMisconceptions{Misconceptions: []lesson.Misconception{{Misconception: "x"}}}, "misconceptions[0]", "the mistaken idea and the teacher's response"},
	} {
		sessiontest.Rejected(t, s, tt.in, session.KindInvalidArgs, tt.path, tt.hint, observe(t, d))
	}
	// What the author wrote stays: a set adds after it.
	d = load(t, romansSrc)
	before := plan(d).Metadata.Materials.Value
	if _, err := d.Session().Dispatch(context.Background(), lesson.SetMaterials{Materials: lesson.Items("x")}); err != nil {
		t.Fatal(err)
	}
	after := plan(d).Metadata.Materials.Value
	if len(after) != len(before)+1 || !reflect.DeepEqual(after[:len(before)], before) || after[len(before)].Text != "x" {
		t.Errorf("the author's materials %v became %v", before, after)
	}
}

// A wrong shape is reported where it is, naming both accepted shapes.
func TestVocabularyShapeErrors(t *testing.T) {
	const both = "a bare term (- chlorophyll) or a term with its definition ({term: stoma, definition: a tiny pore in a leaf}, definition may be !pending)"
	tests := []struct {
		item      string
		line, col int
		msg       string
	}{
		{"[stoma, pore]", 5, 7, "vocabulary[0] must be " + both + ", not a list"},
		{"{term: stoma, meaning: pore}", 5, 21, `unknown key "meaning" in metadata.vocabulary[0]; write ` + both},
		{"{definition: pore}", 5, 7, `metadata.vocabulary[0] is missing the required key "term"; write ` + both},
		{"{term: !pending , definition: pore}", 5, 14, "metadata.vocabulary[0].term must be the word or phrase itself (only a definition may be pending)"},
		{"''", 5, 7, "metadata.vocabulary[0] is empty; write " + both},
		{"{term: stoma, definition: [a, b]}", 5, 33, "metadata.vocabulary[0].definition must be text"},
	}
	for _, tt := range tests {
		src := "version: 1\nmetadata:\n  title: T\n  vocabulary:\n    - " + tt.item + "\nslides: []\n"
		dir := writeFiles(t, map[string]string{"lesson.yaml": src})
		_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
		ps, _ := err.(yamlsrc.Problems)
		found := false
		for _, p := range ps {
			found = found || p.Line == tt.line && p.Col == tt.col && strings.Contains(p.Message, tt.msg)
		}
		if !found {
			t.Errorf("%s: no error at %d:%d containing %q; got:\n%v", tt.item, tt.line, tt.col, tt.msg, err)
		}
	}
	// A misconception needs both halves, reported at the item.
	dir := writeFiles(t, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\n  misconceptions:\n    - {misconception: x}\nslides: []\n"})
	_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
	if err == nil || !strings.Contains(err.Error(), `lesson.yaml:5:7: metadata.misconceptions[0] is missing the required key "response"`) {
		t.Errorf("err = %v", err)
	}
}

func TestDescribeCarriesTheNewFields(t *testing.T) {
	d := load(t, romansSrc)
	got := plan(d).Describe()
	want := `A KS1 history lesson titled "Why did the Romans leave Britain?", 0 slides.` +
		` Key learning points: The Roman army left Britain around AD 410; Towns and roads fell out of use.` +
		` Key vocabulary: legion, empire, villa (definition to be written), Hadrian's Wall (definition to be written).` +
		` Common misconceptions: "The Romans left all at once." (answered: Show the timeline; the army left over decades); "Everyone left with them." (answered: Most Britons stayed).` +
		` Materials in the room: timeline cards; a map of Roman Britain.`
	if got != want {
		t.Errorf("Describe:\n got %s\nwant %s", got, want)
	}
}

func TestDefineTermListedTwice(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\n  vocabulary: [villa, {term: Villa, definition: !pending }]\nslides: []\n")
	apply(t, d, d.Session(), lesson.DefineTerm{Term: "villa", Definition: "a country house"})
	if got := rendered(t, d)[d.Path]; !strings.Contains(got, "vocabulary: [villa, {term: Villa, definition: a country house}]\n") {
		t.Errorf("saved:\n%s", got)
	}
	dir := writeFiles(t, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\n  vocabulary: [{term: a, term: b}]\nslides: []\n"})
	if _, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry()); err == nil || !strings.Contains(err.Error(), `lesson.yaml:4:26: duplicate key "term" in metadata.vocabulary[0]`) {
		t.Errorf("err = %v", err)
	}
}

// "Here are the misconceptions I see; suggest responses": each pending
// response is written in place and nothing else changes.
func TestRespondToMisconception(t *testing.T) {
	const src = `version: 1
metadata:
  title: Rivers
  misconceptions:
    - misconception: Rivers flow south.
      response: !pending "with a map"   # ask for a map
    - {misconception: Rivers never dry up., response: }
    - {misconception: All rivers reach the sea., response: Some end in lakes.}
slides: []
`
	d := load(t, src)
	want := []session.Pending{
		{Level: session.LevelMetadata, Path: "metadata.misconceptions[0].response", Hint: "with a map"},
		{Level: session.LevelMetadata, Path: "metadata.misconceptions[1].response"},
	}
	if got := plan(d).Pending(); !reflect.DeepEqual(got, want) {
		t.Errorf("pending = %+v", got)
	}
	if got := plan(d).Describe(); !strings.Contains(got, `Common misconceptions: "Rivers flow south." (response to be written); "Rivers never dry up." (response to be written); "All rivers reach the sea." (answered: Some end in lakes).`) {
		t.Errorf("describe: %s", got)
	}
	if files, err := d.Render(""); err != nil || len(files) != 0 {
		t.Fatalf("an unchanged lesson writes %d files (err %v)", len(files), err)
	}
	s := d.Session()
	res := apply(t, d, s, lesson.RespondToMisconception{Misconception: "rivers flow  south", Response: "Trace the Nile north on the map."})
	wantOutputs(t, res, lesson.Set{Field: "misconceptions[0].response", Value: "Trace the Nile north on the map."})
	apply(t, d, s, lesson.RespondToMisconception{Misconception: "Rivers never dry up.", Response: "Show a photo of a dry riverbed."})
	wantSrc := strings.Replace(src, `response: !pending "with a map"`, "response: Trace the Nile north on the map.", 1)
	wantSrc = strings.Replace(wantSrc, "response: }", "response: Show a photo of a dry riverbed.}", 1)
	if got := rendered(t, d)[d.Path]; got != wantSrc {
		t.Errorf("saved:\n%s\nwant:\n%s", got, wantSrc)
	}
	if len(plan(reload(t, d)).Pending()) != 0 {
		t.Error("pending after reload")
	}

	for _, tt := range []struct {
		name string
		in   session.Intent
		kind session.ErrorKind
		path string
		hint string
	}{
		{"an authored response", lesson.RespondToMisconception{Misconception: "All rivers reach the sea", Response: "x"}, session.KindPrecondition, "misconception", `the author wrote its response; leave it; misconceptions awaiting a response: "Rivers flow south.", "Rivers never dry up."`},
		{"an unknown one", lesson.RespondToMisconception{Misconception: "Rivers are salty", Response: "x"}, session.KindNotFound, "misconception", "misconceptions awaiting a response"},
		{"an empty response", lesson.RespondToMisconception{Misconception: "Rivers flow south.", Response: " "}, session.KindInvalidArgs, "response", "non-empty"},
		{"replacing the author's list", lesson.SetMisconceptions{Misconceptions: []lesson.Misconception{{Misconception: "a", Response: "b"}}}, session.KindPrecondition, "misconceptions", "write each pending response with respond_to_misconception"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := load(t, src)
			sessiontest.Rejected(t, d.Session(), tt.in, tt.kind, tt.path, tt.hint, observe(t, d))
		})
	}
	d = load(t, "version: 1\nmetadata:\n  title: T\n  misconceptions: !pending\nslides: []\n")
	sessiontest.Rejected(t, d.Session(), lesson.RespondToMisconception{Misconception: "a", Response: "b"}, session.KindPrecondition, "misconception", "use set_misconceptions", observe(t, d))
}

func TestMisconceptionShapeErrors(t *testing.T) {
	for _, tt := range []struct{ item, want string }{
		{"just a sentence", `lesson.yaml:5:7: metadata.misconceptions[0] must be a mapping {misconception: what students think, response: how the teacher answers (may be !pending)}`},
		{"{misconception: !pending , response: r}", "lesson.yaml:5:23: metadata.misconceptions[0].misconception must be the mistaken idea itself (only a response may be pending)"},
		{"{misconception: m, reply: r}", `lesson.yaml:5:26: unknown key "reply" in metadata.misconceptions[0]; a misconception has the keys misconception, response and sources`},
		{"{misconception: m, response: [a]}", "lesson.yaml:5:36: metadata.misconceptions[0].response must be text"},
	} {
		dir := writeFiles(t, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\n  misconceptions:\n    - " + tt.item + "\nslides: []\n"})
		_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v\nwant %s", tt.item, err, tt.want)
		}
	}
}
