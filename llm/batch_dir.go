package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/internal/statedir"
)

// exchange runs a round through files for an offline runner (BatchConfig.Dir):
// it writes the round's input, unless a run before wrote the same, and
// waits until the output holds an answer for every line. Both files are
// opened as the state folder's are (statedir): the names are predictable,
// so a link planted at one must not be followed (its target written) nor
// a named pipe opened (a read would wait for ever); either fails the
// round, naming the file.
func (b *Batcher) exchange(ctx context.Context, calls []*batchCall) {
	lines, data := roundFile("q", calls)
	sum := sha256.Sum256(data)
	base := "round-" + hex.EncodeToString(sum[:6])
	in, out := filepath.Join(b.cfg.Dir, base+".in.jsonl"), filepath.Join(b.cfg.Dir, base+".out.jsonl")
	old, err := statedir.ReadFileMax(b.cfg.Dir, base+".in.jsonl", int64(len(data)))
	var tooLarge *statedir.TooBigError
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.As(err, &tooLarge) {
		failAll(lines, &ProviderError{Message: fmt.Sprintf("reading the round for the batch runner: %v", err)})
		return
	}
	if err != nil || !bytes.Equal(old, data) {
		if err := statedir.WriteFile(b.cfg.Dir, base+".in.jsonl", data, 0o644); err != nil {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("writing the round for the batch runner: %v", err)})
			return
		}
	}
	if b.cfg.OnExport != nil {
		b.cfg.OnExport(in, out, len(lines))
	}
	window := b.deadline()
	start := b.c.clock.Now()
	wait := b.cfg.Poll
	var last []byte
	unchanged := 0
	for {
		data, err := statedir.ReadFileMax(b.cfg.Dir, base+".out.jsonl", MaxBatchFileBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			failAll(lines, &ProviderError{Message: fmt.Sprintf("reading the batch runner's answers: %v", err)})
			return
		}
		if err == nil {
			got, err := readLines(bytes.NewReader(data))
			if err != nil {
				failAll(lines, &ProviderError{Message: fmt.Sprintf("reading %s: %v", out, err)})
				return
			}
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

// CheckDir refuses, before a run sends anything, a BatchConfig.Dir that
// is a link or holds a round file that is not a plain file (a link, a
// named pipe: a *statedir.LinkError naming it). The round a run needs is
// refused the same way when it is planted later; this says so up front.
// The runner's files need not be writable: lessongen only reads them.
func (b *Batcher) CheckDir() error {
	dir := b.cfg.Dir
	if dir == "" {
		return nil
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // made with the first round
	case err != nil:
		return err
	case statedir.What(fi) != "":
		return &statedir.LinkError{Path: dir, What: statedir.What(fi)}
	case !fi.IsDir():
		return fmt.Errorf("%s is a file, not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "round-") {
			continue
		}
		if fi, err := e.Info(); err == nil && statedir.What(fi) != "" {
			return &statedir.LinkError{Path: filepath.Join(dir, e.Name()), What: statedir.What(fi)}
		}
	}
	return nil
}

// Bounds on waiting for an offline runner's answers (BatchConfig.Dir), so
// a line never answered fails its node instead of holding the run.
const (
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
