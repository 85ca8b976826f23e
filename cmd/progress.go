package cmd

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/termsafe"
)

// progress shows a run on stderr: a live line per node on a terminal
// (through mpb, which handles redrawing and terminal width), plain lines
// otherwise, so logs stay readable in CI.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	live  *mpb.Progress
	bars  map[string]*nodeBar
	steps map[string]int
}

type nodeBar struct {
	bar *mpb.Bar
	// status is read by mpb's render goroutine, so it is atomic.
	status atomic.Pointer[string]
}

func (nb *nodeBar) set(format string, args ...any) {
	s := termsafe.Line(fmt.Sprintf(format, args...))
	nb.status.Store(&s)
}

func newProgress(streams *IOStreams) *progress {
	p := &progress{w: streams.ErrOut, bars: map[string]*nodeBar{}, steps: map[string]int{}}
	if streams.ErrTTY {
		// Auto refresh: mpb would skip drawing to a writer it cannot tell is a
		// terminal; ErrTTY already said it is.
		p.live = mpb.New(mpb.WithOutput(streams.ErrOut), mpb.WithAutoRefresh())
	}
	return p
}

// Sink receives the run's events.
func (p *progress) Sink(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := e.Node + " " + e.Level
	switch e.Kind {
	case event.RunStart:
		p.line("lessongen: %s", e.Text)
	case event.NodeStart:
		p.steps[key] = 0
		if p.live != nil {
			nb := &nodeBar{}
			nb.set("working")
			nb.bar = p.live.New(0, mpb.SpinnerStyle(), mpb.BarWidth(3),
				mpb.PrependDecorators(decor.Name(termsafe.Line(key), decor.WCSyncSpaceR)),
				mpb.AppendDecorators(decor.Any(func(decor.Statistics) string { return *nb.status.Load() })))
			p.bars[key] = nb
			return
		}
		p.line("[%s] started", key)
	case event.Usage:
		p.steps[key] = e.Step
		if nb := p.bars[key]; nb != nil {
			nb.set("step %d", e.Step)
			nb.bar.Increment()
		}
	case event.ToolCall:
		if nb := p.bars[key]; nb != nil {
			nb.set("step %d · %s", e.Step, e.Tool)
		}
	case event.NodeEnd:
		msg := fmt.Sprintf("%s in %s", e.Status, plural(e.Step, "step"))
		if e.Error != "" {
			msg += ": " + e.Error
		}
		if nb := p.bars[key]; nb != nil {
			nb.set("%s", msg)
			nb.bar.SetTotal(-1, true)
			return
		}
		p.line("[%s] %s", key, msg)
	}
}

func (p *progress) line(format string, args ...any) {
	fmt.Fprintln(p.w, termsafe.String(fmt.Sprintf(format, args...)))
}

// Close finishes the live view so the summary prints below it.
func (p *progress) Close() {
	p.mu.Lock()
	live := p.live
	for _, nb := range p.bars {
		if !nb.bar.Completed() {
			nb.bar.Abort(false)
		}
	}
	p.mu.Unlock()
	if live != nil {
		live.Wait()
	}
}
