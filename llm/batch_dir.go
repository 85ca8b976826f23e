package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lessongen/lessongen/internal/atomicfile"
)

// exchange runs a round through files for an offline runner (BatchConfig.Dir):
// it writes the round's input, unless a run before wrote the same, and
// waits until the output holds an answer for every line.
func (b *Batcher) exchange(ctx context.Context, calls []*batchCall) {
	lines, data := roundFile("q", calls)
	sum := sha256.Sum256(data)
	base := filepath.Join(b.cfg.Dir, "round-"+hex.EncodeToString(sum[:6]))
	in, out := base+".in.jsonl", base+".out.jsonl"
	if old, err := os.ReadFile(in); err != nil || !bytes.Equal(old, data) {
		if err := atomicfile.Write(in, data, 0o644); err != nil {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("writing the round for the batch runner: %v", err)})
			return
		}
	}
	if b.cfg.OnExport != nil {
		b.cfg.OnExport(in, out, len(lines))
	}
	window := b.cfg.DirWindow
	if window <= 0 {
		window = DefaultBatchDirWindow
	}
	start := b.c.clock.Now()
	wait := b.cfg.Poll
	var last []byte
	unchanged := 0
	for {
		if data, err := os.ReadFile(out); err == nil {
			got, _ := readLines(bytes.NewReader(data))
			if covers(got, lines) {
				b.deliver(got, lines)
				return
			}
			// A runner writes its output as it ends (or, in some vLLM
			// releases, all at once at the end): answers that stay
			// partial poll after poll are all there will be.
			if len(got) > 0 && bytes.Equal(data, last) {
				unchanged++
			} else {
				unchanged = 0
			}
			last = data
			if unchanged >= batchDirSettle {
				b.deliver(got, lines)
				failAll(lines, &ProviderError{Message: fmt.Sprintf(
					"%s answers %d request(s) but not this one, and has stayed so for %d polls: the runner stopped before answering it (see its log); run it again on %s",
					out, len(got), batchDirSettle, in)})
				return
			}
		}
		if b.c.clock.Now().Sub(start) >= window {
			failAll(lines, &ProviderError{Message: fmt.Sprintf(
				"no answer in %s within %s of writing %s: run the batch runner on it (stderr names the command), then run again", out, window, in)})
			return
		}
		if err := b.c.clock.Sleep(ctx, min(wait, window)); err != nil {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("stopped waiting for %s: %v", out, err)})
			return
		}
		wait = min(wait*2, b.cfg.PollMax)
	}
}

// Bounds on waiting for an offline runner's answers (BatchConfig.Dir), so
// a line never answered fails its node instead of holding the run.
const (
	// DefaultBatchDirWindow is how long a round waits for its output at
	// most, as the Batch API's completion window ("24h") bounds a batch.
	DefaultBatchDirWindow = 24 * time.Hour
	// batchDirSettle is how many polls an output that answers some lines
	// but not all may stay the same before the rest count as never
	// answered.
	batchDirSettle = 3
)

// covers reports whether got has a line for every call: the runner may
// still be writing its output.
func covers(got map[string]batchLine, calls map[string]*batchCall) bool {
	for cid := range calls {
		if _, ok := got[cid]; !ok {
			return false
		}
	}
	return true
}
