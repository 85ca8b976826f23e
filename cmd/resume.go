package cmd

// Resuming a run to another file (-o). A run in place continues from its
// file: what it finished is there. A run from IN to OUT used to start over
// from IN each time, finished nodes and all; now OUT's state folder says
// which lesson OUT was made from and how that run ended (originFile), so
// the same command run again continues from OUT while IN is as it was.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/termsafe"
)

// originFile, in the state folder of a lesson file a run wrote, records
// what the file was made from.
const originFile = "origin.json"

// statusRunning is an origin's status while its run is on, and after a
// kill: not finished.
const statusRunning = "running"

// origin is what originFile holds.
type origin struct {
	Format int `json:"format"`
	// Input is the lesson file the output was made from, relative to the
	// output's folder (so moving both together keeps it).
	Input string `json:"input"`
	// InputSum is compose.FilesSum of the input and its child files as
	// the run that made the output loaded them.
	InputSum string `json:"input_sum"`
	// OutputSum is compose.FilesSum of the output and OutputFiles as a
	// run last wrote them: anything else there is someone's edit.
	OutputSum   string   `json:"output_sum"`
	OutputFiles []string `json:"output_files"`
	// Status is how the last run that wrote the output ended (the
	// summary's status), statusRunning while it is on or after a kill.
	Status string `json:"status"`
}

// readOrigin reads the origin in state folder dir; nil when there is none
// or it cannot be read (the run then starts over, which loses nothing).
func readOrigin(dir string) *origin {
	data, err := statedir.ReadFile(dir, originFile)
	if err != nil {
		return nil
	}
	var o origin
	if json.Unmarshal(data, &o) != nil || o.Format != 1 || o.Input == "" || o.InputSum == "" {
		return nil
	}
	return &o
}

// inputPath is where o's input is, for an output at out.
func (o *origin) inputPath(out string) string {
	if filepath.IsAbs(o.Input) {
		return o.Input
	}
	return filepath.Join(filepath.Dir(out), o.Input)
}

// madeFrom reports whether o names file as the output's input.
func (o *origin) madeFrom(file, out string) bool {
	return sameFile(o.inputPath(out), file)
}

// relInput spells file relative to out's folder, or absolute when it
// cannot be.
func relInput(file, out string) string {
	a, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	d, err := filepath.Abs(filepath.Dir(out))
	if err != nil {
		return a
	}
	if r, err := filepath.Rel(d, a); err == nil {
		return r
	}
	return a
}

// resumes reports whether the run may continue from its output: it
// writes a lesson file other than its input, and is not a replay (which
// reproduces a recording made from the input) nor a lesson of a course.
func (g *generation) resumes() bool {
	return g.opts.out != "" && g.opts.out != "-" && g.cfg.Replay == "" && g.course == nil && !g.inPlace()
}

// resume decides, for a run from the input to another file, whether it
// continues from that file, once the input is loaded (g.doc). When the
// output's origin names this input, unchanged, and its run did not
// finish, the output is loaded instead and the run goes on in place there,
// as `generate OUT` would. When the input changed since, the run starts
// over from it, unless the output was edited since too: then neither can
// be chosen for the author (exit 2). An output made from another lesson,
// or by a run that finished, is made afresh, as before.
func (g *generation) resume() error {
	opts := g.opts
	if !g.resumes() {
		return nil
	}
	dir := g.cfg.StateDir
	if dir == "" {
		dir = statedir.For(opts.out)
	}
	inSum := compose.FilesSum(opts.file, g.doc.ChildFiles())
	g.origin = &origin{Format: 1, Input: relInput(opts.file, opts.out), InputSum: inSum}
	o := readOrigin(dir)
	if o == nil {
		return nil
	}
	if _, err := os.Lstat(opts.out); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if !o.madeFrom(opts.file, opts.out) {
		fmt.Fprintf(opts.info(), "lessongen: note: %s was made from another lesson (%s); this run makes it afresh from %s\n", opts.out, o.inputPath(opts.out), opts.file)
		return nil
	}
	if o.Status == event.StatusDone {
		return nil // finished: made again, as a rerun always did
	}
	stopped := stoppedAs(o.Status)
	if o.InputSum != inSum {
		if compose.FilesSum(opts.out, o.OutputFiles) != o.OutputSum {
			return usagef("-o %s: %s changed since the run that made %s from it, which %s, and %s was changed since too; this run would have to drop one or the other\nfix: continue from %s with `lessongen generate %s` (your changes to %s are not in it), or move %s aside to make it afresh from %s",
				opts.out, opts.file, opts.out, stopped, opts.out, opts.out, shellQuote(opts.out), opts.file, opts.out, opts.file)
		}
		fmt.Fprintf(opts.io.ErrOut, "lessongen: warning: %s changed since the run that made %s from it, which %s; starting over from %s (what that run generated in %s is made again)\n", opts.file, opts.out, stopped, opts.file, opts.out)
		return nil
	}
	// Said first: a problem loading the output is then read as what it is.
	fmt.Fprintf(opts.info(), "lessongen: note: continuing the run that made %s from %s, which %s: %s holds what it finished\n", opts.out, opts.file, stopped, opts.out)
	doc, err := loadLesson(opts.out, opts.reg)
	if err != nil {
		return err
	}
	g.doc = doc
	opts.file, opts.out = opts.out, ""
	// The output's own files are the inputs now: --events must not be one.
	return checkPaths(g.doc, opts, g.cfg.Events)
}

// stoppedAs says how a run that ended with status stopped, after "which".
func stoppedAs(status string) string {
	switch status {
	case event.StatusInterrupted:
		return "was interrupted"
	case event.StatusFailed:
		return "failed"
	case "partial":
		return "ended with steps left undone"
	}
	return "stopped before it finished" // killed, or still running
}

// keepOrigin, for a run in place, keeps the origin its file has (a file an
// earlier run made from another, which this run may finish), so a rerun
// of that earlier command knows what this run left.
func (g *generation) keepOrigin() {
	if g.origin == nil && g.writes() && g.cfg.Replay == "" && g.course == nil {
		g.origin = readOrigin(g.state.dir)
	}
}

// recordOrigin writes the origin of the lesson file the run writes, with
// status, once the run has written that file: never before, so an origin
// never vouches for a file this run did not write.
func (g *generation) recordOrigin(status string) {
	if g.origin == nil || !g.writes() || g.saver == nil || !g.saver.LessonWritten(g.opts.out) {
		return
	}
	out := cmp.Or(g.opts.out, g.opts.file)
	o := *g.origin
	o.OutputFiles = g.doc.ChildFiles()
	if o.OutputFiles == nil {
		o.OutputFiles = []string{}
	}
	o.OutputSum = compose.FilesSum(out, o.OutputFiles)
	o.Status = status
	data, _ := json.Marshal(o)
	if err := statedir.WriteFile(g.state.dir, originFile, []byte(g.red.String(string(data))+"\n"), 0o644); err != nil {
		fmt.Fprintf(g.opts.io.ErrOut, "lessongen: warning: %s: %v; running this command again starts over\n", filepath.Join(g.state.dir, originFile), err)
	}
}

// argsKey is the context key of the command line Run was given.
type argsKey struct{}

// withArgs records the command line in ctx, for the line that says how to
// continue a stopped run.
func withArgs(ctx context.Context, args []string) context.Context {
	return context.WithValue(ctx, argsKey{}, args)
}

// resumeCommand is the command that continues a stopped run: the very
// command it was, shell-quoted; "" when ctx does not know it. Each
// argument goes through redact before it is quoted: quoting a password
// in --base-url would hide it from the redactor of the stream.
func resumeCommand(ctx context.Context, redact func(string) string) string {
	args, ok := ctx.Value(argsKey{}).([]string)
	if !ok {
		return ""
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(redact(a))
	}
	return "lessongen " + strings.Join(q, " ")
}

// shellQuote quotes s so that a shell reads it back as s and a terminal
// shows it as plain text: as it is when it holds only characters no shell
// treats specially; in single quotes when it holds other text termsafe
// prints as it is; else in $'…' with \xNN escapes (bash, zsh, ksh,
// POSIX.1-2024 sh) for each character termsafe would escape (a control
// character, a bidirectional override, bytes that are not UTF-8): printed
// raw, those would drive the terminal or hide text.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") == "" {
		return s
	}
	if termsafe.Line(s) == s {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		c := s[i : i+size]
		switch {
		case termsafe.Line(c) != c:
			for _, x := range []byte(c) {
				fmt.Fprintf(&b, `\x%02x`, x)
			}
		case c == "'" || c == `\`:
			b.WriteString(`\` + c)
		default:
			b.WriteString(c)
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
