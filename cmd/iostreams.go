package cmd

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the command's standard streams, injected so tests and the
// terminal progress view see the same thing the user does.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InTTY and ErrTTY tell whether stdin and stderr are terminals: the
	// approval prompt needs the first, live progress the second.
	InTTY  bool
	ErrTTY bool
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}
