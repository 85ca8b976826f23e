package templates

import (
	"strings"
	"testing"
	"text/template"
)

// The quiz's templates render a quiz node's prompt: its node and level, the
// describe chain, its placeholder with the brief, and its turns.
// (TestEmbeddedTemplatesRenderEveryLevel renders every level with
// whiteboard data; this one gives the quiz data of its own.)
func TestQuizTemplatesRender(t *testing.T) {
	common, err := embedded.ReadFile("common.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{"quiz.metadata", "quiz.node"} {
		text, err := embedded.ReadFile(level + ".tmpl")
		if err != nil {
			t.Fatal(err)
		}
		tp := template.New(level).Option("missingkey=error").Funcs(template.FuncMap{"add": func(a, b int) int { return a + b }})
		template.Must(tp.New("common").Parse(string(common)))
		template.Must(tp.Parse(string(text)))
		var out strings.Builder
		d := Data{Node: "slides/check-1/quiz", Level: level, Context: []string{"A KS1 history lesson.", "Slide 3 of 8."},
			Pending: []Item{{Path: "questions", Hint: "two on what changed", ID: "p1"}}, MaxSteps: 9}
		if err := tp.Execute(&out, d); err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		for _, want := range []string{"Node: slides/check-1/quiz (" + level + ")", "2. Slide 3 of 8.", `- questions [placeholder p1], brief: "two on what changed"`, "You have 9 turns."} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: prompt lacks %q:\n%s", level, want, out.String())
			}
		}
	}
}
