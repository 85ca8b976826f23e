package llm

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/lessongen/lessongen/internal/imagefile"
)

// ErrNoImageEndpoint means the server has no image endpoint (POST
// /images/generations): llama.cpp's server and Ollama answer 404 there,
// some gateways 405 or 501, others 400 saying the request is unsupported.
// Asking again for another picture meets the same answer.
var ErrNoImageEndpoint = errors.New("model server has no image endpoint")

// ImageSize is the size asked for: the one every image model of the
// OpenAI images API draws (a board fits it to its box, keeping its aspect).
const ImageSize = openai.ImageGenerateParamsSize1024x1024

type imageService struct {
	svc   openai.ImageService
	model string
	// responseFormat sends response_format: b64_json (Config.ImageResponseFormat).
	responseFormat bool
	// server names the server in messages: scheme and host, no
	// credentials, no path.
	server string
}

func newImageService(u *url.URL, model string, responseFormat bool, opts []option.RequestOption) imageService {
	return imageService{svc: openai.NewImageService(opts...), model: model, responseFormat: responseFormat, server: u.Scheme + "://" + u.Host}
}

// MaxImageAnswerBytes caps what is read of one image answer, in place
// of Config.MaxAnswerBytes (chat answers): the base64 of the largest
// picture a lesson may hold (imagefile.MaxBytes), and room for the
// JSON around it (revised_prompt, usage). openai-go reads the body
// whole before decoding it.
var MaxImageAnswerBytes = int64(base64.StdEncoding.EncodedLen(imagefile.MaxBytes)) + 64<<10

// GenerateImage asks the server's image endpoint for one picture drawn
// from prompt, answered as base64 (b64_json), with the waits and retries
// of Complete: each attempt within AttemptTimeout, all of them within
// TurnTimeout, transient failures retried (at most MaxRetries) through
// the shared limiter. It returns the picture's bytes as sent (the caller
// checks what they are) and the HTTP attempts made. A server without the
// endpoint fails with ErrNoImageEndpoint.
func (c *Client) GenerateImage(ctx context.Context, prompt string) (data []byte, attempts int, err error) {
	params := openai.ImageGenerateParams{Prompt: prompt, N: openai.Int(1), Size: ImageSize}
	if c.images.model != "" {
		params.Model = openai.ImageModel(c.images.model)
	}
	// Only DALL·E-style models take the field (and answer a URL without
	// it); GPT image models always answer b64_json and refuse it with 400
	// "Unknown parameter: 'response_format'.", and llama.cpp's mediagen
	// and vLLM-Omni answer b64_json by default.
	if c.images.responseFormat {
		params.ResponseFormat = openai.ImageGenerateParamsResponseFormatB64JSON
	}
	parent := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.timeout, errTurnTimeout{})
		defer cancel()
	}
	var last *ProviderError
	for {
		epoch, err := c.limiter.admit(ctx)
		if err != nil {
			return nil, attempts, c.stopped(parent, ctx, err, last)
		}
		attempts++
		out, res, err := c.sendImage(ctx, params, attempts)
		if err == nil {
			c.limiter.succeeded()
			return c.images.picture(out, attempts)
		}
		if ctx.Err() != nil {
			return nil, attempts, c.stopped(parent, ctx, err, last)
		}
		last = err.(*ProviderError) // sendImage returns one unless ctx ended
		if c.images.missing(last) {
			return nil, attempts, fmt.Errorf("%s answered %d to POST /images/generations (%s): %w", c.images.server, last.StatusCode, last.Message, ErrNoImageEndpoint)
		}
		delay, ok := retryDelay(res, attempts-1, c.clock.Now())
		limited := last.StatusCode == http.StatusTooManyRequests
		if limited {
			// As Complete: every other caller holds back too.
			c.limiter.rateLimited(epoch, min(delay, maxRetryAfter))
		}
		if !last.Retryable || attempts > c.maxRetries || !ok {
			return nil, attempts, last
		}
		if dl, has := ctx.Deadline(); has && time.Until(dl) < delay {
			return nil, attempts, last
		}
		if limited {
			continue
		}
		if err := c.clock.Sleep(ctx, delay); err != nil {
			return nil, attempts, c.stopped(parent, ctx, err, last)
		}
	}
}

// sendImage makes one image attempt under its own deadline, as send
// does for a chat turn, reading at most MaxImageAnswerBytes.
func (c *Client) sendImage(ctx context.Context, params openai.ImageGenerateParams, attempt int) (*openai.ImagesResponse, *http.Response, error) {
	actx := withAnswerCap(ctx, MaxImageAnswerBytes)
	if c.attempt > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(actx, c.attempt, errAttemptTimeout{})
		defer cancel()
	}
	var res *http.Response
	out, err := c.images.svc.Generate(actx, params, option.WithResponseInto(&res))
	var tooLarge *AnswerTooLargeError
	switch {
	case err == nil:
		return out, res, nil
	case ctx.Err() != nil:
		return nil, res, err
	case errors.As(err, &tooLarge):
		// Not retried: the same server sends the same picture again.
		return nil, res, &ProviderError{StatusCode: http.StatusOK, Attempts: attempt, kind: ErrBadResponse,
			Message: fmt.Sprintf("%s; a picture a lesson may hold is at most %d MB", tooLarge.Error(), imagefile.MaxBytes>>20)}
	case errors.Is(context.Cause(actx), errAttemptTimeout{}):
		return nil, res, &ProviderError{
			Message:   fmt.Sprintf("no picture within the attempt timeout of %s", c.attempt),
			Retryable: true, Attempts: attempt, kind: context.DeadlineExceeded,
		}
	}
	return nil, res, classify(err, res, attempt, c.red)
}

// missing reports whether a failure says the endpoint is not there, as
// opposed to this one request failing.
func (s imageService) missing(pe *ProviderError) bool {
	switch pe.StatusCode {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return true
	case http.StatusBadRequest:
		m := strings.ToLower(pe.Message)
		return strings.Contains(m, "not supported") || strings.Contains(m, "unsupported") || strings.Contains(m, "not implemented")
	}
	return false
}

// picture decodes the one picture of an answer.
func (s imageService) picture(out *openai.ImagesResponse, attempts int) ([]byte, int, error) {
	if len(out.Data) == 0 || out.Data[0].B64JSON == "" {
		return nil, attempts, &ProviderError{StatusCode: http.StatusOK, Attempts: attempts, kind: ErrBadResponse,
			Message: "the image answer holds no b64_json picture"}
	}
	data, err := base64.StdEncoding.DecodeString(out.Data[0].B64JSON)
	if err != nil {
		return nil, attempts, &ProviderError{StatusCode: http.StatusOK, Attempts: attempts, kind: ErrBadResponse,
			Message: "the image answer's b64_json is not base64: " + err.Error()}
	}
	return data, attempts, nil
}

// Server names the server a client talks to, for messages: scheme and
// host only, never credentials.
func (c *Client) Server() string { return c.images.server }
