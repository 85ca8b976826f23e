// Package cmd is lessongen's command line: thin cobra commands over the
// packages that do the work, configuration through viper, and exit codes
// decided in one place.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
)

// Main runs lessongen with the process's arguments and streams and returns
// the exit code.
func Main() int {
	ctx, stop := interruptible(context.Background())
	defer stop()
	return Run(ctx, os.Args[1:], System())
}

// Run is Main with injected arguments and streams; errors are printed here,
// once.
func Run(ctx context.Context, args []string, streams *IOStreams) int {
	reg, err := Registry()
	if err != nil {
		fmt.Fprintf(streams.ErrOut, "lessongen: %s\n", termsafe.String(err.Error()))
		return ExitFailure
	}
	return RunWith(ctx, args, streams, reg)
}

// RunWith is Run over a given modality registry.
func RunWith(ctx context.Context, args []string, streams *IOStreams, reg *modality.Registry) int {
	streams, flush := sanitized(streams)
	defer flush()
	root := NewRootCmd(streams, reg)
	root.SetArgs(args)
	err := root.ExecuteContext(withArgs(ctx, args))
	if err == nil && errors.Is(context.Cause(ctx), ErrQuit) {
		err = ErrQuit // a command that finished anyway still says it was quit
	}
	if err == nil {
		return ExitOK
	}
	var silent *silentError
	var problems yamlsrc.Problems
	switch {
	case errors.As(err, &silent):
	case errors.As(err, &problems):
		for _, p := range problems {
			fmt.Fprintln(streams.ErrOut, p)
		}
	default:
		// Messages quote lesson values, file names and servers' answers:
		// streams.ErrOut is sanitised (see sanitized).
		fmt.Fprintf(streams.ErrOut, "lessongen: %v\n", err)
	}
	return exitCode(err)
}

// interruptible cancels ctx on the first SIGINT, SIGTERM or SIGQUIT, so a
// run stops at its next safe point and saves; a second signal exits at once
// (writes are atomic, so no file is left half-written). Catching SIGQUIT
// turns off Go's own goroutine dump (and its exit 2, which here means
// "nothing written"), so the dump is written here, and the run exits 1.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		cause := ErrInterrupted
		if sig == syscall.SIGQUIT {
			dumpGoroutines(os.Stderr)
			cause = ErrQuit
		}
		cancel(cause)
		if sig, ok := <-sigs; ok {
			code := ExitInterrupted
			if sig == syscall.SIGQUIT {
				dumpGoroutines(os.Stderr)
				code = ExitFailure
			}
			fmt.Fprintln(os.Stderr, "lessongen: interrupted again; stopping now")
			os.Exit(code)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(sigs)
		cancel(nil)
	}
}

// maxDump bounds the goroutine dump's buffer.
const maxDump = 64 << 20

// dumpGoroutines writes every goroutine's stack, as Go's own SIGQUIT
// handler would.
func dumpGoroutines(w io.Writer) {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	for n == len(buf) && len(buf) < maxDump {
		buf = make([]byte, 2*len(buf))
		n = runtime.Stack(buf, true)
	}
	fmt.Fprintf(w, "SIGQUIT: quit\n\n%s\n", buf[:n])
}
