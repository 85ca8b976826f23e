package replay

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCanonicalIgnoresKeyOrderAndSpace(t *testing.T) {
	a, err := Canonical([]byte(`{"model":"m","messages":[{"role":"user","content":"<a&b>"}],"temperature":0.50}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Canonical([]byte("{\n  \"temperature\": 0.50,\n  \"messages\": [ {\"content\":\"<a&b>\", \"role\":\"user\"} ],\n  \"model\": \"m\"\n}"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || Key(a) != Key(b) {
		t.Fatalf("canonical forms differ:\n%s\n%s", a, b)
	}
	if want := `{"messages":[{"content":"<a&b>","role":"user"}],"model":"m","temperature":0.50}`; string(a) != want {
		t.Fatalf("canonical = %s, want %s", a, want)
	}
	c, _ := Canonical([]byte(`{"model":"m","messages":[{"role":"user","content":"<a&b>"}],"temperature":0.5}`))
	if Key(c) == Key(a) {
		t.Fatal("a different number spelling must be a different request: the client sends it as written")
	}
	if _, err := Canonical([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

const secret = "sk-test-secret-key-0123456789"

// server answers each request with a counter, so answers to identical
// requests differ.
func server(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer "+secret {
			t.Errorf("no key sent")
		}
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(body), "fail") {
			w.WriteHeader(http.StatusInternalServerError)
		}
		io.WriteString(w, `{"n": `+string(rune('0'+n.Add(1)))+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func post(t *testing.T, rt http.RoundTripper, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	res, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func record(t *testing.T, bodies ...string) (string, []string) {
	t.Helper()
	srv, _ := server(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(f, "test", func(s string) string { return strings.ReplaceAll(s, secret, "[key]") })
	if err != nil {
		t.Fatal(err)
	}
	rt := rec.Wrap(http.DefaultTransport)
	var answers []string
	for _, b := range bodies {
		_, a := post(t, rt, srv.URL, b)
		answers = append(answers, a)
	}
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, answers
}

func TestReplayAnswersAsRecordedInOrderPerKey(t *testing.T) {
	same := `{"messages":[{"role":"user","content":"hi"}]}`
	path, answers := record(t, same, `{"messages":[{"role":"user","content":"other"}]}`, same, `{"messages":[{"role":"user","content":"fail"}]}`)
	rp, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Len() != 4 {
		t.Fatalf("%d answers loaded, want 4", rp.Len())
	}
	// Another order, another spelling: each key's answers come in the
	// order recorded, whatever order the requests arrive in.
	reordered := `{ "messages" : [ {"content":"hi", "role":"user"} ] }`
	for _, c := range []struct {
		body, want string
		status     int
	}{
		{`{"messages":[{"content":"fail","role":"user"}]}`, answers[3], 500},
		{reordered, answers[0], 200},
		{`{"messages":[{"role":"user","content":"other"}]}`, answers[1], 200},
		{same, answers[2], 200},
	} {
		status, got := post(t, rp, "http://127.0.0.1:1/never", c.body)
		if status != c.status || got != string(compact(c.want)) {
			t.Errorf("%s: got %d %s, want %d %s", c.body, status, got, c.status, c.want)
		}
	}
	if rp.Err() != nil {
		t.Fatal(rp.Err())
	}
	var missed error
	rp.onMiss = func(err error) { missed = err }
	status, got := post(t, rp, "http://127.0.0.1:1/never", same)
	if status != http.StatusBadRequest || !strings.Contains(got, "holds no answer") {
		t.Fatalf("a third ask got %d %s", status, got)
	}
	if missed == nil || rp.Err() == nil || !strings.Contains(rp.Err().Error(), "answers this exact request 2 time(s)") {
		t.Fatalf("miss not reported: %v / %v", missed, rp.Err())
	}
}

func compact(s string) []byte {
	var b bytes.Buffer
	if err := jsonCompact(&b, s); err != nil {
		return []byte(s)
	}
	return b.Bytes()
}

func TestRecordingHoldsNoKey(t *testing.T) {
	path, _ := record(t, `{"messages":[{"role":"user","content":"my key is `+secret+`"}]}`)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{secret, "Bearer", "Authorization", "authorization"} {
		if bytes.Contains(data, []byte(bad)) {
			t.Errorf("recording holds %q:\n%s", bad, data)
		}
	}
	if !bytes.Contains(data, []byte("[key]")) {
		t.Errorf("recording was not redacted:\n%s", data)
	}
}

func TestMissNamesTheDifference(t *testing.T) {
	rec := `{"model":"m","messages":[{"role":"system","content":"You write lessons."},{"role":"user","content":"Slide: The light reactions, 10 min"}],"tools":[{"type":"function","function":{"name":"add_text"}}]}`
	path, _ := record(t, rec)
	for _, c := range []struct{ name, now, want string }{
		{"message bytes", `{"model":"m","messages":[{"role":"system","content":"You write lessons."},{"role":"user","content":"Slide: The dark reactions, 10 min"}],"tools":[{"type":"function","function":{"name":"add_text"}}]}`,
			"message 1 (user) differs at byte 11:\n  recorded: \"Slide: The light reactions, 10 min\"\n  now:      \"Slide: The dark reactions, 10 min\""},
		{"more messages", `{"model":"m","messages":[{"role":"system","content":"You write lessons."},{"role":"user","content":"Slide: The light reactions, 10 min"},{"role":"user","content":"again"}],"tools":[{"type":"function","function":{"name":"add_text"}}]}`,
			"the recorded request ends after message 1; this one goes on with message 2 (user): \"again\""},
		{"tools", `{"model":"m","messages":[{"role":"system","content":"You write lessons."},{"role":"user","content":"Slide: The light reactions, 10 min"}],"tools":[{"type":"function","function":{"name":"add_shape"}}]}`,
			"the messages agree; tool 0 (add_shape) differs at byte"},
		{"settings", `{"model":"m2","seed":7,"messages":[{"role":"system","content":"You write lessons."},{"role":"user","content":"Slide: The light reactions, 10 min"}],"tools":[{"type":"function","function":{"name":"add_text"}}]}`,
			`the messages and tools agree; settings differ: model: recorded "m", now "m2"; seed: recorded absent, now 7`},
	} {
		rp, err := Load(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		post(t, rp, "http://127.0.0.1:1/never", c.now)
		err = rp.Err()
		if err == nil || !strings.Contains(err.Error(), "nearest recorded request: "+c.want) {
			t.Errorf("%s: got %v\nwant it to contain %s", c.name, err, c.want)
		}
	}
}

func TestLoadRefusesWhatIsNotARecording(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"empty":     "",
		"no header": `{"key":"x","request":{},"status":200}` + "\n",
		"format 2":  `{"format":2}` + "\n",
		"bad line":  `{"format":1}` + "\n" + `{"key":"x","request":{},"status":200}` + "\n" + `{"kee":1}` + "\n",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(data), 0o666)
		_, err := Load(p, nil)
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if name == "bad line" && !strings.Contains(err.Error(), ":3:") {
			t.Errorf("%s: %v does not name line 3", name, err)
		}
	}
}

func jsonCompact(b *bytes.Buffer, s string) error { return json.Compact(b, []byte(s)) }

// A streamed answer is not JSON: it is kept and served byte for byte,
// with its content type.
func TestStreamedAnswerReplaysVerbatim(t *testing.T) {
	const sse = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\ndata: [DONE]\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, part := range strings.SplitAfter(sse, "\n\n") {
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`
	if _, got := post(t, rec.Wrap(http.DefaultTransport), srv.URL, body); got != sse {
		t.Fatalf("recording changed the answer: %q", got)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(path, buf.Bytes(), 0o666)
	rp, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", "http://127.0.0.1:1/never", strings.NewReader(body))
	res, err := rp.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	if string(got) != sse || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("replayed %q (%s), want %q", got, res.Header.Get("Content-Type"), sse)
	}
}

// A client that stops reading a stream at its end marker, before EOF,
// still gets it recorded; one that stops midway does not.
func TestStreamClosedAtItsEndIsRecorded(t *testing.T) {
	for _, c := range []struct {
		read string
		want bool
	}{
		{"data: {}\n\ndata: [DONE]", true},
		{"data: {}\n\n", false},
	} {
		var got []byte
		body := &teeBody{rc: io.NopCloser(strings.NewReader("data: {}\n\ndata: [DONE]\n\n")), done: func(b []byte) { got = b }}
		io.ReadFull(body, make([]byte, len(c.read)))
		body.Close()
		if (got != nil) != c.want {
			t.Errorf("closed after %q: recorded %q, want recorded %v", c.read, got, c.want)
		}
		if c.want && string(got) != "data: {}\n\ndata: [DONE]\n\n" {
			t.Errorf("recorded %q, want the whole stream", got)
		}
	}
}
