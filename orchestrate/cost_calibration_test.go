package orchestrate

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
)

const (
	// exampleRecording is the bundled example's recording (a scripted
	// model), whose requests plan --cost is checked against.
	exampleRecording = "../examples/photosynthesis/recording.jsonl"
	// calibrationRequests sums up a capable model's run (see its
	// README.md): each request's size and parts, no bodies. The
	// calibration is measured on it.
	calibrationRequests = "../testdata/recordings/fractions/requests.jsonl"
)

// recordingFlag names a full recording to sum up into
// calibrationRequests: go test ./orchestrate -run TestCostRequestSummary
// -update -recording PATH.
var recordingFlag = flag.String("recording", "", "with -update, the recording TestCostRequestSummary sums up into "+calibrationRequests)

// recorded is one request of a recording, summed up: who sent it, its
// size and its parts, and the usage its answer reported.
type recorded struct {
	Node     string `json:"node"`
	Level    string `json:"level"`
	Messages int    `json:"messages"`
	// Bytes is the request's body as recorded (re-encoded).
	Bytes int `json:"bytes"`
	// Prompt and Completion are the usage the answer reported.
	Prompt     int64 `json:"prompt_tokens"`
	Completion int64 `json:"completion_tokens"`
	// AnswerBytes is the answer's message (its text and calls).
	AnswerBytes int `json:"answer_bytes"`
	// SourceTurn: the answer only read sources, so the next turn is one
	// spent reading.
	SourceTurn bool `json:"source_turn,omitempty"`
	// ReviewBytes is the review turn's message, its image aside, and
	// ImageBytes that image part (0 for other requests).
	ReviewBytes int `json:"review_bytes,omitempty"`
	ImageBytes  int `json:"image_bytes,omitempty"`
}

// nodeLine is where a task prompt names its node and level.
var nodeLine = regexp.MustCompile(`(?m)^Node: (\S+) \((\S+)\)$`)

// readRecording sums up each request of a --record file.
func readRecording(t *testing.T, path string) []recorded {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recorded
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Request  json.RawMessage `json:"request"`
			Response struct {
				Usage   json.RawMessage `json:"usage"`
				Choices []struct {
					Message json.RawMessage `json:"message"`
				} `json:"choices"`
			} `json:"response"`
		}
		var req struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Request == nil {
			continue // the header
		}
		if err := json.Unmarshal(line.Request, &req); err != nil || len(req.Messages) == 0 {
			t.Fatalf("a recorded request without messages: %v", err)
		}
		// The node's line is in the first user message (the node's part).
		task := text(req.Messages[0])
		if len(req.Messages) > 1 {
			task += "\n" + text(req.Messages[1])
		}
		m := nodeLine.FindStringSubmatch(task)
		if m == nil || len(line.Response.Choices) == 0 {
			t.Fatalf("a recorded request names no node, or its answer no message: %.200s", task)
		}
		r := recorded{Node: m[1], Level: m[2], Messages: len(req.Messages), Bytes: len(line.Request)}
		var usage struct {
			Prompt     int64 `json:"prompt_tokens"`
			Completion int64 `json:"completion_tokens"`
		}
		if err := json.Unmarshal(line.Response.Usage, &usage); err != nil {
			t.Fatal(err)
		}
		r.Prompt, r.Completion = usage.Prompt, usage.Completion
		answer := line.Response.Choices[0].Message
		r.AnswerBytes, r.SourceTurn = len(answer), onlyReadsSources(answer)
		if last := req.Messages[len(req.Messages)-1]; len(req.Messages) > 2 && role(last) == "user" {
			r.ReviewBytes, r.ImageBytes = len(last), imageBytes(last)
			r.ReviewBytes -= r.ImageBytes
		}
		out = append(out, r)
	}
	return out
}

func text(msg json.RawMessage) string {
	var m struct{ Content any }
	_ = json.Unmarshal(msg, &m)
	s, _ := m.Content.(string)
	return s
}

func role(msg json.RawMessage) string {
	var m struct{ Role string }
	_ = json.Unmarshal(msg, &m)
	return m.Role
}

// imageBytes is the size of a message's image parts.
func imageBytes(msg json.RawMessage) int {
	var m struct {
		Content []json.RawMessage
	}
	if json.Unmarshal(msg, &m) != nil {
		return 0
	}
	n := 0
	for _, part := range m.Content {
		if strings.Contains(string(part), `"image_url"`) {
			n += len(part)
		}
	}
	return n
}

// onlyReadsSources reports whether an answer calls tools, all of them
// the sources' (list_sources, search_sources, read_source).
func onlyReadsSources(msg json.RawMessage) bool {
	var m struct {
		ToolCalls []struct {
			Function struct{ Name string }
		} `json:"tool_calls"`
	}
	_ = json.Unmarshal(msg, &m)
	for _, c := range m.ToolCalls {
		if !strings.HasSuffix(c.Function.Name, "_sources") && c.Function.Name != "read_source" {
			return false
		}
	}
	return len(m.ToolCalls) > 0
}

// readRequests reads a summary TestCostRequestSummary wrote.
func readRequests(t *testing.T, path string) []recorded {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []recorded
	for line := range strings.Lines(string(data)) {
		var r recorded
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// The summary is remade from the full recording (kept outside the
// repository, 734 KB) with -update -recording PATH; without them this
// checks the summary reads.
func TestCostRequestSummary(t *testing.T) {
	if !*update || *recordingFlag == "" {
		if rs := readRequests(t, calibrationRequests); len(rs) == 0 {
			t.Fatalf("%s sums up no request", calibrationRequests)
		}
		return
	}
	var b strings.Builder
	for _, r := range readRecording(t, *recordingFlag) {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(calibrationRequests, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func classOf(r recorded) levelClass {
	part := session.LevelNode
	if strings.HasSuffix(r.Level, ".metadata") {
		part = session.LevelMetadata
	}
	return levelClass{child: r.Node != "lesson", part: part}
}

// measure is the calibration a run's requests show, per class and for
// the run.
func measure(t *testing.T, rs []recorded) (map[levelClass]calibration, runCalibration) {
	type sums struct {
		subagents, turns, firstBytes, answerBytes, requests int
		growth, grown                                       int
	}
	got := map[levelClass]*sums{}
	var sourceTurns, readers, sourceGrowth, reviews, reviewBytes, images, imgBytes int
	prev := map[string]recorded{} // the node's level's last request
	for _, r := range rs {
		c := classOf(r)
		if got[c] == nil {
			got[c] = &sums{}
		}
		s := got[c]
		s.requests++
		s.answerBytes += r.AnswerBytes
		key := r.Node + " " + r.Level
		p, later := prev[key]
		prev[key] = r
		switch {
		case r.Messages == 2: // system and kickoff: a subagent's first
			s.subagents++
			s.turns++
			s.firstBytes += r.Bytes
			if r.SourceTurn {
				readers++
			}
		case !later:
			t.Fatalf("%s: a later turn with no first", key)
		case p.SourceTurn:
			s.turns++
			sourceGrowth += r.Bytes - p.Bytes
		case r.ReviewBytes > 0:
			reviews++
			reviewBytes += r.ReviewBytes
			if r.ImageBytes > 0 {
				images++
				imgBytes += r.ImageBytes
			}
			s.growth += r.Bytes - p.Bytes - r.ReviewBytes - r.ImageBytes
			s.grown++
		default:
			s.turns++
			s.growth += r.Bytes - p.Bytes
			s.grown++
		}
		if r.SourceTurn {
			sourceTurns++
			s.turns-- // counted as reading, not as the subagent's own
		}
	}
	out := map[levelClass]calibration{}
	for c, s := range got {
		if s.subagents == 0 {
			t.Fatalf("%+v: no first request in the recording", c)
		}
		k := calibration{
			Turns:      math.Round(100*float64(s.turns)/float64(s.subagents)) / 100,
			Completion: int64(math.Round(float64(s.answerBytes) / float64(s.requests) / BytesPerToken)),
			FirstBytes: s.firstBytes / s.subagents,
		}
		if s.grown > 0 {
			k.Growth = s.growth / s.grown
		}
		out[c] = k
	}
	run := runCalibration{}
	if readers > 0 {
		run.SourceTurns = float64(sourceTurns) / float64(readers)
		run.SourceGrowth = sourceGrowth / sourceTurns
	}
	if reviews > 0 {
		run.ReviewBytes = reviewBytes / reviews
	}
	if images > 0 {
		run.ImageBytes = imgBytes / images
	}
	return out, run
}

// The calibration is what the capable model's run measured: turns per
// subagent, what each later turn adds, completion per request and the
// size of a first request, for each class of level; the turns spent
// reading sources, the review turn and its image for the run. A remade
// summary that moves it fails here, naming the command that rewrites it.
func TestCostCalibration(t *testing.T) {
	measured, run := measure(t, readRequests(t, calibrationRequests))
	if *update {
		writeCalibration(t, measured, run)
		return
	}
	const fix = "(go test ./orchestrate -run TestCostCalibration -update)"
	if len(measured) != len(calibrated) {
		t.Fatalf("the run has %d classes of level, the calibration %d %s", len(measured), len(calibrated), fix)
	}
	for c, want := range calibrated {
		if m := measured[c]; m != want {
			t.Errorf("%+v: measured %+v; calibrated %+v %s", c, m, want, fix)
		}
	}
	if run != calibratedRun {
		t.Errorf("measured %+v; calibrated %+v %s", run, calibratedRun, fix)
	}
}

// writeCalibration rewrites cost_calibrated.go with what the run
// measured, so remaking it is two commands and no hand edit.
func writeCalibration(t *testing.T, m map[levelClass]calibration, run runCalibration) {
	t.Helper()
	var b strings.Builder
	b.WriteString("// Code generated by TestCostCalibration -update from\n// testdata/recordings/fractions/requests.jsonl; DO NOT EDIT.\n\npackage orchestrate\n\n")
	b.WriteString("import \"github.com/lessongen/lessongen/session\"\n\n")
	b.WriteString("// calibrated is what one subagent of each class of level spent in a\n// capable model's run (a real model may take more turns: MaxRequests\n// bounds them).\n")
	b.WriteString("var calibrated = map[levelClass]calibration{\n")
	for _, c := range []levelClass{{false, session.LevelMetadata}, {false, session.LevelNode}, {true, session.LevelMetadata}, {true, session.LevelNode}} {
		k, ok := m[c]
		if !ok {
			t.Fatalf("%+v: not in the run", c)
		}
		fmt.Fprintf(&b, "\t{%t, session.Level%s}: {Turns: %v, Completion: %d, Growth: %d, FirstBytes: %d},\n", c.child, levelName(c.part), k.Turns, k.Completion, k.Growth, k.FirstBytes)
	}
	b.WriteString("}\n\n// calibratedRun is what the same run spent beyond its subagents' turns.\n")
	fmt.Fprintf(&b, "var calibratedRun = runCalibration{SourceTurns: %v, SourceGrowth: %d, ReviewBytes: %d, ImageBytes: %d}\n", run.SourceTurns, run.SourceGrowth, run.ReviewBytes, run.ImageBytes)
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("cost_calibrated.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}

func levelName(l session.Level) string {
	if l == session.LevelMetadata {
		return "Metadata"
	}
	return "Node"
}
