package session

import (
	"context"
	"fmt"
	"sync"
)

// Parent is a State with children, such as a lesson whose slides each own a
// whiteboard.
type Parent interface {
	State
	// Placements lists the children the state currently places, in order.
	Placements() []Placement
}

// Placement declares one child. Load creates its session; it runs at most
// once per slot, when the child is first needed.
type Placement struct {
	ID   string
	Load func() (*Session, error)
}

// slot holds one child: cold (declared, Load not yet run) or hot (child set).
type slot struct {
	id   string
	once sync.Mutex
	load func() (*Session, error)
	// detached slots belong to placements the parent no longer has; they are
	// kept so an undo that brings the placement back finds its child intact.
	detached bool

	mu    sync.Mutex
	child *Session
}

// ReconcileChildren creates slots for placements added since the last call
// and detaches slots whose placement is gone. It returns the ids of the new
// slots, in placement order.
func (s *Session) ReconcileChildren() []string {
	var placements []Placement
	s.View(func(st State) {
		if p, ok := st.(Parent); ok {
			placements = p.Placements()
		}
	})

	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	if s.slots == nil {
		s.slots = map[string]*slot{}
	}
	seen := make(map[string]bool, len(placements))
	var added []string
	order := make([]string, 0, len(placements))
	for _, p := range placements {
		seen[p.ID] = true
		order = append(order, p.ID)
		if sl, ok := s.slots[p.ID]; ok {
			sl.detached = false
			continue
		}
		s.slots[p.ID] = &slot{id: p.ID, load: p.Load}
		added = append(added, p.ID)
	}
	for id, sl := range s.slots {
		if !seen[id] {
			sl.detached = true
		}
	}
	s.order = order
	return added
}

// Children lists the ids of attached child slots in placement order.
func (s *Session) Children() []string {
	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	return append([]string(nil), s.order...)
}

// Hot reports whether the child id is loaded. Unknown ids are not hot.
func (s *Session) Hot(id string) bool {
	sl := s.slot(id)
	if sl == nil {
		return false
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.child != nil
}

// HotChild returns the child session if it is loaded, without loading it.
func (s *Session) HotChild(id string) (*Session, bool) {
	sl := s.slot(id)
	if sl == nil {
		return nil, false
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.child, sl.child != nil
}

// WarmChild returns the child session id, loading it first if it is cold.
// Concurrent callers for the same child share one load.
func (s *Session) WarmChild(id string) (*Session, error) {
	sl := s.slot(id)
	if sl == nil {
		return nil, fmt.Errorf("%w %q of %s", ErrUnknownChild, id, s.name)
	}
	sl.once.Lock()
	defer sl.once.Unlock()
	sl.mu.Lock()
	child := sl.child
	sl.mu.Unlock()
	if child != nil {
		return child, nil
	}
	child, err := sl.load()
	if err != nil {
		return nil, err
	}
	sl.mu.Lock()
	sl.child = child
	sl.mu.Unlock()
	return child, nil
}

// DispatchChild routes in to the child id, warming it if needed. Only the
// child's session is locked, so children change concurrently and the cost
// does not depend on how many siblings there are.
func (s *Session) DispatchChild(ctx context.Context, id string, in Intent) (Result, error) {
	child, err := s.WarmChild(id)
	if err != nil {
		return Result{}, err
	}
	return child.Dispatch(ctx, in)
}

func (s *Session) slot(id string) *slot {
	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	sl := s.slots[id]
	if sl == nil || sl.detached {
		return nil
	}
	return sl
}
