package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/orchestrate"
)

// progress shows a run on stderr: on a terminal, a live frame with one row
// per node step, redrawn in place; otherwise one plain line per event, so
// logs stay readable in CI. A question to the person pauses the frame
// (Pause/Resume) so it is never drawn over.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	live   bool
	color  bool
	quiet  bool
	width  func() int
	height func() int
	rows   []*progressRow
	byKey  map[string]*progressRow
	total  int
	drawn  int // lines of the frame on screen, erased before the next one
	paused bool
	held   []string // lines printed while paused, shown on Resume
	tick   int
	stop   chan struct{}
	done   chan struct{}
	now    func() time.Time

	// text holds each node's streamed model text up to its next newline;
	// whole lines are printed above the frame, never inside it.
	text map[string]*strings.Builder
	// stray holds what other writers sent to stderr (Writer) up to its
	// next newline.
	stray []byte
}

type progressRow struct {
	label  string
	state  string // working, done, pending, failed, interrupted
	detail string
	start  time.Time
	end    time.Time
}

// frameInterval is how often the live frame is redrawn.
const frameInterval = 120 * time.Millisecond

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func newProgress(streams *IOStreams) *progress {
	w := streams.ErrOut
	if streams.ErrTTY && streams.ErrFrame != nil {
		w = streams.ErrFrame // the frame's own cursor moves and colours
	}
	p := &progress{w: w, byKey: map[string]*progressRow{}, width: streams.ErrWidth, now: time.Now,
		live: streams.ErrTTY, color: streams.ErrTTY && streams.Color}
	if p.width == nil {
		p.width = func() int { return 0 }
	}
	if p.height = streams.ErrHeight; p.height == nil {
		p.height = func() int { return 0 }
	}
	if p.live {
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.loop()
	}
	return p
}

// SetTotal sets the number of node steps planned, for the "3/8" counter.
func (p *progress) SetTotal(n int) {
	p.mu.Lock()
	p.total = n
	p.mu.Unlock()
}

// Quiet hides progress; errors and the summary are printed elsewhere.
func (p *progress) Quiet() {
	p.mu.Lock()
	p.quiet = true
	p.mu.Unlock()
}

func (p *progress) loop() {
	defer close(p.done)
	t := time.NewTicker(frameInterval)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.tick++
			p.draw(false)
			p.mu.Unlock()
		}
	}
}

// nodeLabel names a node as a person would: `slide "light" · whiteboard ·
// metadata`, not `slides/light/whiteboard whiteboard.metadata`.
func nodeLabel(node, level string) string {
	_, part, _ := strings.Cut(level, ".")
	return partLabel(node, part)
}

// partLabel is nodeLabel for a node and a level part ("node",
// "metadata"), as plan lists its steps.
func partLabel(node, part string) string {
	var parts []string
	segs := strings.Split(node, "/")
	switch {
	case node == orchestrate.NewSlidesNode:
		return "the children of the slides the lesson node adds"
	case len(segs) >= 2 && segs[0] == "slides":
		parts = append(parts, fmt.Sprintf("slide %q", segs[1]))
		parts = append(parts, segs[2:]...)
	default:
		parts = append(parts, node)
	}
	if part != "" {
		parts = append(parts, part)
	}
	return termsafe.Line(strings.Join(parts, " · "))
}

// Sink receives the run's events.
func (p *progress) Sink(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := e.Node + " " + e.Level
	if e.Kind == event.Warning {
		p.line("lessongen: warning: %s", termsafe.Line(e.Text))
		return
	}
	if p.quiet {
		return
	}
	switch e.Kind {
	case event.RunStart:
		p.line("lessongen: %s", e.Text)
	case event.NodeStart:
		r := &progressRow{label: nodeLabel(e.Node, e.Level), state: "working", start: p.now()}
		if old := p.byKey[key]; old != nil {
			*old = *r // a retried step keeps its row
		} else {
			p.byKey[key] = r
			p.rows = append(p.rows, r)
		}
		if !p.live {
			p.line("[%s] started", key)
		}
	case event.TextChunk:
		if p.live && e.Restart {
			p.restartText(key, nodeLabel(e.Node, e.Level))
		} else if p.live {
			p.streamText(key, nodeLabel(e.Node, e.Level), e.Text, false)
		}
	case event.ModelText:
		if p.live {
			p.streamText(key, nodeLabel(e.Node, e.Level), "", true)
		}
	case event.Usage:
		if r := p.byKey[key]; r != nil {
			r.detail = fmt.Sprintf("step %d", e.Step)
		}
	case event.ToolCall:
		if r := p.byKey[key]; r != nil {
			r.detail = termsafe.Line(fmt.Sprintf("step %d · %s", e.Step, e.Tool))
		}
	case event.NodeEnd:
		msg := fmt.Sprintf("%s in %s", e.Status, plural(e.Step, "step"))
		if e.Error != "" {
			msg += ": " + e.Error
		}
		if r := p.byKey[key]; r != nil && p.live {
			r.state, r.end = e.Status, p.now()
			r.detail = termsafe.Line(fmt.Sprintf("%s%s", plural(e.Step, "step"), errSuffix(e.Error)))
			return
		}
		p.line("[%s] %s", key, msg)
	}
}

// streamText prints a node's streamed text above the frame line by line,
// each line labelled with its node; end prints the unfinished rest.
func (p *progress) streamText(key, label, chunk string, end bool) {
	if p.text == nil {
		p.text = map[string]*strings.Builder{}
	}
	b := p.text[key]
	if b == nil {
		b = &strings.Builder{}
		p.text[key] = b
	}
	b.WriteString(chunk)
	rest := b.String()
	for {
		line, after, ok := strings.Cut(rest, "\n")
		if !ok {
			break
		}
		if strings.TrimSpace(line) != "" {
			p.above("%s: %s", label, termsafe.Line(line))
		}
		rest = after
	}
	if end && strings.TrimSpace(rest) != "" {
		p.above("%s: %s", label, termsafe.Line(rest))
		rest = ""
	}
	b.Reset()
	b.WriteString(rest)
}

// restartText drops a node's unfinished line of streamed text and says
// that what was shown was cut off, so the retried answer's text that
// follows does not read as a repetition.
func (p *progress) restartText(key, label string) {
	if b := p.text[key]; b != nil {
		b.Reset()
	}
	p.above("%s: (the answer was cut off; it starts again)", label)
}

func errSuffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func (p *progress) line(format string, args ...any) {
	if p.live {
		p.above(format, args...)
		return
	}
	fmt.Fprintln(p.w, termsafe.String(fmt.Sprintf(format, args...)))
}

// above prints a line above the live frame: the frame is erased, the line
// printed, and the frame drawn again below it.
func (p *progress) above(format string, args ...any) {
	text := termsafe.String(fmt.Sprintf(format, args...))
	if p.paused {
		// A question is on screen: nothing may be printed after it.
		p.held = append(p.held, text)
		return
	}
	p.erase()
	fmt.Fprintln(p.w, text)
	p.draw(false)
}

func (p *progress) erase() {
	if p.drawn > 0 {
		// Cursor up over the frame, then clear to the end of the screen.
		fmt.Fprintf(p.w, "\x1b[%dA\r\x1b[J", p.drawn)
		p.drawn = 0
	}
}

// draw replaces the frame on screen with the current one. Each row is cut
// to the terminal's width so no row wraps (a wrapped row would throw off
// the line count that erase relies on).
func (p *progress) draw(final bool) {
	if !p.live || p.paused || p.quiet || len(p.rows) == 0 {
		return
	}
	var b strings.Builder
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA\r\x1b[J", p.drawn)
	}
	width := p.width()
	labelW := 0
	finished := 0
	for _, r := range p.rows {
		labelW = max(labelW, len([]rune(r.label)))
		if r.state != "working" {
			finished++
		}
	}
	now := p.now()
	shown, hidden := p.visible()
	for _, r := range shown {
		mark, state := p.mark(r, final), r.state
		end := r.end
		if end.IsZero() {
			end = now
		}
		row := fmt.Sprintf("%s %-*s  %-11s %6s  %s", mark, labelW, r.label, state, end.Sub(r.start).Round(100*time.Millisecond), r.detail)
		b.WriteString(p.paint(r.state, fit(row, width)) + "\n")
	}
	total := max(p.total, len(p.rows))
	count := fmt.Sprintf("%d/%d finished", finished, total)
	if hidden > 0 {
		count += fmt.Sprintf(" (%d finished rows not shown)", hidden)
	}
	b.WriteString(fit(count, width) + "\n")
	p.drawn = len(shown) + 1
	_, _ = io.WriteString(p.w, b.String())
}

// visible picks the rows the frame shows: all of them when the frame fits
// the terminal, else the working rows and the latest finished ones, in
// order, so the frame stays below the screen's height (cursor-up cannot
// reach a line scrolled off the top, so a taller frame would be reprinted
// below itself at every redraw). hidden counts the rows left out.
func (p *progress) visible() (shown []*progressRow, hidden int) {
	h := p.height()
	room := h - 2 // the counter line, and the line the cursor rests on
	if h <= 0 || len(p.rows) <= room {
		return p.rows, 0
	}
	room = max(room, 1)
	keep := make([]bool, len(p.rows))
	n := 0
	for i, r := range p.rows {
		if r.state == "working" && n < room {
			keep[i] = true
			n++
		}
	}
	for i := len(p.rows) - 1; i >= 0 && n < room; i-- {
		if !keep[i] {
			keep[i] = true
			n++
		}
	}
	for i, r := range p.rows {
		if keep[i] {
			shown = append(shown, r)
		}
	}
	return shown, len(p.rows) - len(shown)
}

func (p *progress) mark(r *progressRow, final bool) string {
	switch r.state {
	case "working":
		if final {
			return "-"
		}
		return spinner[p.tick%len(spinner)]
	case event.StatusDone:
		return "✓"
	case event.StatusPending:
		return "…"
	case event.StatusInterrupted:
		return "■"
	case event.StatusDefects:
		return "!"
	}
	return "✗"
}

// paint colours a row by its state on a colour terminal.
func (p *progress) paint(state, s string) string {
	if !p.color {
		return s
	}
	code := ""
	switch state {
	case event.StatusDone:
		code = "32"
	case event.StatusPending, event.StatusInterrupted, event.StatusDefects:
		code = "33"
	case event.StatusFailed:
		code = "31"
	default:
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// fit cuts s to width runes (0 = unknown: no cut).
func fit(s string, width int) string {
	r := []rune(s)
	if width <= 1 || len(r) < width {
		return s
	}
	return string(r[:width-2]) + "…"
}

// Writer is stderr for everything else that prints during the run
// (warnings, `--events -`, the log package): on a live terminal each
// whole line is printed above the frame, so none lands inside it; without
// one, writes pass straight through.
func (p *progress) Writer() io.Writer { return strayWriter{p} }

type strayWriter struct{ p *progress }

func (w strayWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.live {
		return p.w.Write(b)
	}
	p.stray = append(p.stray, b...)
	for {
		line, rest, ok := bytes.Cut(p.stray, []byte("\n"))
		if !ok {
			break
		}
		p.above("%s", line)
		p.stray = rest
	}
	return len(b), nil
}

// Pause erases the live frame so a question can be printed on its own
// lines; Resume draws the frame again below the question and its answer.
func (p *progress) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	// The question goes to another writer (stderr's sanitiser): nothing of
	// the erase may be held back behind it.
	if f, ok := p.w.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}
	p.paused = true
}

// Resume ends a Pause.
func (p *progress) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	for _, l := range p.held {
		fmt.Fprintln(p.w, l)
	}
	p.held = nil
	p.draw(false)
}

// Close draws the final frame, with no spinner left turning, so the
// summary prints below it.
func (p *progress) Close() {
	if !p.live {
		return
	}
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	for _, l := range p.held {
		fmt.Fprintln(p.w, l)
	}
	p.held = nil
	if len(p.stray) > 0 {
		p.erase()
		fmt.Fprintln(p.w, termsafe.String(string(p.stray)))
		p.stray = nil
	}
	p.draw(true)
}
