package session

import (
	"context"
	"slices"
	"sync"
)

// State is a modality instance as a session sees it.
type State interface {
	// Reduce applies in, or rejects it and changes nothing. On success it
	// returns a function that reverses exactly this change; read-only intents
	// return nil. Reduce reports what a model should see through rc.
	Reduce(rc *Context, in Intent) (undo func(), err error)
	// Recompile re-derives computed state (bindings, layout checks, pending
	// flags) after in was applied or undone. It should touch only what in
	// could have changed, so dispatch cost does not grow with the document.
	Recompile(rc *Context, in Intent)
	// Describe says in a few plain sentences what the state holds: a
	// subagent's context is the chain of these from the root down.
	Describe() string
	// Pending lists what is still to be generated, metadata first.
	Pending() []Pending
}

// Summarizer is a State that can say what it holds more briefly than
// Describe, for the describe chains of the other children of its slide:
// what they need to agree with it, not what they would need to edit it
// (a whiteboard's words without each element's box). Every such chain is
// a subagent's own bytes, which no cached prefix serves.
type Summarizer interface {
	Summary() string
}

// Warning is a defect that does not block a change, such as two overlapping
// elements. Recompile reports warnings; they reach the model with the result.
type Warning struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Context collects what one dispatch reports back: the results a model should
// see ("agent outputs") and warnings.
type Context struct {
	outputs   []any
	warnings  []Warning
	elsewhere int
}

// Report records a result for whoever dispatched the intent.
func (c *Context) Report(v any) { c.outputs = append(c.outputs, v) }

// MaxWarnings is the most warnings one result lists; Warn counts the rest
// with Elsewhere, so a crowded document cannot make one result huge.
const MaxWarnings = 50

// Warn records a non-blocking defect the change caused or that concerns
// what it touched.
func (c *Context) Warn(w Warning) {
	if len(c.warnings) >= MaxWarnings {
		c.elsewhere++
		return
	}
	c.warnings = append(c.warnings, w)
}

// Elsewhere counts n defects that exist but concern nothing the change
// touched. Only their number reaches the caller, so a result stays small
// however many defects a document has.
func (c *Context) Elsewhere(n int) { c.elsewhere += n }

// Result is what Dispatch hands back: the version after the change and the
// outputs and warnings reported while reducing and recompiling. Returning them
// (rather than keeping them on the session to drain) keeps concurrent
// read-only dispatches from seeing each other's outputs.
type Result struct {
	Version  uint64
	Outputs  []any
	Warnings []Warning
	// WarningsElsewhere counts the defects not listed in Warnings: those
	// the change did not touch, and any past MaxWarnings.
	WarningsElsewhere int
}

// Event is emitted after every commit.
type Event struct {
	Session string
	Version uint64
	Intent  Intent
	// Undone is set when the commit reversed Intent (an Undo).
	Undone bool
}

type historyEntry struct {
	intent Intent
	undo   func()
}

// maxHistory bounds undo memory for long generation runs.
const maxHistory = 1000

// Session owns one State. It is safe for concurrent use: mutations are
// serialised, read-only intents run in parallel.
type Session struct {
	name string

	mu      sync.RWMutex
	state   State
	version uint64
	undos   []historyEntry
	redos   []historyEntry

	// emitMu keeps events in commit order while letting listeners read the
	// session (mu is released before listeners run).
	emitMu    sync.Mutex
	listeners map[int]func(Event)
	nextID    int

	slotsMu sync.Mutex
	slots   map[Key]*slot
	order   []Key
}

// New returns a session named name (used in events) owning state.
func New(name string, state State) *Session {
	return &Session{name: name, state: state, listeners: map[int]func(Event){}}
}

// Name is the session's name as given to New.
func (s *Session) Name() string { return s.name }

// Version counts commits; it only grows.
func (s *Session) Version() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version
}

// View runs fn with the state under a read lock. fn must not keep the state
// or call back into the session.
func (s *Session) View(fn func(State)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	fn(s.state)
}

// Subscribe registers fn for every event from now on. Listeners run in commit
// order and must not dispatch to the same session.
func (s *Session) Subscribe(fn func(Event)) (cancel func()) {
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	id := s.nextID
	s.nextID++
	s.listeners[id] = fn
	return func() {
		s.emitMu.Lock()
		defer s.emitMu.Unlock()
		delete(s.listeners, id)
	}
}

// Dispatch runs in through reduce → recompile → commit → emit. A rejected
// intent changes nothing and returns an error (an *Error for rejections).
func (s *Session) Dispatch(ctx context.Context, in Intent) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	switch in.(type) {
	case Undo:
		return s.undo()
	case Redo:
		return s.redo()
	}
	if in.Spec().ReadOnly {
		return s.read(in)
	}

	s.mu.Lock()
	var rc Context
	undo, err := s.state.Reduce(&rc, in)
	if err != nil {
		s.mu.Unlock()
		return Result{Outputs: rc.outputs}, err
	}
	s.state.Recompile(&rc, in)
	s.push(&s.undos, historyEntry{intent: in, undo: undo})
	s.redos = s.redos[:0]
	return s.commitAndEmit(Event{Intent: in}, &rc), nil
}

// Preview reduces in and reverses it at once, returning what it would report.
// Nothing is committed or emitted; the approval gate uses it to show a change
// before it happens. look, when set, sees the state as the change leaves it,
// before it is reversed and under the session's lock: it may only read the
// state, and must take no other session's lock (a wait that could deadlock).
func (s *Session) Preview(in Intent, look func(State)) (Result, error) {
	if in.Spec().ReadOnly {
		return s.read(in)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var rc Context
	undo, err := s.state.Reduce(&rc, in)
	if err != nil {
		return Result{Outputs: rc.outputs}, err
	}
	s.state.Recompile(&rc, in)
	if look != nil {
		look(s.state)
	}
	if undo != nil {
		undo()
	}
	s.state.Recompile(&Context{}, in)
	return Result{Version: s.version, Outputs: rc.outputs, Warnings: rc.warnings, WarningsElsewhere: rc.elsewhere}, nil
}

func (s *Session) read(in Intent) (Result, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var rc Context
	_, err := s.state.Reduce(&rc, in)
	return Result{Version: s.version, Outputs: rc.outputs, Warnings: rc.warnings, WarningsElsewhere: rc.elsewhere}, err
}

func (s *Session) undo() (Result, error) {
	s.mu.Lock()
	if len(s.undos) == 0 {
		s.mu.Unlock()
		return Result{}, ErrNoHistory
	}
	e := s.undos[len(s.undos)-1]
	s.undos = s.undos[:len(s.undos)-1]
	if e.undo != nil {
		e.undo()
	}
	var rc Context
	s.state.Recompile(&rc, e.intent)
	s.redos = append(s.redos, e)
	return s.commitAndEmit(Event{Intent: e.intent, Undone: true}, &rc), nil
}

// redo reduces the undone intent again. Reduce is deterministic given the
// state, and undo restored that state, so the result is the same change.
func (s *Session) redo() (Result, error) {
	s.mu.Lock()
	if len(s.redos) == 0 {
		s.mu.Unlock()
		return Result{}, ErrNoHistory
	}
	e := s.redos[len(s.redos)-1]
	var rc Context
	undo, err := s.state.Reduce(&rc, e.intent)
	if err != nil {
		s.mu.Unlock()
		return Result{Outputs: rc.outputs}, err
	}
	s.redos = s.redos[:len(s.redos)-1]
	s.state.Recompile(&rc, e.intent)
	s.push(&s.undos, historyEntry{intent: e.intent, undo: undo})
	return s.commitAndEmit(Event{Intent: e.intent}, &rc), nil
}

func (s *Session) push(stack *[]historyEntry, e historyEntry) {
	if len(*stack) >= maxHistory {
		*stack = append((*stack)[:0], (*stack)[1:]...)
	}
	*stack = append(*stack, e)
}

// commitAndEmit must be called with mu held; it releases it.
func (s *Session) commitAndEmit(ev Event, rc *Context) Result {
	s.version++
	ev.Session, ev.Version = s.name, s.version
	res := Result{Version: s.version, Outputs: rc.outputs, Warnings: rc.warnings, WarningsElsewhere: rc.elsewhere}
	s.emitMu.Lock()
	s.mu.Unlock()
	defer s.emitMu.Unlock()
	for _, id := range s.listenerIDs() {
		s.listeners[id](ev)
	}
	return res
}

func (s *Session) listenerIDs() []int {
	ids := make([]int, 0, len(s.listeners))
	for id := range s.listeners {
		ids = append(ids, id)
	}
	slices.Sort(ids) // registration order, so listeners run predictably
	return ids
}
