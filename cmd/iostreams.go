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
	// ErrWidth is the terminal's width in columns (0 when unknown), read
	// from stderr's own descriptor: ErrOut may be a wrapping writer.
	ErrWidth func() int
	// ErrHeight is the terminal's height in lines (0 when unknown): a
	// live frame taller than the screen could not be erased.
	ErrHeight func() int
	// Color tells whether stderr may be coloured (a terminal, NO_COLOR unset).
	Color bool
}

// System returns the process's own streams.
func System() *IOStreams {
	errTTY := term.IsTerminal(int(os.Stderr.Fd()))
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		ErrTTY: errTTY,
		ErrWidth: func() int {
			w, _, err := term.GetSize(int(os.Stderr.Fd()))
			if err != nil {
				return 0
			}
			return w
		},
		ErrHeight: func() int {
			_, h, err := term.GetSize(int(os.Stderr.Fd()))
			if err != nil {
				return 0
			}
			return h
		},
		// https://no-color.org: any non-empty value turns colour off.
		Color: errTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
	}
}
