package orchestrate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/fakellm"
)

// oneTurnScript fills each level in one tool turn: a model that makes all
// its calls at once. A subagent that asks again gets plain text.
func oneTurnScript() fakellm.Script {
	done := fakellm.Turn{Content: "Done."}
	return fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"(lesson.metadata)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_objectives", Arguments: `{"objectives":["Explain how plants make food"]}`},
		}}, done}},
		{Match: []string{"(whiteboard.metadata)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_heading", Arguments: `{"heading":"H"}`},
			{Name: "set_layout", Arguments: `{"layout":"L"}`},
		}}, done}},
		{Match: []string{"(whiteboard.node)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_text", Arguments: `{"x":40,"y":140,"w":300,"h":40,"text":"T"}`},
		}}, done}},
	}}
}

// promptOf renders a recorded request body the way a server's prompt
// cache sees it: the tools first (chat templates put them in the system
// part), then each message's role and content in order.
func promptOf(body []byte) (prompt string, toolsBytes int, level, system string) {
	var req struct {
		Tools    json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", 0, "", ""
	}
	var b strings.Builder
	b.Write(req.Tools)
	for _, m := range req.Messages {
		b.WriteString("\n<" + m.Role + ">\n" + m.Content)
		if m.Role == "system" && system == "" {
			system = m.Content
		}
	}
	if m := nodeRE.FindStringSubmatch(b.String()); m != nil {
		level = m[1] + " " + m[2]
	}
	return b.String(), len(req.Tools), level, system
}

// slideLine starts the describe chain's line about a child's slide: the
// first that depends on the node, after the canvas and the lesson.
const slideLine = "\n2. Slide "

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// BenchmarkRequestEconomy generates an 8-slide lesson (objectives and every
// whiteboard pending) with a model that does each subagent's work in one
// turn, and reports: requests per subagent (the floor is 1), request bytes
// per subagent, the tools' share of those bytes, and how many leading
// bytes the first requests of two whiteboard subagents of one level share
// (what a server's prompt cache can reuse), also as a share of the prompt.
func BenchmarkRequestEconomy(b *testing.B) { requestEconomy(b, false) }

// BenchmarkRequestEconomyReview is BenchmarkRequestEconomy with --review:
// each whiteboard's node subagent gets one review turn more.
func BenchmarkRequestEconomyReview(b *testing.B) { requestEconomy(b, true) }

func requestEconomy(b *testing.B, review bool) {
	srv := fakellm.Start(b, oneTurnScript())
	model := benchModel(b, srv)
	var requests, subagents, body, tools, promptBytes int
	var tokens int64
	shared := map[string]int{}
	whole := map[string]int{}
	sharedSystem := 0
	for b.Loop() {
		b.StopTimer()
		doc, err := compose.Load(writeLesson(b, 8, "  objectives: !pending \"two objectives\"\n"), testRegistry())
		if err != nil {
			b.Fatal(err)
		}
		before := srv.RequestCount()
		b.StartTimer()
		opts := options(b, model, 1)
		opts.Review = review
		report, err := Run(context.Background(), doc, Scope{}, opts)
		if err != nil || len(report.Incomplete()) > 0 {
			b.Fatalf("run: %v %+v", err, report.Incomplete())
		}
		b.StopTimer()
		subagents += len(report.Nodes)
		requests += report.Requests
		tokens += report.Tokens.Prompt + report.Tokens.Completion
		for _, n := range report.Nodes {
			promptBytes += n.PromptBytes
		}
		first, firstSystem := map[string]string{}, map[string]string{}
		for _, r := range srv.Requests()[before:] {
			p, tb, lv, sys := promptOf(r.Body)
			body += len(r.Body)
			tools += tb
			if _, seen := first[lv]; !seen {
				first[lv], firstSystem[lv] = p, sys
			}
		}
		// The system messages alone: what is shared whatever the server's
		// chat template does with the tools.
		sharedSystem += commonPrefix(firstSystem["slides/s1/whiteboard whiteboard.node"], firstSystem["slides/s2/whiteboard whiteboard.node"])
		for _, level := range []string{"whiteboard.metadata", "whiteboard.node"} {
			a, c := first["slides/s1/whiteboard "+level], first["slides/s2/whiteboard "+level]
			n := commonPrefix(a, c)
			// Everything before the first line about the node's slide is
			// shared.
			if node := strings.Index(a, slideLine); n < node {
				b.Errorf("%s: the prompts share %d bytes; the slide's line starts at %d", level, n, node)
			}
			shared[level] += n
			whole[level] += len(a)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(requests)/float64(subagents), "requests/subagent")
	b.ReportMetric(float64(body)/float64(subagents), "request-bytes/subagent")
	b.ReportMetric(float64(tools)/float64(body), "tools-share")
	b.ReportMetric(float64(tokens)/float64(subagents), "tokens/subagent")
	b.ReportMetric(float64(promptBytes)/float64(subagents), "prompt-bytes/subagent")
	b.ReportMetric(float64(shared["whiteboard.node"])/float64(b.N), "wb-node-shared-prefix-bytes")
	b.ReportMetric(float64(shared["whiteboard.node"])/float64(whole["whiteboard.node"]), "wb-node-shared-prefix-share")
	b.ReportMetric(float64(sharedSystem)/float64(b.N), "wb-node-shared-system-bytes")
	b.ReportMetric(float64(shared["whiteboard.metadata"])/float64(b.N), "wb-meta-shared-prefix-bytes")
	b.ReportMetric(float64(shared["whiteboard.metadata"])/float64(whole["whiteboard.metadata"]), "wb-meta-shared-prefix-share")
}

// lookFirstScript has each subagent look (reads) in one turn and write in
// the next, as a careful model does: its second request carries the
// results of the first turn's calls.
func lookFirstScript() fakellm.Script {
	s := oneTurnScript()
	looks := map[string][]fakellm.FakeCall{
		"(lesson.metadata)":     {{Name: "describe_lesson", Arguments: `{}`}, {Name: "list_pending", Arguments: `{}`}},
		"(whiteboard.metadata)": {{Name: "describe_whiteboard", Arguments: `{}`}, {Name: "list_pending", Arguments: `{}`}},
		"(whiteboard.node)":     {{Name: "describe_whiteboard", Arguments: `{}`}, {Name: "list_pending", Arguments: `{}`}},
	}
	for i, r := range s.Rules {
		s.Rules[i].Turns = append([]fakellm.Turn{{ToolCalls: looks[r.Match[0]]}}, r.Turns...)
	}
	board := &s.Rules[2].Turns[1]
	board.ToolCalls = nil
	for i := range 4 {
		board.ToolCalls = append(board.ToolCalls, fakellm.FakeCall{Name: "add_text", Arguments: fmt.Sprintf(`{"x":40,"y":%d,"w":300,"h":40,"text":"T%d"}`, 140+60*i, i)})
	}
	return s
}

// BenchmarkToolResultBytes runs the 8-slide lesson of
// BenchmarkRequestEconomy with lookFirstScript and reports the bytes of
// tool results per subagent (what the model reads back) and per result.
func BenchmarkToolResultBytes(b *testing.B) {
	srv := fakellm.Start(b, lookFirstScript())
	model := benchModel(b, srv)
	var subagents, results, resultBytes, requests, promptBytes int
	for b.Loop() {
		b.StopTimer()
		doc, err := compose.Load(writeLesson(b, 8, "  objectives: !pending \"two objectives\"\n"), testRegistry())
		if err != nil {
			b.Fatal(err)
		}
		opts := options(b, model, 1)
		var mu sync.Mutex
		opts.Events = func(e event.Event) {
			if e.Kind == event.ToolResult {
				mu.Lock()
				results++
				resultBytes += len(e.Result)
				mu.Unlock()
			}
		}
		b.StartTimer()
		report, err := Run(context.Background(), doc, Scope{}, opts)
		if err != nil || len(report.Incomplete()) > 0 {
			b.Fatalf("run: %v %+v", err, report.Incomplete())
		}
		b.StopTimer()
		subagents += len(report.Nodes)
		requests += report.Requests
		for _, n := range report.Nodes {
			promptBytes += n.PromptBytes
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(resultBytes)/float64(subagents), "result-bytes/subagent")
	b.ReportMetric(float64(resultBytes)/float64(results), "bytes/result")
	b.ReportMetric(float64(requests)/float64(subagents), "requests/subagent")
	b.ReportMetric(float64(promptBytes)/float64(subagents), "prompt-bytes/subagent")
}

// allLevelsScript fills every level in one tool turn, calling every
// setter each level offers, as a model that sets all it is offered does:
// where the author wrote a value (prefixLesson's odd slides), the call is
// refused as not pending, which must cost no second turn.
func allLevelsScript() fakellm.Script {
	s := oneTurnScript()
	// A board as a real one is filled: several elements with real words,
	// which the quiz and the activity of its slide see described.
	board := &s.Rules[2].Turns[0]
	board.ToolCalls = nil
	for i, text := range []string{"Plants make glucose from carbon dioxide and water.", "Light is absorbed by chlorophyll in the chloroplasts.",
		"Oxygen is released as a by-product.", "6CO2 + 6H2O -> C6H12O6 + 6O2", "Glucose is stored as starch or used in respiration.",
		"Leaves are thin and broad to absorb more light."} {
		board.ToolCalls = append(board.ToolCalls, fakellm.FakeCall{Name: "add_text", Arguments: fmt.Sprintf(`{"x":40,"y":%d,"w":1100,"h":40,"text":%q}`, 140+80*i, text)})
	}
	wbMeta := &s.Rules[1].Turns[0]
	wbMeta.ToolCalls = append(wbMeta.ToolCalls, fakellm.FakeCall{Name: "set_canvas", Arguments: `{"width":1280,"height":720,"background":null}`},
		fakellm.FakeCall{Name: "set_background", Arguments: `{"background":"white"}`})
	done := fakellm.Turn{Content: "Done."}
	for level, calls := range map[string][]fakellm.FakeCall{
		"(quiz.metadata)": {{Name: "set_kind", Arguments: `{"kind":"check"}`}, {Name: "set_instructions", Arguments: `{"instructions":"Answer alone."}`}},
		"(quiz.node)": {
			{Name: "add_question", Arguments: `{"prompt":"Which is half?","options":[{"text":"1/2","correct":true},{"text":"1/3","correct":false}]}`},
			{Name: "add_question", Arguments: `{"prompt":"Which is a third?","options":[{"text":"1/3","correct":true},{"text":"1/2","correct":false}]}`},
			{Name: "set_true_false_answer", Arguments: `{"id":"q1","answer":true,"why":null}`},
			{Name: "set_model_answer", Arguments: `{"id":"q1","model_answer":"M","marks":null}`},
			{Name: "set_numeric_answer", Arguments: `{"id":"q1","answer":0.5,"tolerance":null,"unit":null}`},
			{Name: "set_correct_order", Arguments: `{"id":"q1","items":["a","b"]}`},
			{Name: "set_match_pairs", Arguments: `{"id":"q1","pairs":[{"left":"a","right":"b"},{"left":"c","right":"d"}]}`},
		},
		"(activity.metadata)": {{Name: "set_instructions", Arguments: `{"instructions":"Explain it to your partner."}`},
			{Name: "set_grouping", Arguments: `{"grouping":"pairs"}`}, {Name: "set_activity_minutes", Arguments: `{"duration_minutes":5}`}},
		"(activity.node)": {{Name: "set_model_answer", Arguments: `{"model_answer":"M"}`}, {Name: "add_success_criteria", Arguments: `{"criteria":["C"]}`},
			{Name: "set_support", Arguments: `{"support":"S"}`}, {Name: "set_stretch", Arguments: `{"stretch":"T"}`}},
	} {
		s.Rules = append(s.Rules, fakellm.Rule{Match: []string{level}, Turns: []fakellm.Turn{{ToolCalls: calls}, done}})
	}
	return s
}

// prefixLesson is an 8-slide lesson whose slides each hold the given
// children, pending whole; on every other slide the author wrote part of
// each (a heading, a kind, the instructions), so the subagents of one
// level have different items pending.
func prefixLesson(kinds ...string) string {
	var src strings.Builder
	src.WriteString("version: 1\nmetadata:\n  title: Test\nslides:\n")
	for i := range 8 {
		fmt.Fprintf(&src, "  - id: s%d\n    title: Slide %d\n", i, i)
		child := map[string]string{"whiteboard": fmt.Sprintf("!pending \"board %d\"", i), "quiz": "!pending \"two questions\"", "activity": "!pending \"pairs explain it\""}
		if i%2 == 1 {
			child = map[string]string{
				"whiteboard": fmt.Sprintf("{heading: Board %d, layout: !pending, elements: !pending \"board %d\"}", i, i),
				"quiz":       "{kind: check, instructions: !pending, questions: !pending \"two questions\"}",
				"activity":   "{instructions: Explain it to your partner., grouping: !pending, duration_minutes: !pending, model_answer: !pending, success_criteria: !pending, support: !pending, stretch: !pending}",
			}
		}
		for _, k := range kinds {
			fmt.Fprintf(&src, "    %s: %s\n", k, child[k])
		}
	}
	return src.String()
}

// prefixLevels are the levels the prefix benchmarks compare, by the short
// name of their metrics.
var prefixLevels = []struct{ child, level, short string }{
	{"whiteboard", "whiteboard.metadata", "wb-meta"}, {"whiteboard", "whiteboard.node", "wb-node"},
	{"quiz", "quiz.metadata", "quiz-meta"}, {"quiz", "quiz.node", "quiz-node"},
	{"activity", "activity.metadata", "act-meta"}, {"activity", "activity.node", "act-node"},
}

// BenchmarkMetadataPrefix generates prefixLesson with a whiteboard on each
// slide and reports, for each whiteboard level, how many leading bytes the
// first requests of the subagents of slides s1 and s2 share (one board
// with its heading written by the author, one without), as a share of the
// prompt: what one cached prefix serves (issue #28: ≥ 0.9), and as a share
// of what precedes the node's own part, which is all a cache can share.
//
//	go test ./orchestrate -run '^$' -bench Prefix -count 5
func BenchmarkMetadataPrefix(b *testing.B) { prefixShare(b, "whiteboard") }

// BenchmarkPrefixAllKinds is BenchmarkMetadataPrefix with a whiteboard, a
// quiz and an activity on each slide, for every level of the three: each
// subagent's context also describes the slide's other children.
func BenchmarkPrefixAllKinds(b *testing.B) { prefixShare(b, "whiteboard", "quiz", "activity") }

func prefixShare(b *testing.B, kinds ...string) {
	srv := fakellm.Start(b, allLevelsScript())
	model := benchModel(b, srv)
	shared, whole, stable := map[string]int{}, map[string]int{}, map[string]int{}
	requests, subagents := map[string]int{}, map[string]int{}
	for b.Loop() {
		b.StopTimer()
		doc := loadSrc(b, prefixLesson(kinds...))
		before := srv.RequestCount()
		b.StartTimer()
		report, err := Run(context.Background(), doc, Scope{}, options(b, model, 1))
		if err != nil || len(report.Incomplete()) > 0 {
			b.Fatalf("run: %v %+v", err, report.Incomplete())
		}
		b.StopTimer()
		for _, n := range report.Nodes {
			subagents[n.Level]++
		}
		first := map[string]string{}
		for _, r := range srv.Requests()[before:] {
			p, _, lv, _ := promptOf(r.Body)
			if first[lv] == "" {
				first[lv] = p
			}
			if _, level, ok := strings.Cut(lv, " "); ok {
				requests[level]++
			}
		}
		for _, l := range prefixLevels {
			a, c := first["slides/s1/"+l.child+" "+l.level], first["slides/s2/"+l.child+" "+l.level]
			if !slices.Contains(kinds, l.child) {
				continue
			}
			if a == "" || c == "" {
				b.Fatalf("%s: no request from slides s1 and s2", l.level)
			}
			shared[l.short] += commonPrefix(a, c)
			whole[l.short] += len(a)
			stable[l.short] += strings.Index(a, slideLine)
		}
		b.StartTimer()
	}
	for _, l := range prefixLevels {
		if whole[l.short] > 0 {
			b.ReportMetric(float64(shared[l.short])/float64(whole[l.short]), l.short+"-shared-prefix-share")
			b.ReportMetric(float64(shared[l.short])/float64(stable[l.short]), l.short+"-shared-of-stable")
			b.ReportMetric(float64(requests[l.level])/float64(subagents[l.level]), l.short+"-requests/subagent")
		}
	}
}
