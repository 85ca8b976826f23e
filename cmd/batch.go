package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/llm"
)

// vllmRunBatch is how teams on their own hardware run the same requests:
// vLLM's offline runner (`vllm run-batch`, vllm/entrypoints/cli/run_batch.py).
// Tool calls need the same two flags as its server, or every line fails
// 400 "\"auto\" tool choice requires --enable-auto-tool-choice and
// --tool-call-parser to be set"; run-batch takes them since
// vllm-project/vllm#32967 (BatchFrontendArgs in
// vllm/entrypoints/launchers/run_batch.py), and before could not call
// tools at all.
const vllmRunBatch = "vllm run-batch -i IN -o OUT --model MODEL --enable-auto-tool-choice --tool-call-parser PARSER"

// vllmParserNote says what PARSER stands for: it depends on the model,
// which lessongen cannot know.
const vllmParserNote = "PARSER: the tool-call parser for the model (hermes for Qwen and Hermes, llama3_json for Llama 3.1+, mistral for Mistral; `vllm run-batch --help` lists them)"

// runBatchCommand is vllmRunBatch for one round's files.
func runBatchCommand(in, out, model string) string {
	return strings.NewReplacer("IN", shellWord(in), "OUT", shellWord(out), "MODEL", shellWord(model)).Replace(vllmRunBatch)
}

// shellWord quotes s for a POSIX shell unless it needs none.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkBatch refuses --batch with what it cannot go with, before anything
// is sent.
func checkBatch(cfg *settings) error {
	switch {
	case !cfg.Batch && cfg.BatchDir == "":
		return nil
	case cfg.Replay != "" || cfg.Record != "":
		return usagef("--batch cannot be used with --record or --replay: a recording holds chat requests, and a batch's answers arrive through files\nfix: drop --batch to record or replay")
	case cfg.BatchDir != "" && !cfg.Batch:
		return usagef("--batch-dir works with --batch only\nfix: add --batch")
	case cfg.Stream:
		return usagef("--batch cannot be used with --stream: a batch's answers are not streamed\nfix: drop one of them")
	}
	return nil
}

// batchModel wraps model in a Batcher whose batches are saved in
// stateDir, after checking that the server has the Batch API.
func batchModel(cfg *settings, model llm.Model, stateDir string, log *lineLog) (llm.Model, error) {
	client, ok := model.(*llm.Client)
	if !ok || !cfg.Batch {
		return model, nil
	}
	var parserNote sync.Once // what PARSER means, with the first round only
	b := llm.NewBatcher(client, llm.BatchConfig{
		Window: cfg.BatchWindow, Size: max(1, cfg.Concurrency),
		Poll: cfg.BatchPoll, StateDir: stateDir, Dir: cfg.BatchDir,
		OnExport: func(in, out string, lines int) {
			log.printf("lessongen: round of %d request(s) in %s; waiting for %s\n  run: %s\n", lines, in, out,
				runBatchCommand(in, out, cfg.Model))
			parserNote.Do(func() { log.printf("  %s\n", vllmParserNote) })
		},
		OnBatch: func(id string, lines int, resumed bool) {
			what := "sent"
			if resumed {
				what = "resumed (sent by an earlier run)"
			}
			log.printf("lessongen: batch %s %s: %d request(s); waiting for its results (within 24h)\n", id, what, lines)
		},
	})
	if cfg.BatchDir != "" {
		if err := b.CheckDir(); err != nil {
			return nil, usagef("--batch-dir: %v", err)
		}
		return b, nil // the server is not asked
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	defer cancel()
	err := b.Probe(ctx)
	if errors.Is(err, llm.ErrNoBatchAPI) {
		return nil, usagef("%v at %s\nfix: this server has no Batch API; run without --batch, or for vLLM use its offline batch runner: %s (see docs/reference.md, \"Batch mode\")",
			err, redact.URL(cfg.BaseURL), vllmRunBatch)
	}
	if err != nil {
		return nil, explainProvider(err, cfg)
	}
	return b, nil
}

// lineLog is a writer set once the run's output is known, safe to print
// to from the batches' goroutines.
type lineLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineLog) set(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w = w
}

func (l *lineLog) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		fmt.Fprintf(l.w, format, args...)
	}
}
