// Package replay records a run's model requests and answers as JSON Lines
// (Recorder) and answers a later run from such a recording with no network
// (Replayer). Both are http.RoundTrippers under the real model client, so
// the client's encoding, decoding and retries run as they do against a
// server.
//
// A request is found by its key: the sha256 of its canonical JSON body
// (object keys sorted, no insignificant whitespace), which holds the model,
// the messages, the tool definitions and the sampling settings. Requests
// with the same key are answered in the order they were recorded, so a
// replay does not depend on the order concurrent requests arrive in.
package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Format is the version of the recording format, on its first line.
const Format = 1

// header is a recording's first line.
type header struct {
	Format int    `json:"format"`
	Note   string `json:"note,omitempty"`
}

// entry is one answered request: every further line of a recording.
type entry struct {
	Key string `json:"key"`
	// Request is the canonical request body.
	Request     json.RawMessage `json:"request"`
	Status      int             `json:"status"`
	ContentType string          `json:"content_type,omitempty"`
	// Response is the answer body when it is JSON (compacted), else
	// ResponseText holds it verbatim (a streamed answer).
	Response     json.RawMessage `json:"response,omitempty"`
	ResponseText *string         `json:"response_text,omitempty"`
}

// body returns the answer's bytes as they are served.
func (e *entry) body() []byte {
	if e.ResponseText != nil {
		return []byte(*e.ResponseText)
	}
	return e.Response
}

// Canonical returns body as canonical JSON: keys sorted, no insignificant
// whitespace, numbers as written, no HTML escaping. Two requests that
// differ only in key order or spacing have the same canonical form.
func Canonical(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("request body is not JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("request body has data after its JSON value")
	}
	return marshal(v)
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // maps encode with sorted keys
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Key is the lookup key of a canonical request.
func Key(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}
