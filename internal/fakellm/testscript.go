package fakellm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// DummyAPIKey is the key `fakellm start` puts in LESSONGEN_API_KEY: long
// enough to be redacted, and plainly not real.
const DummyAPIKey = "sk-test-not-a-real-key-123456"

// waitCap bounds `fakellm wait`, so a scenario whose program never calls
// fails instead of hanging the test run.
const waitCap = 10 * time.Second

// holderKey is the testscript Values key of the per-script server slot.
type holderKey struct{}

type holder struct{ srv *Server }

// Setup gives each script a slot for its server. Call it from
// testscript.Params.Setup; Cmd needs it.
func Setup(env *testscript.Env) error {
	env.Values[holderKey{}] = &holder{}
	return nil
}

// Cmd implements the testscript command `fakellm`:
//
//	fakellm start SCRIPTFILE  start a server scripted by SCRIPTFILE (JSON), set
//	                          LESSONGEN_BASE_URL to its URL and
//	                          LESSONGEN_API_KEY to DummyAPIKey
//	fakellm requests N        fail unless exactly N requests were received
//	                          (with !, unless the count differs)
//	fakellm wait N            block until at least N requests arrived (10s cap)
//	fakellm dump FILE         write every request body, one JSON per line
//	fakellm release           let held answers ("hold": true) go
//	fakellm conns N           fail unless exactly N connections were accepted
//	fakellm peak N            fail unless at some moment at least N requests
//	                          were being answered at once (a request the
//	                          client cut counts until the server sees the
//	                          hang-up, so no upper bound is checked)
//	fakellm stop              close the server (its counts stay readable)
//	fakellm run-batch DIR N   answer N round files written to DIR as vLLM's
//	                          offline runner would (Server.RunBatch), each
//	                          as it appears (10s cap for each)
//
// A second start replaces the first server. The server closes when the
// script ends.
func Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 && (len(args) != 1 || (args[0] != "release" && args[0] != "stop")) && (len(args) != 3 || args[0] != "run-batch") {
		ts.Fatalf("usage: fakellm start SCRIPTFILE | requests N | wait N | dump FILE | release | conns N | peak N | stop | run-batch DIR N")
	}
	h, _ := ts.Value(holderKey{}).(*holder)
	if h == nil {
		ts.Fatalf("fakellm: add fakellm.Setup to testscript.Params.Setup")
	}
	if neg && args[0] != "requests" {
		ts.Fatalf("fakellm %s does not support !", args[0])
	}
	if args[0] != "start" && h.srv == nil {
		ts.Fatalf("fakellm %s: no server; run fakellm start first", args[0])
	}

	switch args[0] {
	case "start":
		s, err := ParseScript([]byte(ts.ReadFile(args[1])))
		ts.Check(err)
		srv, err := StartServer(s)
		ts.Check(err)
		if h.srv != nil {
			h.srv.Close()
		}
		h.srv = srv
		ts.Defer(srv.Close)
		ts.Setenv("LESSONGEN_BASE_URL", srv.URL())
		ts.Setenv("LESSONGEN_API_KEY", DummyAPIKey)

	case "requests":
		want := atoi(ts, args[1])
		got := h.srv.RequestCount()
		switch {
		case !neg && got != want:
			ts.Fatalf("fakellm: got %d requests, want %d", got, want)
		case neg && got == want:
			ts.Fatalf("fakellm: got %d requests, want any other number", got)
		}

	case "wait":
		ctx, cancel := context.WithTimeout(context.Background(), waitCap)
		defer cancel()
		ts.Check(h.srv.WaitForRequests(ctx, atoi(ts, args[1])))

	case "release":
		h.srv.Release()

	case "stop":
		h.srv.Close()

	case "run-batch":
		if len(args) != 3 {
			ts.Fatalf("usage: fakellm run-batch DIR N")
		}
		ts.Check(h.srv.runBatchDir(ts.MkAbs(args[1]), atoi(ts, args[2])))

	case "conns":
		if got, want := h.srv.Conns(), atoi(ts, args[1]); got != want {
			ts.Fatalf("fakellm: %d connections accepted, want %d", got, want)
		}

	case "peak":
		if got, want := h.srv.PeakInFlight(), atoi(ts, args[1]); got < want {
			ts.Fatalf("fakellm: at most %d requests were answered at once, want %d", got, want)
		}

	case "dump":
		var buf bytes.Buffer
		for _, r := range h.srv.Requests() {
			line := compactJSON(r.Body)
			buf.Write(line)
			buf.WriteByte('\n')
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), buf.Bytes(), 0o666))

	default:
		ts.Fatalf("fakellm: unknown subcommand %q", args[0])
	}
}

func atoi(ts *testscript.TestScript, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		ts.Fatalf("fakellm: %q is not a count", s)
	}
	return n
}

// compactJSON puts a body on one line; a body that is not JSON becomes a
// JSON string, so every line of a dump parses.
func compactJSON(body []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, body) == nil {
		return buf.Bytes()
	}
	b, _ := json.Marshal(string(body))
	return b
}

// ServerOf returns the server `fakellm start` started in this script, or
// nil, for other testscript commands that need to watch it.
func ServerOf(ts *testscript.TestScript) *Server {
	if h, _ := ts.Value(holderKey{}).(*holder); h != nil {
		return h.srv
	}
	return nil
}
