package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/lessongen/lessongen/internal/yamlsrc"
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

// ErrPartial means generation finished with nodes still pending or failed.
var ErrPartial = errors.New("some nodes are still pending")

// ErrConflict means an author's edit made during the run could not be
// merged: the author's file was kept and the run's version saved beside it.
var ErrConflict = errors.New("an edit made during the run conflicts with the run's changes")

// ErrInterrupted means the run was stopped by SIGINT or SIGTERM.
var ErrInterrupted = errors.New("interrupted")

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

// silentError carries an exit code for a failure whose details the command
// has already printed.
type silentError struct {
	code int
	err  error
}

func (e *silentError) Error() string { return e.err.Error() }
func (e *silentError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var usage *usageError
	var problems yamlsrc.Problems
	var silent *silentError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &silent):
		return silent.code
	case errors.Is(err, ErrQuit):
		return ExitFailure
	case errors.Is(err, ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, ErrPartial):
		return ExitPartial
	case errors.As(err, &usage), errors.As(err, &problems):
		return ExitUsage
	}
	return ExitFailure
}
