package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The transport hook sees every attempt as sent, and what it answers is
// decoded by the real client: a wrapper that never calls the base
// transport opens no connection.
func TestWrapTransportAnswersInsteadOfTheNetwork(t *testing.T) {
	var seen []string
	c := newClient(t, Config{
		BaseURL: "http://127.0.0.1:1/v1", // nothing listens; only the hook answers
		APIKey:  testKey,
		WrapTransport: func(base http.RoundTripper) http.RoundTripper {
			if base == nil {
				t.Error("the hook got no base transport")
			}
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				body, _ := io.ReadAll(r.Body)
				seen = append(seen, r.Header.Get("Authorization")+" "+string(body))
				answer := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"from the hook"}}]}`
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
					Body: io.NopCloser(bytes.NewReader([]byte(answer))), Request: r}, nil
			})
		},
	})
	res, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Message.Content != "from the hook" {
		t.Fatalf("content = %q", res.Message.Content)
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "Bearer "+testKey+" ") || !strings.Contains(seen[0], `"content":"hi"`) {
		t.Fatalf("the hook saw %q", seen)
	}
}
