package cmd

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/lessongen/lessongen/internal/termsafe"
)

// IOStreams are the command's standard streams, injected so tests and the
// terminal progress view see the same thing the user does.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InTTY and ErrTTY tell whether stdin and stderr are terminals: the
	// approval prompt needs the first, live progress the second. OutTTY
	// tells whether stdout is one, where it is sanitised too.
	InTTY  bool
	ErrTTY bool
	OutTTY bool
	// ErrFrame is stderr before the sanitiser that RunWith puts on ErrOut,
	// for the live progress frame alone: it moves the cursor and colours
	// rows, and escapes every text it shows itself. Nil means ErrOut.
	ErrFrame io.Writer
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
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
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

// sanitized returns s with everything printed to stderr, and to stdout
// when it is a terminal, passing through the one sanitiser
// (termsafe.Writer), so no message can drive the terminal whichever line
// of code prints it; and a function that writes what the sanitisers hold
// back. Stdout that is not a terminal carries the product (a rendered
// lesson, JSON) byte for byte.
func sanitized(s *IOStreams) (*IOStreams, func()) {
	c := *s
	if c.ErrFrame == nil {
		c.ErrFrame = s.ErrOut
	}
	errOut := termsafe.NewWriter(s.ErrOut)
	c.ErrOut = errOut
	flush := func() { _ = errOut.Flush() }
	if s.OutTTY {
		out := termsafe.NewWriter(s.Out)
		c.Out = out
		flush = func() { _ = out.Flush(); _ = errOut.Flush() }
	}
	return &c, flush
}
