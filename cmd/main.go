// Package cmd is lessongen's command line: thin cobra commands over the
// packages that do the work, configuration through viper, and exit codes
// decided in one place.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
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
	root := NewRootCmd(streams)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var silent *silentError
	var problems yamlsrc.Problems
	switch {
	case errors.As(err, &silent):
	case errors.As(err, &problems):
		for _, p := range problems {
			fmt.Fprintln(streams.ErrOut, termsafe.String(fmt.Sprint(p)))
		}
	default:
		// Messages quote lesson values and servers' answers: printed safe.
		fmt.Fprintf(streams.ErrOut, "lessongen: %s\n", termsafe.String(err.Error()))
	}
	return exitCode(err)
}

// interruptible cancels ctx on the first SIGINT or SIGTERM, so a run stops
// at its next safe point and saves; a second signal exits at once (writes
// are atomic, so no file is left half-written).
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		cancel(ErrInterrupted)
		if _, ok := <-sigs; ok {
			fmt.Fprintln(os.Stderr, "lessongen: interrupted again; stopping now")
			os.Exit(ExitInterrupted)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(sigs)
		cancel(nil)
	}
}
