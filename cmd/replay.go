package cmd

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/replay"
)

// tape is a run's --record or --replay: the transport hook for the model
// client, and what the run must check or close at its end.
type tape struct {
	replayer *replay.Replayer
	recorder *replay.Recorder
	file     *os.File

	mu   sync.Mutex
	stop func(error) // stops the run on a replay miss, once it runs
}

// openTape loads the --replay recording, or checks that the --record file
// lands on no input or output, before anything is written.
func openTape(cfg *settings, doc *compose.Document, out string) (*tape, error) {
	t := &tape{}
	switch {
	case cfg.Record == "-" || cfg.Replay == "-":
		return nil, usagef("--record and --replay need a file, not -")
	case cfg.Replay != "":
		rp, err := replay.Load(cfg.Replay, t.stopRun)
		if errors.Is(err, regfile.ErrNotRegular) {
			return nil, usagef("--replay: %v\nfix: name a recording that --record wrote", err)
		}
		if err != nil {
			return nil, usagef("--replay: %v", err)
		}
		t.replayer = rp
	case cfg.Record != "":
		if err := doc.CheckSideFile(cfg.Record, out); err != nil {
			return nil, usagef("--record %v", err)
		}
		if err := regfile.Check(cfg.Record); err != nil {
			return nil, usagef("--record: %v\nfix: name a file to write the recording to", err)
		}
	}
	return t, nil
}

// create creates the --record file; called once the run holds the lesson's
// lock, so a run refused by the lock leaves another's recording alone.
func (t *tape) create(cfg *settings, red *redact.Redactor) error {
	if cfg.Record != "" {
		f, err := regfile.Create(cfg.Record, false)
		if err != nil {
			return usagef("--record: %v", err)
		}
		note := fmt.Sprintf("recorded by lessongen from %s, model %s; replay with --replay", redact.URL(cfg.BaseURL), cfg.Model)
		rec, err := replay.NewRecorder(f, note, red.String)
		if err != nil {
			f.Close()
			return fmt.Errorf("--record: %w", err)
		}
		t.recorder, t.file = rec, f
	}
	return nil
}

// wrap is the llm.Config transport hook; nil when neither flag is set.
func (t *tape) wrap() func(http.RoundTripper) http.RoundTripper {
	switch {
	case t.replayer != nil:
		// Never the base transport: a replay opens no connection.
		return func(http.RoundTripper) http.RoundTripper { return t.replayer }
	case t.recorder != nil:
		return t.recorder.Wrap
	}
	return nil
}

// setStop names how to stop the run on a miss.
func (t *tape) setStop(stop func(error)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stop = stop
}

// stopRun stops the run with a short cause (each interrupted node shows
// it); the difference itself is printed once, at the end (missed).
func (t *tape) stopRun(error) {
	t.mu.Lock()
	stop := t.stop
	t.mu.Unlock()
	if stop != nil {
		stop(errors.New("replay miss: the recording holds no answer for a request (the difference is shown below)"))
	}
}

// missed is the replay's first miss, as a usage error (exit 2): the
// recording does not fit this input. When the run found saved
// conversations in its state dir, it continued them, and a recording made
// from a fresh start cannot match that: the error says so.
func (t *tape) missed(stateDir string, continued int) error {
	if t.replayer == nil {
		return nil
	}
	err := t.replayer.Err()
	if err == nil {
		return nil
	}
	if continued > 0 {
		err = fmt.Errorf("%w\n  note: %s continued conversations an earlier run saved in %s; if the recording was made without them, replay with --state-dir set to an empty folder", err, plural(continued, "subagent"), stateDir)
	}
	return &usageError{err}
}

// close finishes the recording; an error means it is incomplete.
func (t *tape) close() error {
	if t.file == nil {
		return nil
	}
	err := t.recorder.Err()
	if cerr := t.file.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("--record: %w", cerr)
	}
	t.file = nil
	return err
}

// printReplayed says, after a replay, that no model was called and how to
// look at the result.
func printReplayed(w io.Writer, cfg *settings, lesson string, written []string) {
	if cfg.Replay == "" {
		return
	}
	fmt.Fprintf(w, "lessongen: this was a replay of %s: every answer came from the recording; no model was called\n", cfg.Replay)
	if len(written) > 0 {
		fmt.Fprintf(w, "  look at it: lessongen render %s -o lesson.html\n", lesson)
	}
}
