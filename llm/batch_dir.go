package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

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
	wait := b.cfg.Poll
	for {
		if f, err := os.Open(out); err == nil {
			got, rerr := readLines(f)
			_ = f.Close()
			if rerr == nil && len(got) >= len(lines) && covers(got, lines) {
				b.deliver(got, lines)
				return
			}
		}
		if err := b.c.clock.Sleep(ctx, wait); err != nil {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("stopped waiting for %s: %v", out, err)})
			return
		}
		wait = min(wait*2, b.cfg.PollMax)
	}
}

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
