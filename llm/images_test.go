package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/llm"
)

// A server with the images API answers with the picture's bytes, asked
// for as b64_json; the key is sent, never shown.
func TestGenerateImage(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Width: 30, Height: 10}})
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "m", ImageModel: "dall-e-3", ImageResponseFormat: true})
	if err != nil {
		t.Fatal(err)
	}
	data, n, err := c.GenerateImage(context.Background(), "a leaf")
	if err != nil || n != 1 || string(data) != string(picturetest.TwoColourPNG(30, 10)) {
		t.Fatalf("GenerateImage = %d bytes, %d attempts, %v", len(data), n, err)
	}
	body := string(srv.Requests()[0].Body)
	for _, want := range []string{`"prompt":"a leaf"`, `"response_format":"b64_json"`, `"model":"dall-e-3"`, `"n":1`} {
		if !strings.Contains(body, want) {
			t.Errorf("request %s lacks %s", body, want)
		}
	}
	if p := srv.Requests()[0].Path; p != "/v1/images/generations" {
		t.Errorf("asked %s", p)
	}
}

// Each image server is asked what it takes and its answer read: OpenAI's
// GPT image models refuse response_format (chatgpt-image-latest was sent
// it, issue #36), llama.cpp's mediagen and vLLM-Omni are sent no model
// they would not know and answer b64_json in their own shapes.
func TestGenerateImageOnEachServer(t *testing.T) {
	for _, tc := range []struct{ style, model string }{
		{fakellm.ImagesOpenAI, "chatgpt-image-latest"},
		{fakellm.ImagesOpenAI, "gpt-image-2.6-sunburst"},
		{fakellm.ImagesLlamaCpp, ""},
		{fakellm.ImagesVLLMOmni, ""},
	} {
		t.Run(tc.style+" "+tc.model, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Width: 8, Height: 4, Style: tc.style}})
			c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "m", ImageModel: tc.model})
			if err != nil {
				t.Fatal(err)
			}
			data, _, err := c.GenerateImage(context.Background(), "a leaf")
			if err != nil || string(data) != string(picturetest.TwoColourPNG(8, 4)) {
				t.Fatalf("GenerateImage = %d bytes, %v\nrequest %s", len(data), err, srv.Requests()[0].Body)
			}
			if body := string(srv.Requests()[0].Body); strings.Contains(body, "response_format") {
				t.Errorf("request %s carries response_format", body)
			}
		})
	}
	// The fake's OpenAI refuses what the API does: no model (the removed
	// dall-e-2) and response_format to a GPT image model.
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Style: fakellm.ImagesOpenAI}})
	for _, cfg := range []llm.Config{{}, {ImageModel: "gpt-image-2.6-flare", ImageResponseFormat: true}} {
		cfg.BaseURL, cfg.APIKey, cfg.Model, cfg.Clock = srv.URL(), fakellm.DummyAPIKey, "m", llm.NoWait
		c, err := llm.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.GenerateImage(context.Background(), "a leaf"); err == nil {
			t.Errorf("%+v: no error from the fake OpenAI", cfg.ImageModel)
		}
	}
}

// A server without the endpoint is told from a failed request: 404, 405,
// 501, or a 400 that says the request is unsupported is
// ErrNoImageEndpoint, asked once; a 500 is retried; a 400 for another
// reason is a plain failure.
func TestGenerateImageWithoutEndpoint(t *testing.T) {
	for _, c := range []struct {
		status  int
		message string
		missing bool
		tries   int
	}{
		{404, "File Not Found", true, 1}, // llama.cpp's server
		{405, "method not allowed", true, 1},
		{501, "not implemented", true, 1},
		{400, "image generation is not supported by this model", true, 1},
		{400, "your prompt was refused by the safety system", false, 1},
		{500, "boom", false, 3},
	} {
		t.Run(fmt.Sprint(c.status, c.message), func(t *testing.T) {
			var asked atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.status)
				fmt.Fprintf(w, `{"error":{"message":%q}}`, c.message)
			}))
			defer srv.Close()
			cl, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: fakellm.DummyAPIKey, Model: "m", MaxRetries: 2, Clock: llm.NoWait})
			if err != nil {
				t.Fatal(err)
			}
			_, n, err := cl.GenerateImage(context.Background(), "a leaf")
			if errors.Is(err, llm.ErrNoImageEndpoint) != c.missing || err == nil {
				t.Errorf("err = %v, missing endpoint %v", err, c.missing)
			}
			if n != c.tries || int(asked.Load()) != c.tries {
				t.Errorf("%d attempts counted, %d made, want %d", n, asked.Load(), c.tries)
			}
			if strings.Contains(err.Error(), fakellm.DummyAPIKey) {
				t.Errorf("the key is in %v", err)
			}
		})
	}
}
