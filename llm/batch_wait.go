package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

func withResponse(res **http.Response) option.RequestOption { return option.WithResponseInto(res) }

// await polls batch id until it ends, then gives each line's call its
// answer or error. A batch the callers gave up on stays saved, so a rerun
// can take it up again.
func (b *Batcher) await(ctx context.Context, id string, lines map[string]*batchCall, resumed bool) {
	if b.cfg.OnBatch != nil {
		b.cfg.OnBatch(id, len(lines), resumed)
	}
	bt, pe := b.poll(ctx, id)
	if pe != nil {
		failAll(lines, pe)
		return
	}
	got := map[string]batchLine{}
	for _, file := range []string{bt.OutputFileID, bt.ErrorFileID} {
		if file == "" {
			continue
		}
		if !safeID(file) {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("the server named the batch's results file %q, which is not an id: not fetched", b.c.red.String(file))})
			return
		}
		if err := b.download(ctx, file, got); err != nil {
			failAll(lines, err)
			return
		}
	}
	// Forgotten before anyone is answered: a caller that returns may end
	// the run at once.
	b.drop(id)
	results := map[string]*batchCall{}
	for cid, c := range lines {
		results[cid] = c
	}
	b.deliver(got, results)
	// Lines the batch never ran (it expired, was cancelled or failed to
	// validate) are sent again in a later round.
	msg := fmt.Sprintf("batch %s ended %s before this request ran", id, bt.Status)
	if len(bt.Errors.Data) > 0 {
		msg += ": " + bt.Errors.Data[0].Message
	}
	ended := &ProviderError{Message: msg, Retryable: bt.Status != openai.BatchStatusFailed}
	failAll(results, ended.finish(b.c.red)) // the server's words, like any error's
}

// poll waits, with doubling waits up to PollMax, until batch id ends.
// A poll that fails transiently is retried as a chat request is
// (Config.MaxRetries in a row), and the whole wait ends at the deadline;
// either way the batch stays saved for a rerun.
func (b *Batcher) poll(ctx context.Context, id string) (*openai.Batch, *ProviderError) {
	wait := b.cfg.Poll
	deadline := b.deadline()
	start := b.c.clock.Now()
	failed := 0 // polls failed in a row
	for {
		var res *http.Response
		rctx, cancel := b.request(ctx)
		bt, err := b.batches.Get(rctx, id, withResponse(&res))
		if err != nil {
			failed++
			pe := classify(err, res, failed, b.c.red)
			cancel()
			if ctx.Err() != nil || !pe.Retryable {
				return nil, pe
			}
			if failed > b.c.maxRetries {
				// Its retries are spent here: a new round would poll the
				// same batch again.
				pe.Retryable = false
				pe.Message = fmt.Sprintf("polling batch %s failed %d times in a row (--retries %d): %s; it stays saved, so a rerun waits on it again",
					id, failed, b.c.maxRetries, pe.Message)
				return nil, pe
			}
		} else {
			cancel()
			failed = 0
			switch bt.Status {
			case openai.BatchStatusCompleted, openai.BatchStatusExpired,
				openai.BatchStatusCancelled, openai.BatchStatusFailed:
				return bt, nil
			}
		}
		left := deadline - b.c.clock.Now().Sub(start)
		if left <= 0 {
			return nil, &ProviderError{Message: fmt.Sprintf(
				"batch %s has not ended within %s of waiting on it; it stays saved, so a rerun waits on it again", id, deadline)}
		}
		if err := b.c.clock.Sleep(ctx, min(wait, left)); err != nil {
			return nil, &ProviderError{Message: fmt.Sprintf("stopped waiting for batch %s: %v", id, err)}
		}
		wait = min(wait*2, b.cfg.PollMax)
	}
}

// batchLine is one line of a batch's output or error file. Its error is
// any JSON the writer chose, so it is kept raw: OpenAI writes an object
// {"code","message"} (with "response": null when the line never ran);
// vLLM's run_batch (vllm/entrypoints/launchers/run_batch.py,
// BatchRequestOutput, whose error is typed Any) writes its ErrorResponse
// object ({"error":{"message",…,"code":400}}, before that the flat
// {"object":"error","message",…}) beside "response": {"status_code",
// "body": null}, or a string when the request raised; null when it
// answered.
type batchLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error json.RawMessage `json:"error"`

	// unread is why a line with this custom_id could not be decoded.
	unread string
}

// download reads a result file's lines into got, up to
// MaxBatchFileBytes (a result file holds a whole round, so the cap on one
// answer does not fit it).
func (b *Batcher) download(ctx context.Context, file string, got map[string]batchLine) *ProviderError {
	rctx, cancel := b.request(withAnswerCap(ctx, MaxBatchFileBytes))
	defer cancel()
	res, err := b.files.Content(rctx, file)
	if err != nil {
		return classify(err, res, 1, b.c.red)
	}
	defer res.Body.Close()
	lines, err := readLines(res.Body)
	var tooLarge *AnswerTooLargeError
	if errors.As(err, &tooLarge) {
		return (&ProviderError{Message: fmt.Sprintf("batch file %s is larger than %s, the most lessongen reads of a batch's results; split the work into smaller runs (lower --concurrency)",
			file, byteSize(MaxBatchFileBytes))}).finish(b.c.red)
	}
	if err != nil {
		return (&ProviderError{Message: fmt.Sprintf("reading batch file %s: %v", file, err), Retryable: true}).finish(b.c.red)
	}
	maps.Copy(got, lines)
	return nil
}

// readLines reads a batch output or error file by custom_id. A line that
// names a custom_id but cannot be decoded is kept, as that request's
// failure, rather than left to be waited on.
func readLines(r io.Reader) (map[string]batchLine, error) {
	got := map[string]batchLine{}
	sc := bufio.NewScanner(r) // the caller caps r
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var id struct {
			CustomID string `json:"custom_id"`
		}
		if json.Unmarshal(sc.Bytes(), &id) != nil || id.CustomID == "" {
			continue
		}
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			l = batchLine{CustomID: id.CustomID, unread: err.Error()}
		}
		got[id.CustomID] = l
	}
	return got, sc.Err()
}

// deliver hands each line to its call, taking it out of calls.
func (b *Batcher) deliver(got map[string]batchLine, calls map[string]*batchCall) {
	for cid, l := range got {
		c, ok := calls[cid]
		if !ok {
			continue
		}
		delete(calls, cid)
		c.ans, c.err = b.lineAnswer(l)
		close(c.done)
	}
}

// lineAnswer is a line's answer, or its error classified like an HTTP
// error of its status (an error with no response counts as a 500).
func (b *Batcher) lineAnswer(l batchLine) (answer, *ProviderError) {
	failed := !isNull(l.Error) || l.unread != ""
	if !failed && l.Response != nil && l.Response.StatusCode == http.StatusOK && !isNull(l.Response.Body) {
		var cc openai.ChatCompletion
		if err := json.Unmarshal(l.Response.Body, &cc); err != nil {
			return answer{}, &ProviderError{StatusCode: http.StatusOK, Message: "cannot decode answer: " + err.Error(), kind: ErrBadResponse}
		}
		return fromCompletion(&cc), nil
	}
	pe := &ProviderError{StatusCode: http.StatusInternalServerError}
	if l.Response != nil && l.Response.StatusCode >= 400 {
		pe.StatusCode = l.Response.StatusCode
	}
	switch {
	case l.unread != "":
		pe.Message = "cannot read the batch line: " + l.unread
	case l.Response != nil && !isNull(l.Response.Body):
		pe.Message = bodyMessage(bytes.TrimSpace(l.Response.Body))
	case !isNull(l.Error):
		pe.Message, pe.Code = lineError(l.Error)
	default:
		pe.Message = "the line holds neither an answer nor an error"
	}
	pe.byStatus(nil)
	return answer{}, pe.finish(b.c.red)
}

// lineError is the message and code of a line's error in any of the
// shapes batchLine lists.
func lineError(raw json.RawMessage) (msg, code string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, ""
	}
	var obj struct {
		Code json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) == nil && json.Unmarshal(obj.Code, &s) == nil {
		code = s // OpenAI's "batch_expired"; vLLM's is the status
	}
	return bodyMessage(bytes.TrimSpace(raw)), code
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}
