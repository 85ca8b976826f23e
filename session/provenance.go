package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Provenance is a state that knows which of its values generation wrote,
// so a later run may change them (refinement) until a person edits them.
// Keys name a value within the node ("heading", "elements[arrow1]",
// "slides[light]"); a hash is ContentHash of the value as written.
type Provenance interface {
	// Generated maps each value generation wrote (in this session, or
	// adopted from an earlier run's record) to the hash of what it holds.
	Generated() map[string]string
	// Adopt marks as generated each value whose key marks names and whose
	// hash still equals the mark: a value a person edited since is theirs.
	Adopt(marks map[string]string)
	// Ownership names, as prompts name them, the values of one level (its
	// metadata, or its node's items) the author wrote (locked) and those
	// generation wrote (editable), in document order.
	Ownership(level Level) (locked, editable []string)
}

// Guarded is a state that protects what the author wrote (on by default);
// turned off only around one approved change (fill --rewrite).
type Guarded interface {
	SetProtect(on bool)
}

// ContentHash is the provenance hash of a value: sha256 over its JSON.
func ContentHash(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		// Every value hashed here is plain data; a value that cannot be
		// encoded matches no mark, so it stays the author's.
		return ""
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Adjust runs fn with the state under the write lock, without a commit: for
// bookkeeping that changes no content (and so no version), such as adopting
// an earlier run's provenance. fn must not keep the state or call back into
// the session.
func (s *Session) Adjust(fn func(State)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.state)
}

// Restore replaces the state wholesale as one commit with no undo: a node
// a killed run finished, read back from its journal before anything else
// touches the session. Listeners are not told; there are none yet.
func (s *Session) Restore(st State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state, s.version = st, s.version+1
	s.undos, s.redos = nil, nil
}
