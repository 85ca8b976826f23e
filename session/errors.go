package session

import (
	"errors"
	"fmt"
	"strings"
)

// ErrorKind classifies a rejected intent so a model (or a person) knows what
// to do differently.
type ErrorKind string

const (
	KindInvalidArgs  ErrorKind = "invalid_args"
	KindPrecondition ErrorKind = "precondition"
	KindPermission   ErrorKind = "permission"
	KindNotFound     ErrorKind = "not_found"
	KindConflict     ErrorKind = "conflict"
	// KindLimit: the call was not run because a bound on the work of one
	// turn or one subagent was reached; nothing is wrong with the call.
	KindLimit ErrorKind = "limit"
)

// Error is a rejection: nothing was changed. Path names the part of the
// intent or document it concerns ("x", "elements[e3]"), Hint what to do.
type Error struct {
	Kind    ErrorKind
	Path    string
	Message string
	Hint    string
}

func (e *Error) Error() string {
	s := string(e.Kind)
	if e.Path != "" {
		s += " at " + e.Path
	}
	s += ": " + e.Message
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Reject builds an *Error; the message is formatted, the hint is literal.
func Reject(kind ErrorKind, path, hint, format string, args ...any) *Error {
	return &Error{Kind: kind, Path: path, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// maxIDsInHint bounds the ids a not-found hint lists: it is a hint, not a
// listing (each modality's describe tool lists them all), and a model
// should not be sent thousands of ids for one typo.
const maxIDsInHint = 30

// RejectUnknown rejects a reference to item id that does not exist. The
// hint lists the ids there are under label (at most maxIDsInHint), or says
// empty when there are none.
func RejectUnknown(path, item, id string, ids []string, label, empty string) *Error {
	hint := empty
	if len(ids) > maxIDsInHint {
		ids = append(ids[:maxIDsInHint:maxIDsInHint], "…")
	}
	if len(ids) > 0 {
		hint = label + ": " + strings.Join(ids, ", ")
	}
	return Reject(KindNotFound, path, hint, "no %s %q", item, id)
}

// ErrNoHistory is returned by Undo and Redo when there is nothing to undo or
// redo.
var ErrNoHistory = errors.New("nothing to undo or redo")

// ErrUnknownChild is returned when a child slot id does not exist.
var ErrUnknownChild = errors.New("unknown child")

// AsError reports whether err is (or wraps) a rejection and returns it.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// MaxChosenID is the longest id a model may choose for an item it adds:
// ids are short slugs that later calls (an arrow's ends, an update) repeat.
const MaxChosenID = 32

// CheckChosenID rejects an id a model chose for a new item when it is not a
// short slug or is already taken; the hint names a free alternative, so
// one more call succeeds.
func CheckChosenID(id string, taken func(string) bool) error {
	slug := len(id) > 0 && len(id) <= MaxChosenID
	for i, r := range id {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !(letter || i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_')) {
			slug = false
			break
		}
	}
	if !slug {
		return Reject(KindInvalidArgs, "id", "use a short slug such as "+freeID(slugOf(id), taken)+", or leave id out",
			"id %q must start with a letter and use only letters, digits, - and _ (at most %d characters)", id, MaxChosenID)
	}
	if taken(id) {
		return Reject(KindInvalidArgs, "id", fmt.Sprintf("%q is free", freeID(id, taken)), "id %q is already taken", id)
	}
	return nil
}

// slugOf turns any string into something CheckChosenID accepts.
func slugOf(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if b.Len() >= MaxChosenID-3 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', b.Len() > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_'):
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "item"
	}
	return b.String()
}

// freeID is base with the first free numeric suffix, kept within
// MaxChosenID.
func freeID(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		suffix := fmt.Sprintf("-%d", n)
		id := base
		if len(id)+len(suffix) > MaxChosenID {
			id = id[:MaxChosenID-len(suffix)]
		}
		if id += suffix; !taken(id) {
			return id
		}
	}
}
