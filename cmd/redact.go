package cmd

import (
	"github.com/lessongen/lessongen/internal/redact"
)

// newRedactor is the one redactor of a run, built from its settings: the
// API key and the base URL's credentials never reach stdout, stderr, the
// events log, an error message or a saved file.
func newRedactor(cfg *settings) *redact.Redactor {
	return redact.New(cfg.APIKey, cfg.BaseURL)
}

// redactedStreams returns streams whose output passes through r, and a
// function that flushes what the redacting writers hold back.
func redactedStreams(s *IOStreams, r *redact.Redactor) (*IOStreams, func()) {
	out, errOut := r.Writer(s.Out), r.Writer(s.ErrOut)
	c := *s
	c.Out, c.ErrOut = out, errOut
	if s.ErrFrame == nil {
		return &c, func() {
			_ = out.Flush()
			_ = errOut.Flush()
		}
	}
	frame := r.Writer(s.ErrFrame)
	c.ErrFrame = frame
	return &c, func() {
		_ = out.Flush()
		_ = frame.Flush()
		_ = errOut.Flush()
	}
}
