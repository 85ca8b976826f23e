package llm

import (
	"net/http"
	"testing"
)

// Servers' refusals of image input are told apart from other failures.
func TestImageRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		// llama-server without --mmproj.
		{&ProviderError{StatusCode: 500, Message: "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"}, true},
		// OpenAI, a text-only model.
		{&ProviderError{StatusCode: 400, Message: "Invalid content type. image_url is only supported by certain models."}, true},
		{&ProviderError{StatusCode: 400, Message: "Qwen/Qwen2.5-7B is not a multimodal model"}, true},
		{&ProviderError{StatusCode: http.StatusTooManyRequests, Message: "too many image requests"}, false},
		{&ProviderError{StatusCode: 400, Message: "the request exceeds the available context size"}, false},
		{&ProviderError{StatusCode: 0, Message: "connection refused"}, false},
	} {
		if got := ImageRefused(c.err); got != c.want {
			t.Errorf("ImageRefused(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if fix, _ := setupFix("image input is not supported - hint: ..."); fix == "" {
		t.Error("llama.cpp's image refusal names no fix, so it would be retried")
	}
}
