package session

import (
	"context"
	"fmt"
	"sync"
)

// Parent is a State with children, such as a lesson whose slides each place
// a whiteboard, a quiz, or both.
type Parent interface {
	State
	// Placements lists the children the state currently places, in order.
	Placements() []Placement
}

// Placement declares one child: where it is placed (ID, e.g. a slide id)
// and its kind (its modality), so one placement can hold one child of each
// kind. Load creates its session; it runs at most once per slot, when the
// child is first needed.
type Placement struct {
	ID   string
	Kind string
	Load func() (*Session, error)
}

// Key names a child slot: its placement and its kind.
type Key struct {
	Placement string
	Kind      string
}

func (k Key) String() string { return k.Placement + "/" + k.Kind }

// Key is the slot key of the placement.
func (p Placement) Key() Key { return Key{Placement: p.ID, Kind: p.Kind} }

// slot holds one child: cold (declared, Load not yet run) or hot (child set).
type slot struct {
	key  Key
	once sync.Mutex
	load func() (*Session, error)
	// detached slots belong to placements the parent no longer has; they are
	// kept so an undo that brings the placement back finds its child intact.
	detached bool

	mu    sync.Mutex
	child *Session
}

// ReconcileChildren creates slots for placements added since the last call
// and detaches slots whose placement is gone. It returns the keys of the new
// slots, in placement order.
func (s *Session) ReconcileChildren() []Key {
	var placements []Placement
	s.View(func(st State) {
		if p, ok := st.(Parent); ok {
			placements = p.Placements()
		}
	})

	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	if s.slots == nil {
		s.slots = map[Key]*slot{}
	}
	seen := make(map[Key]bool, len(placements))
	var added []Key
	order := make([]Key, 0, len(placements))
	for _, p := range placements {
		k := p.Key()
		seen[k] = true
		order = append(order, k)
		if sl, ok := s.slots[k]; ok {
			sl.detached = false
			continue
		}
		s.slots[k] = &slot{key: k, load: p.Load}
		added = append(added, k)
	}
	for id, sl := range s.slots {
		if !seen[id] {
			sl.detached = true
		}
	}
	s.order = order
	return added
}

// Children lists the keys of attached child slots in placement order.
func (s *Session) Children() []Key {
	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	return append([]Key(nil), s.order...)
}

// Hot reports whether the child id is loaded. Unknown ids are not hot.
func (s *Session) Hot(id Key) bool {
	sl := s.slot(id)
	if sl == nil {
		return false
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.child != nil
}

// HotChild returns the child session if it is loaded, without loading it.
func (s *Session) HotChild(id Key) (*Session, bool) {
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
func (s *Session) WarmChild(id Key) (*Session, error) {
	sl := s.slot(id)
	if sl == nil {
		return nil, fmt.Errorf("%w %q of %s", ErrUnknownChild, id.String(), s.name)
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
func (s *Session) DispatchChild(ctx context.Context, id Key, in Intent) (Result, error) {
	child, err := s.WarmChild(id)
	if err != nil {
		return Result{}, err
	}
	return child.Dispatch(ctx, in)
}

func (s *Session) slot(id Key) *slot {
	s.slotsMu.Lock()
	defer s.slotsMu.Unlock()
	sl := s.slots[id]
	if sl == nil || sl.detached {
		return nil
	}
	return sl
}
