package orchestrate

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/render"
)

// reviewScript draws a board, fixes it in the review turn, then stops.
var reviewScript = fakellm.Script{Rules: []fakellm.Rule{
	{Match: []string{"(whiteboard.metadata)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
		{Name: "set_heading", Arguments: `{"heading":"H"}`}, {Name: "set_layout", Arguments: `{"layout":"L"}`}}}}},
	{Match: []string{"(whiteboard.node)"}, Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.FakeCall{{Name: "add_text", Arguments: `{"id":"t","x":40,"y":140,"w":300,"h":40,"text":"Halfs"}`}}},
		{ToolCalls: []fakellm.FakeCall{{Name: "update_element", Arguments: `{"id":"t","text":"Halves"}`}}},
		{Content: "Looks right."}}},
}}

// reviewImages runs script over n boards with --review and shoot, the
// state kept in a folder; it returns the server, the run's events and
// the state folder.
func reviewImages(t *testing.T, script fakellm.Script, n int, shoot func(context.Context, string) ([]byte, error)) (*fakellm.Server, []event.Event, string) {
	t.Helper()
	srv := fakellm.Start(t, script)
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Load(writeLesson(t, n, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, model, 1)
	opts.Review, opts.Shoot, opts.StateDir = true, shoot, t.TempDir()
	var mu sync.Mutex
	var events []event.Event
	opts.Events = func(e event.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("%v %+v", err, report.Incomplete())
	}
	files, err := doc.Render("")
	if err != nil {
		t.Fatal(err)
	}
	if saved := string(files[len(files)-1].Data); strings.Count(saved, "text: Halves") != n {
		t.Errorf("the review's fixes are not all saved:\n%s", saved)
	}
	return srv, events, opts.StateDir
}

// imageURLs are the image parts' URLs of a request body's messages.
func imageURLs(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, m := range req.Messages {
		var parts []struct {
			Type     string `json:"type"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for _, p := range parts {
			if p.Type == "image_url" {
				urls = append(urls, p.ImageURL.URL)
			}
		}
	}
	return urls
}

// TestReviewImagesSendsBoard: with a browser, the review turn carries the
// board as drawn, a PNG of the canvas's size as a data URL, and the saved
// conversation holds a marker in its place, not the image.
func TestReviewImagesSendsBoard(t *testing.T) {
	path, err := render.FindBrowser("")
	if err != nil {
		t.Skipf("skipping --review-images with a real browser: %v", err)
	}
	shooter := render.NewShooter(path)
	defer shooter.Close()
	shoot := func(ctx context.Context, body string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		return shooter.Shot(ctx, body)
	}
	srv, _, state := reviewImages(t, reviewScript, 1, shoot)
	var review []byte
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), "Review what you made") {
			review = r.Body
			break
		}
	}
	urls := imageURLs(t, review)
	if len(urls) != 1 {
		t.Fatalf("the review request has %d image parts, want 1", len(urls))
	}
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(urls[0], prefix) {
		t.Fatalf("the image is not a PNG data URL: %.60s", urls[0])
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(urls[0], prefix))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the image does not start with PNG's magic: %q", data[:8])
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 1280 || cfg.Height != 720 {
		t.Errorf("the image is %dx%d (%v), want the canvas's 1280x720", cfg.Width, cfg.Height, err)
	}
	// The image goes once per request, not once per turn since the review.
	for _, r := range srv.Requests() {
		if n := len(imageURLs(t, r.Body)); n > 1 {
			t.Errorf("a request carries %d images", n)
		}
	}
	hist := readState(t, state)
	if strings.Contains(hist, urls[0][len(prefix):len(prefix)+40]) || strings.Contains(hist, "data:image") {
		t.Error("the saved conversation holds the image's base64")
	}
	if want := "[image: board as drawn, " + strconv.Itoa(len(data)) + " bytes]"; !strings.Contains(hist, want) {
		t.Errorf("the saved conversation lacks %q", want)
	}
}

// readState is every file of the state folder, joined.
func readState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReviewImagesRefused: llama-server without --mmproj refuses image
// input. The refused review is sent again as text with a warning, and
// later boards' reviews send no image: the run completes.
func TestReviewImagesRefused(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	shots := 0
	shoot := func(context.Context, string) ([]byte, error) { shots++; return buf.Bytes(), nil }
	script := reviewScript
	script.Quirks.LlamaCppNoImages = true
	srv, events, _ := reviewImages(t, script, 2, shoot)
	withImage, reviews := 0, 0
	for _, r := range srv.Requests() {
		if len(imageURLs(t, r.Body)) > 0 {
			withImage++
		}
		if strings.Contains(string(r.Body), "Review what you made") && strings.Contains(string(r.Body), "Halfs") && !strings.Contains(string(r.Body), "Halves") {
			reviews++
		}
	}
	if withImage != 1 || shots != 1 {
		t.Errorf("%d requests carried an image and %d shots were taken, want 1 each: after a refusal the run sends none", withImage, shots)
	}
	var warned []string
	for _, e := range events {
		if e.Kind == event.Warning {
			warned = append(warned, e.Text)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "refused the review's image") || !strings.Contains(warned[0], "image input is not supported") {
		t.Errorf("warnings %q, want one naming the refusal", warned)
	}
	// Two boards: the refused review, its text resend, the second board's.
	if reviews != 3 {
		t.Errorf("%d review requests, want 3", reviews)
	}
}
