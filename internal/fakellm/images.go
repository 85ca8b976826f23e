package fakellm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"

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
	// HeaderOnly answers a hostile server's picture instead: a PNG of a
	// few bytes whose header declares Width×Height pixels
	// (picturetest.HeaderPNG). No real server sends it; a run must refuse
	// it from its header, before decoding.
	HeaderOnly bool `json:"header_only,omitempty"`
}

const imagesPath = "/v1/images/generations"

// imageReply answers an image request.
func (s *Server) imageReply(body []byte) reply {
	opt := s.script.Images
	if opt == nil {
		return errorReply(http.StatusNotFound, "File Not Found")
	}
	var req struct {
		Prompt string `json:"prompt"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Prompt == "" {
		return errorReply(http.StatusBadRequest, "fakellm: an image request needs a prompt")
	}
	if opt.Status != 0 {
		return errorReply(opt.Status, opt.Message)
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
	return reply{status: http.StatusOK, body: fmt.Sprintf(`{"created":%d,"data":[{"b64_json":%q}]}`, max(s.script.Created, 1), png)}
}
