package fakellm

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// ImagesOptions make the server answer POST /v1/images/generations as
// OpenAI does: one picture per request, as b64_json. A script without
// them answers that route 404 "File Not Found", as llama.cpp's server
// does (Ollama answers 404 too): neither has the images API.
type ImagesOptions struct {
	// Width and Height of the PNG each answer holds (default 64×32): red
	// on its left half, blue on its right (picturetest.TwoColourPNG).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Status, when set, is answered instead, with Message: e.g. 400 "image
	// generation is not supported", as a gateway in front of a chat-only
	// model says, or 500 for a failure to retry.
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	// Style is the server whose answers and refusals are imitated:
	// "" an OpenAI-shaped answer to any request; ImagesOpenAI, ImagesLlamaCpp
	// and ImagesVLLMOmni as below.
	Style string `json:"style,omitempty"`
	// HeaderOnly answers a hostile server's picture instead: a PNG of a
	// few bytes whose header declares Width×Height pixels
	// (picturetest.HeaderPNG). No real server sends it; a run must refuse
	// it from its header, before decoding.
	HeaderOnly bool `json:"header_only,omitempty"`
	// Delay holds each answer back this long: an image model takes tens
	// of seconds a picture (OpenAI's guide: up to two minutes for
	// complex prompts).
	Delay Duration `json:"delay,omitempty"`
	// Stall is how many image requests get no answer at all, until the
	// client hangs up or the server closes (-1: every one): a stalled
	// connection, as a proxy that lost its upstream leaves it.
	Stall int `json:"stall,omitempty"`
	// Endless answers 200 with a b64_json that never ends, as a runaway
	// server or proxy may: the client's cap on what it reads must stop it.
	Endless bool `json:"endless,omitempty"`
}

// Image servers Style imitates.
const (
	// ImagesOpenAI: a request without a model falls back to the removed
	// dall-e-2 (404 model_not_found), a GPT image model refuses
	// response_format (400 "Unknown parameter: 'response_format'."), and
	// the answer is b64_json (servers.md, "OpenAI images").
	ImagesOpenAI = "openai"
	// ImagesLlamaCpp: llama.cpp's server with a media generation model
	// (tools/server/server-mediagen.cpp, post_images_generations): n must
	// be 1, response_format b64_json if sent, any model name; the answer
	// carries revised_prompt and a zero usage.
	ImagesLlamaCpp = "llama.cpp"
	// ImagesVLLMOmni: vLLM-Omni (vllm_omni/entrypoints/openai/protocol/
	// images.py, ImageGenerationResponse): b64_json by default, "url"
	// refused, the answer with output_format, size and null extras.
	ImagesVLLMOmni = "vllm-omni"
)

const imagesPath = "/v1/images/generations"

// imageReply answers an image request.
func (s *Server) imageReply(body []byte) reply {
	opt := s.script.Images
	if opt == nil {
		return errorReply(http.StatusNotFound, "File Not Found")
	}
	var req struct {
		Prompt         string  `json:"prompt"`
		Model          string  `json:"model"`
		N              *int    `json:"n"`
		ResponseFormat *string `json:"response_format"`
		Size           string  `json:"size"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Prompt == "" {
		return errorReply(http.StatusBadRequest, "fakellm: an image request needs a prompt")
	}
	if opt.Stall < 0 || s.imageStalls.Add(1) <= int64(opt.Stall) {
		return reply{hang: true}
	}
	if opt.Status != 0 {
		return errorReply(opt.Status, opt.Message)
	}
	if opt.Endless {
		return endlessImage()
	}
	w, h := opt.Width, opt.Height
	if w <= 0 || h <= 0 {
		w, h = 64, 32
	}
	draw := picturetest.TwoColourPNG
	if opt.HeaderOnly {
		draw = picturetest.HeaderPNG
	}
	png := base64.StdEncoding.EncodeToString(draw(w, h))
	created := max(s.script.Created, 1)
	format := ""
	if req.ResponseFormat != nil {
		format = *req.ResponseFormat
	}
	switch opt.Style {
	case ImagesOpenAI:
		gptImage := strings.HasPrefix(req.Model, "gpt-image-") || req.Model == "chatgpt-image-latest"
		switch {
		case req.Model == "":
			return reply{status: http.StatusNotFound, body: `{"error":{"message":"The model ` + "`dall-e-2`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`}
		case gptImage && req.ResponseFormat != nil:
			return reply{status: http.StatusBadRequest, body: `{"error":{"message":"Unknown parameter: 'response_format'.","type":"invalid_request_error","param":"response_format","code":"unknown_parameter"}}`}
		case !gptImage && format != "b64_json":
			return errorReply(http.StatusBadRequest, "fakellm: a DALL·E answer without response_format b64_json is a URL, which fakellm does not serve")
		}
	case ImagesLlamaCpp:
		switch {
		case req.N != nil && *req.N != 1:
			return reply{status: http.StatusBadRequest, body: `{"error":{"code":400,"message":"only n=1 is supported","type":"invalid_request_error"}}`}
		case req.ResponseFormat != nil && format != "b64_json":
			return reply{status: http.StatusBadRequest, body: `{"error":{"code":400,"message":"only response_format=b64_json is supported","type":"invalid_request_error"}}`}
		}
		return reply{status: http.StatusOK, body: fmt.Sprintf(`{"created":%d,"data":[{"b64_json":%q,"revised_prompt":%q}],"usage":{"input_tokens":0,"output_tokens":0,"total_tokens":0}}`, created, png, req.Prompt)}
	case ImagesVLLMOmni:
		if req.ResponseFormat != nil && format != "b64_json" && format != "file" {
			return errorReply(http.StatusBadRequest, "Only 'b64_json' or 'file' response format is supported, got: "+format)
		}
		return reply{status: http.StatusOK, body: fmt.Sprintf(`{"created":%d,"data":[{"b64_json":%q,"url":null,"revised_prompt":null}],"output_format":"png","size":%q,"cot_output":null,"metrics":null}`, created, png, cmp.Or(req.Size, fmt.Sprintf("%dx%d", w, h)))}
	}
	return reply{status: http.StatusOK, body: fmt.Sprintf(`{"created":%d,"data":[{"b64_json":%q}]}`, created, png)}
}

// endlessImage is an image answer whose b64_json never ends, written
// piece by piece from one reused block.
func endlessImage() reply {
	block := []byte(strings.Repeat("A", runawayBlock))
	write := func(ctx context.Context, w io.Writer) {
		if _, err := io.WriteString(w, `{"created":1,"data":[{"b64_json":"`); err != nil {
			return
		}
		for ctx.Err() == nil {
			if _, err := w.Write(block); err != nil {
				return
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
	}
	return reply{status: http.StatusOK, write: write}
}
