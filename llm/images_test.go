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
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "m", ImageModel: "dall-e-3"})
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
