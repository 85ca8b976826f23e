package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// doctor predicts generate: over every server quirk the fake server
// imitates, doctor passes exactly when generate fills the lesson.
func TestDoctorAgreesWithGenerate(t *testing.T) {
	heading := fakellm.FakeCall{Name: "set_heading", Arguments: `{"heading":"Leaves"}`}
	pings := []fakellm.FakeCall{{Name: "ping", Arguments: `{"n":1}`}, {Name: "ping", Arguments: `{"n":2}`}}
	script := func(doctor, generate fakellm.Turn) fakellm.Script {
		return fakellm.Script{Stream: fakellm.StreamOptions{Chunk: 3}, Rules: []fakellm.Rule{
			{Match: []string{"lessongen doctor"}, Turns: []fakellm.Turn{doctor}},
			{Match: []string{"whiteboard.metadata"}, Turns: []fakellm.Turn{generate, {Content: "Done."}}},
		}}
	}
	plain := script(fakellm.Turn{ToolCalls: pings}, fakellm.Turn{ToolCalls: []fakellm.FakeCall{heading}})
	with := func(f func(*fakellm.Script)) fakellm.Script {
		s := plain
		s.Rules = append([]fakellm.Rule(nil), plain.Rules...)
		f(&s)
		return s
	}
	both := func(f func(*fakellm.Turn)) fakellm.Script {
		d, g := fakellm.Turn{ToolCalls: pings}, fakellm.Turn{ToolCalls: []fakellm.FakeCall{heading}}
		f(&d)
		f(&g)
		return script(d, g)
	}
	for _, tc := range []struct {
		server string
		script fakellm.Script
		stream bool
		works  bool
	}{
		{"OpenAI", plain, true, true},
		{"Foundry Local: error null, changing ids", with(func(s *fakellm.Script) { s.Stream.NullError, s.Stream.ChangingIDs = true, true }), true, true},
		{"omlx: keep-alive chunk first", with(func(s *fakellm.Script) { s.Stream.KeepAliveFirst = true }), true, true},
		{"MiniMax via NIM: name in every delta", with(func(s *fakellm.Script) { s.Stream.ResendName = true }), true, true},
		{"early vLLM: no index", with(func(s *fakellm.Script) { s.Stream.NoIndex = true }), true, true},
		{"vLLM 0.5.4: cumulative usage", with(func(s *fakellm.Script) { s.Stream.CumulativeUsage = true }), true, true},
		{"vLLM: error event 400", both(func(t *fakellm.Turn) {
			t.Status, t.Times, t.StreamError, t.ErrorBody = 400, -1, fakellm.StreamErrorVLLM, "maximum context length is 4096 tokens"
		}), true, false},
		{"llama.cpp: error field 500 once", both(func(t *fakellm.Turn) {
			t.Status, t.Times, t.StreamError, t.ErrorBody = 500, 1, fakellm.StreamErrorLlamaCpp, "slot unavailable"
		}), true, true},
		{"Ollama: error line, no finish_reason", both(func(t *fakellm.Turn) {
			t.Status, t.Times, t.StreamError, t.ErrorBody = 500, -1, fakellm.StreamErrorOllama, "model runner has unexpectedly stopped"
		}), true, false},
		{"llama.cpp: one call per turn", script(fakellm.Turn{ToolCalls: pings[:1]}, fakellm.Turn{ToolCalls: []fakellm.FakeCall{heading}}), false, true},
		{"no tool-call parser: calls as text", both(func(t *fakellm.Turn) {
			t.Content, t.ToolCalls = "<tool_call>"+`{"name": "`+t.ToolCalls[0].Name+`", "arguments": `+t.ToolCalls[0].Arguments+"}</tool_call>", nil
		}), false, false},
		// A refused parallel_tool_calls is left out after one refusal (issue #36).
		{"Azure: parallel_tool_calls refused", with(func(s *fakellm.Script) { s.Quirks.AzureParallelToolCalls = true }), false, true},
		{"newer Azure: Unknown parameter", with(func(s *fakellm.Script) { s.Quirks.AzureUnknownParameter = true }), false, true},
		{"newer Azure: stream_options", with(func(s *fakellm.Script) { s.Quirks.AzureUnknownParameter = true }), true, false},
		{"OpenAI reasoning model: Unsupported parameter", with(func(s *fakellm.Script) { s.Quirks.OpenAIReasoning = true }), false, true},
		{"Azure: stream_options refused", with(func(s *fakellm.Script) { s.Quirks.AzureStreamOptions = true }), true, false},
		{"Ollama: model without tools", with(func(s *fakellm.Script) { s.Quirks.OllamaNoTools = true }), false, false},
		{"llama.cpp: no streamed tool calls", with(func(s *fakellm.Script) { s.Quirks.LlamaCppNoToolStream = true }), true, false},
		{"llama.cpp without --jinja", with(func(s *fakellm.Script) { s.Quirks.NoJinja = true }), false, false},
		{"llama.cpp: a context smaller than a real request", with(func(s *fakellm.Script) { s.Quirks.ContextTokens = 1000 }), false, false},
	} {
		t.Run(tc.server, func(t *testing.T) {
			dir := t.TempDir()
			lesson := filepath.Join(dir, "lesson.yaml")
			if err := os.WriteFile(lesson, []byte("version: 1\nmetadata:\n  title: Leaves\nslides:\n  - id: leaf\n    title: A leaf\n    whiteboard:\n      heading: !pending\n      elements: []\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			srv := fakellm.Start(t, tc.script)
			t.Setenv("LESSONGEN_BASE_URL", srv.URL())
			t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
			t.Setenv("LESSONGEN_STREAM", map[bool]string{true: "true", false: "false"}[tc.stream])
			t.Setenv("LESSONGEN_RETRIES", "1")
			t.Setenv("XDG_CONFIG_HOME", dir)
			docOut, _, doc := run(t, "doctor")
			_, genErr, gen := run(t, "generate", lesson, "--state-dir", filepath.Join(dir, "state"))
			if (doc == 0) != tc.works || (gen == 0) != tc.works {
				t.Errorf("doctor exit %d, generate exit %d; want both to say works=%v\ndoctor:\n%s\ngenerate:\n%s", doc, gen, tc.works, docOut, genErr)
			}
			if got, _ := os.ReadFile(lesson); tc.works != strings.Contains(string(got), "heading: Leaves") {
				t.Errorf("lesson after generate:\n%s", got)
			}
		})
	}
}
