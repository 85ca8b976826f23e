package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/orchestrate"
)

// Exit codes, decided in one place (exitCode) from the error a command
// returns.
const (
	ExitOK          = 0   // done
	ExitFailure     = 1   // provider or internal failure
	ExitUsage       = 2   // bad flags or invalid input; nothing written
	ExitPartial     = 3   // finished, but some nodes are still pending, failed or left defects; partial result saved
	ExitInterrupted = 130 // stopped by a signal; committed work saved
)

// ErrPartial, ErrConflict and ErrInterrupted are how a run ends short of
// done (orchestrate.Result.Err); each maps to its exit code in exitCode.
var (
	ErrPartial     = orchestrate.ErrPartial
	ErrConflict    = orchestrate.ErrConflict
	ErrInterrupted = orchestrate.ErrInterrupted
)

// ErrQuit means the run was stopped by SIGQUIT: a goroutine dump went to
// stderr, committed work was saved, and the exit code is ExitFailure.
var ErrQuit = errors.New("quit by SIGQUIT (goroutine dump above)")

// usageError marks an error as the user's to fix (exit 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// silentError is a failure whose details the command has already
// printed: RunWith prints nothing more. Its code is exitCode's for the
// error it wraps (see printed).
type silentError struct {
	code int
	err  error
}

func (e *silentError) Error() string { return e.err.Error() }
func (e *silentError) Unwrap() error { return e.err }

// printed marks err as reported already (a summary, the problems listed):
// its exit code is still exitCode's.
func printed(err error) error {
	if err == nil {
		return nil
	}
	return &silentError{code: exitCode(err), err: err}
}

// exitCode is the one mapping from what a command returned to the
// process's exit code; RunWith, under Main, is its only caller.
func exitCode(err error) int {
	var usage *usageError
	var problems yamlsrc.Problems
	var silent *silentError
	var busy *history.BusyError
	var tooBig *statedir.TooBigError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &silent):
		return silent.code
	case errors.Is(err, ErrQuit):
		return ExitFailure
	case errors.Is(err, ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, ErrPartial), errors.Is(err, ErrConflict):
		return ExitPartial
	case errors.As(err, &usage), errors.As(err, &problems), errors.As(err, &busy), errors.As(err, &tooBig):
		return ExitUsage
	}
	return ExitFailure
}
