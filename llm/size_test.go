package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRequestBytesIsTheBodySent: the estimate's bytes are the wire body's.
func TestRequestBytesIsTheBodySent(t *testing.T) {
	var sent int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sent = len(body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}]}`)
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{
		Messages: []Message{{Role: RoleSystem, Content: "You write \"lessons\".\n"}, {Role: RoleUser, Content: "go"}},
		Tools:    []Tool{{Name: "add_text", Description: "adds text", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}},
	}
	n, err := c.RequestBytes(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if n != sent || n == 0 {
		t.Errorf("RequestBytes = %d, the body sent was %d bytes", n, sent)
	}
}
