package orchestrate

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// exampleRecording is the bundled example's recording, whose measured
// usage the calibration and plan --cost are checked against.
const exampleRecording = "../examples/photosynthesis/recording.jsonl"

// recorded is one request of a recording with the usage its answer
// reported.
type recorded struct {
	Node, Level string
	Messages    int
	Bytes       int
	Usage       struct {
		Prompt     int64 `json:"prompt_tokens"`
		Completion int64 `json:"completion_tokens"`
	}
}

// nodeLine is where a task prompt names its node and level.
var nodeLine = regexp.MustCompile(`(?m)^Node: (\S+) \((\S+)\)$`)

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
				Usage json.RawMessage `json:"usage"`
			} `json:"response"`
		}
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Request == nil {
			continue // the header
		}
		if err := json.Unmarshal(line.Request, &req); err != nil || len(req.Messages) == 0 {
			t.Fatalf("a recorded request without messages: %v", err)
		}
		m := nodeLine.FindStringSubmatch(req.Messages[0].Content)
		if m == nil {
			t.Fatalf("a recorded request names no node: %.200s", req.Messages[0].Content)
		}
		r := recorded{Node: m[1], Level: m[2], Messages: len(req.Messages), Bytes: len(line.Request)}
		if err := json.Unmarshal(line.Response.Usage, &r.Usage); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// The calibration is what the bundled example's recording measured:
// turns per subagent, completion tokens per request and the size of a
// first request, for each class of level. Remade recordings that move
// it fail here, naming the figure to update.
func TestCostCalibration(t *testing.T) {
	type sums struct {
		requests, firsts, bytes int
		completion              int64
	}
	got := map[levelClass]*sums{}
	for _, r := range readRecording(t, exampleRecording) {
		part := session.LevelNode
		if strings.HasSuffix(r.Level, ".metadata") {
			part = session.LevelMetadata
		}
		c := levelClass{child: r.Node != "lesson", part: part}
		if got[c] == nil {
			got[c] = &sums{}
		}
		s := got[c]
		s.requests++
		s.completion += r.Usage.Completion
		if r.Messages == 2 { // system and kickoff: a subagent's first
			s.firsts++
			s.bytes += r.Bytes
		}
	}
	if len(got) != len(calibrated) {
		t.Fatalf("the recording has %d classes of level, the calibration %d", len(got), len(calibrated))
	}
	for c, want := range calibrated {
		s := got[c]
		if s == nil || s.firsts == 0 {
			t.Fatalf("%+v: not in the recording", c)
		}
		turns := float64(s.requests) / float64(s.firsts)
		completion := int64(math.Round(float64(s.completion) / float64(s.requests)))
		bytes := s.bytes / s.firsts
		if turns != want.Turns || completion != want.Completion {
			t.Errorf("%+v: measured %.2f turns, %d completion tokens a request; calibrated %v, %d", c, turns, completion, want.Turns, want.Completion)
		}
		// The recording holds requests re-encoded, not the bytes sent.
		if math.Abs(float64(bytes-want.FirstBytes)) > 0.02*float64(want.FirstBytes) {
			t.Errorf("%+v: first requests of %d bytes measured, %d calibrated", c, bytes, want.FirstBytes)
		}
	}
}
