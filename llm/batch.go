package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
)

// Batch defaults: a round is gathered for DefaultBatchWindow after its
// first call (or until BatchConfig.Size calls wait), and a batch is polled
// first after DefaultBatchPoll, the wait doubling up to DefaultBatchPollMax.
const (
	DefaultBatchWindow  = 2 * time.Second
	DefaultBatchPoll    = 30 * time.Second
	DefaultBatchPollMax = 10 * time.Minute
	// DefaultBatchDeadline is how long a round waits for its answers at
	// most: the Batch API's completion window ("24h") and an hour for a
	// batch to finalize; an offline runner's round gets as long.
	DefaultBatchDeadline = 25 * time.Hour
	// MaxBatchFileBytes caps what is read of one batch output or error
	// file (from the Batch API or an offline runner): 50,000 lines, the
	// most one batch holds at OpenAI, of 5 KiB each (an answer with tool
	// calls is 1-3 KiB). A file past it fails its round, saying so.
	MaxBatchFileBytes = 256 << 20
)

// ErrNoBatchAPI means the server answered 404 or 405 on the Batch API's
// routes: llama.cpp, Ollama and vLLM's OpenAI server have none.
var ErrNoBatchAPI = errors.New("this server has no Batch API")

// BatchConfig shapes a Batcher.
type BatchConfig struct {
	// Window is how long a round gathers calls after its first; 0 means
	// DefaultBatchWindow.
	Window time.Duration
	// Size sends a round at once when this many calls wait (the run's
	// concurrency: every worker is waiting); 0 means the window alone.
	Size int
	// Poll is the first wait between polls of a batch, doubling up to
	// PollMax; 0 means the defaults.
	Poll, PollMax time.Duration
	// StateDir, when set, is where batches.json keeps every batch in
	// flight (its id and the hash of each line's request), so a rerun
	// waits on a batch it had sent instead of paying for it twice.
	StateDir string
	// Dir, when set, replaces the Batch API with files for an offline
	// runner (vLLM's run_batch): each round is written to
	// DIR/round-HASH.in.jsonl, and its answers are read from
	// DIR/round-HASH.out.jsonl once that holds a line for every request.
	// The name is the input's hash, so a rerun finds its answers.
	Dir string
	// Deadline bounds the wait for a round's answers, polling a batch or
	// an offline runner's output; 0 means DefaultBatchDeadline. A batch
	// that runs out stays saved, so a rerun waits on it again.
	Deadline time.Duration
	// OnExport, with Dir, is told of every round file written.
	OnExport func(in, out string, lines int)
	// OnBatch, when set, is told of every batch sent or resumed.
	OnBatch func(id string, lines int, resumed bool)
}

// Batcher is a Model that sends its calls through OpenAI's Batch API: the
// calls that arrive together make one round, sent as one batch (JSONL
// uploaded with purpose "batch"), polled until done; each call then gets
// its line's answer. A failed line is that call's error, classified like
// an HTTP error of its status; a transient one is sent again in a later
// round. Answers are never streamed.
type Batcher struct {
	c       *Client
	files   openai.FileService
	batches openai.BatchService
	cfg     BatchConfig

	mu      sync.Mutex
	pending []*batchCall
	timer   *time.Timer
	rounds  int

	stateMu sync.Mutex // batches.json
}

var _ Model = (*Batcher)(nil)

// batchCall is one request waiting for its line's answer.
type batchCall struct {
	ctx  context.Context
	body json.RawMessage
	hash string
	done chan struct{}
	ans  answer
	err  *ProviderError
}

// NewBatcher sends c's requests in batches, with c's base URL, key, HTTP
// client and retries.
func NewBatcher(c *Client, cfg BatchConfig) *Batcher {
	if cfg.Window <= 0 {
		cfg.Window = DefaultBatchWindow
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultBatchPoll
	}
	if cfg.PollMax <= 0 {
		cfg.PollMax = DefaultBatchPollMax
	}
	return &Batcher{c: c, cfg: cfg,
		files:   openai.NewFileService(c.opts...),
		batches: openai.NewBatchService(c.opts...)}
}

// deadline is BatchConfig.Deadline or its default.
func (b *Batcher) deadline() time.Duration {
	if b.cfg.Deadline > 0 {
		return b.cfg.Deadline
	}
	return DefaultBatchDeadline
}

// batchRequestTimeout bounds one Batch API request when the Client has
// no attempt or turn timeout, so no request waits for ever.
const batchRequestTimeout = 5 * time.Minute

// request bounds one Batch API request as an attempt of a chat request
// is (Config.AttemptTimeout, else TurnTimeout): a server that never
// answers a poll costs one failed poll, not the run.
func (b *Batcher) request(ctx context.Context) (context.Context, context.CancelFunc) {
	d := b.c.attempt
	if d <= 0 {
		d = b.c.timeout
	}
	if d <= 0 {
		d = batchRequestTimeout
	}
	return context.WithTimeout(ctx, d)
}

// Probe checks, without spending anything, that the server has the Batch
// API: listing files and batches is free. A 404 or 405 is ErrNoBatchAPI.
func (b *Batcher) Probe(ctx context.Context) error {
	var res *http.Response
	route := "/v1/batches"
	_, err := b.batches.List(ctx, openai.BatchListParams{Limit: openai.Int(1)}, withResponse(&res))
	if err == nil {
		route = "/v1/files"
		_, err = b.files.List(ctx, openai.FileListParams{Purpose: openai.String("batch"), Limit: openai.Int(1)}, withResponse(&res))
	}
	if err == nil {
		return nil
	}
	pe := classify(err, res, 1, b.c.red)
	if pe.StatusCode == http.StatusNotFound || pe.StatusCode == http.StatusMethodNotAllowed {
		return fmt.Errorf("%w (%d on %s)", ErrNoBatchAPI, pe.StatusCode, route)
	}
	return pe
}

// Complete waits for the answer of req's line in a batch, sending it again
// in a later round while it fails transiently.
func (b *Batcher) Complete(ctx context.Context, req Request) (Response, error) {
	params, err := b.c.params(req)
	if err != nil {
		return Response{}, err
	}
	body, err := json.Marshal(params)
	if err != nil {
		return Response{}, fmt.Errorf("llm: encoding the request: %w", err)
	}
	sum := sha256.Sum256(body)
	for attempts := 1; ; attempts++ {
		call := &batchCall{ctx: ctx, body: body, hash: hex.EncodeToString(sum[:]), done: make(chan struct{})}
		b.enqueue(call)
		select {
		case <-call.done:
		case <-ctx.Done():
			return Response{Requests: attempts - 1}, fmt.Errorf("llm: %w", ctx.Err())
		}
		switch {
		case call.err == nil && call.ans.choices > 0:
			b.c.limiter.succeeded()
			return b.c.response(call.ans, req, attempts), nil
		case call.err == nil:
			return Response{Requests: attempts}, &ProviderError{StatusCode: http.StatusOK,
				Message: "answer has no choices", Attempts: attempts, kind: ErrBadResponse}
		}
		call.err.Attempts = attempts
		if !call.err.Retryable || attempts > b.c.maxRetries {
			return Response{Requests: attempts}, call.err
		}
	}
}

// enqueue adds call to the round being gathered, sending the round when
// it is full or its window ends.
func (b *Batcher) enqueue(call *batchCall) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = append(b.pending, call)
	if b.cfg.Size > 0 && len(b.pending) >= b.cfg.Size {
		b.flushLocked()
		return
	}
	if len(b.pending) == 1 {
		b.timer = time.AfterFunc(b.cfg.Window, func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.flushLocked()
		})
	}
}

func (b *Batcher) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.pending) == 0 {
		return
	}
	calls := b.pending
	b.pending = nil
	b.rounds++
	go b.round(b.rounds, calls)
}

// Rounds is the number of rounds sent so far.
func (b *Batcher) Rounds() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rounds
}

// round sends calls: those whose request a saved batch already holds wait
// on it; the rest go in a new batch. It runs until every call has its
// answer, or every caller has given up.
func (b *Batcher) round(n int, calls []*batchCall) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	left := len(calls)
	var leftMu sync.Mutex
	for _, c := range calls {
		stop := context.AfterFunc(c.ctx, func() {
			leftMu.Lock()
			defer leftMu.Unlock()
			if left--; left == 0 {
				cancel()
			}
		})
		defer stop()
	}
	if b.cfg.Dir != "" {
		b.exchange(ctx, calls)
		return
	}
	resumed, fresh := b.claim(calls)
	var wg sync.WaitGroup
	for id, lines := range resumed {
		wg.Go(func() { b.await(ctx, id, lines, true) })
	}
	if len(fresh) > 0 {
		wg.Go(func() { b.send(ctx, n, fresh) })
	}
	wg.Wait()
}

// send uploads calls as one batch, saves it, and waits for it.
func (b *Batcher) send(ctx context.Context, n int, calls []*batchCall) {
	lines, buf := roundFile(fmt.Sprintf("r%d-", n), calls)
	// A batch that cannot be saved would be paid for again by a rerun:
	// where it is saved is checked before anything is sent.
	if err := b.checkState(); err != nil {
		failAll(lines, &ProviderError{Message: fmt.Sprintf("no batch sent, as it could not be saved: %v", err)})
		return
	}
	var res *http.Response
	rctx, cancel := b.request(ctx)
	defer cancel()
	f, err := b.files.New(rctx, openai.FileNewParams{
		File:    openai.File(bytes.NewReader(buf), fmt.Sprintf("lessongen-round-%d.jsonl", n), "application/jsonl"),
		Purpose: openai.FilePurposeBatch,
	}, withResponse(&res))
	if err != nil {
		failAll(lines, classify(err, res, 1, b.c.red))
		return
	}
	bt, err := b.batches.New(rctx, openai.BatchNewParams{
		InputFileID:      f.ID,
		Endpoint:         openai.BatchNewParamsEndpointV1ChatCompletions,
		CompletionWindow: openai.BatchNewParamsCompletionWindow24h,
	}, withResponse(&res))
	if err != nil {
		failAll(lines, classify(err, res, 1, b.c.red))
		return
	}
	if !safeID(bt.ID) {
		// Not cancelled either: a request naming it would go elsewhere.
		failAll(lines, &ProviderError{Message: fmt.Sprintf("the server named its batch %q, which is not an id (letters, digits, '-', '_', '.' or ':'): it would route the next request elsewhere on the server; check what runs at the base URL", b.c.red.String(bt.ID))})
		return
	}
	if b.c.red.Contains(bt.ID) {
		// What a server sends never reaches a file unredacted, and a
		// redacted id names no batch: this one is neither saved nor
		// waited on, but cancelled so it is not charged.
		_, _ = b.batches.Cancel(rctx, bt.ID)
		failAll(lines, &ProviderError{Message: fmt.Sprintf("the server named its batch %s, which holds the API key or the base URL's credentials; it was cancelled, not saved: check what runs at the base URL",
			b.c.red.String(bt.ID))})
		return
	}
	if err := b.save(bt.ID, lines); err != nil {
		failAll(lines, &ProviderError{Message: err.Error()})
		return
	}
	b.await(ctx, bt.ID, lines, false)
}

// roundFile is the JSONL of a round, in OpenAI's batch input format (which
// vLLM's offline runner reads too), and its calls by custom_id.
func roundFile(prefix string, calls []*batchCall) (map[string]*batchCall, []byte) {
	lines := make(map[string]*batchCall, len(calls))
	var buf bytes.Buffer
	for i, c := range calls {
		id := prefix + strconv.Itoa(i)
		lines[id] = c
		line, _ := json.Marshal(struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}{id, http.MethodPost, "/v1/chat/completions", c.body})
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return lines, buf.Bytes()
}

func failAll(lines map[string]*batchCall, pe *ProviderError) {
	for _, c := range lines {
		e := *pe
		c.err = &e
		close(c.done)
	}
}

// RequestBytes is the size of req's body as sent (Client.RequestBytes).
func (b *Batcher) RequestBytes(req Request) (int, error) { return b.c.RequestBytes(req) }

// safeID reports whether id, which the server chose, can name a batch or a
// file in a request's path: OpenAI's ids (batch_…, file-…) and vLLM's
// (batch_<uuid>) are letters, digits, '-' and '_'; one holding '/' or
// "..", or escapes, would send the request to another route.
func safeID(id string) bool {
	if id == "" || len(id) > 256 || id == "." || id == ".." {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == ':':
		default:
			return false
		}
	}
	return true
}
