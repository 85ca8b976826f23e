// Package tool holds what a subagent and the bridge exchange: tool
// definitions as a model receives them and the one envelope every tool
// result takes. It knows no modality, so the agent loop depends on none.
package tool

import (
	"encoding/json"

	"github.com/lessongen/lessongen/session"
)

// Def is one tool definition as a model receives it.
type Def struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict,omitempty"`
}

// MaxArgsBytes is the most a tool call's arguments may hold. Every intent's
// values together are a few kilobytes at most (a slide's notes, a list of
// terms); a call past this is a runaway, and refusing it keeps it out of
// the document and, as the agent shortens it in the history, out of every
// later request.
const MaxArgsBytes = 64_000

// Envelope is the one JSON shape every tool result takes, success or not.
type Envelope struct {
	OK bool `json:"ok"`
	// DryRun is set when the change was checked but not committed
	// (--approve deny).
	DryRun bool `json:"dry_run,omitempty"`
	// Result is what was committed (ids created, fields set) or, for
	// read-only tools, what was read. In JSON a single output is sent as
	// itself, not as a list of one (MarshalJSON).
	Result []any  `json:"result,omitempty"`
	Error  *Error `json:"error,omitempty"`
	// Warnings are the defects the call caused or that concern what it
	// touched; WarningsElsewhere counts the others, which a describe tool
	// lists. A successful result always carries the list, empty when there
	// is nothing to say, so a clean result reads as checked, not silent;
	// a refusal (nil) omits it.
	Warnings          []session.Warning `json:"warnings,omitzero"`
	WarningsElsewhere int               `json:"warnings_elsewhere,omitempty"`
	// Pending is what is still to be generated at this node and level: the
	// first MaxPendingShown items, PendingMore counting the rest (the
	// list_pending tool lists them all). The agent leaves it out (nil)
	// of a result whose call did not change it: the model has the list
	// from its prompt or the result that changed it; [] is nothing left.
	Pending     []session.Pending `json:"pending,omitzero"`
	PendingMore int               `json:"pending_more,omitempty"`
	// StepsLeft is the model turns left in the budget; the agent loop sets it.
	StepsLeft *int `json:"steps_left,omitempty"`
	// BudgetLeft is what the whole run may still spend (--max-requests,
	// --max-tokens-total); the agent loop sets it when the run has a budget.
	BudgetLeft *BudgetLeft `json:"budget_left,omitempty"`
}

// envelopeJSON is Envelope's JSON shape, with the result flattened.
type envelopeJSON struct {
	OK                bool              `json:"ok"`
	DryRun            bool              `json:"dry_run,omitempty"`
	Result            any               `json:"result,omitempty"`
	Error             *Error            `json:"error,omitempty"`
	Warnings          []session.Warning `json:"warnings,omitzero"`
	WarningsElsewhere int               `json:"warnings_elsewhere,omitempty"`
	Pending           []session.Pending `json:"pending,omitzero"`
	PendingMore       int               `json:"pending_more,omitempty"`
	StepsLeft         *int              `json:"steps_left,omitempty"`
	BudgetLeft        *BudgetLeft       `json:"budget_left,omitempty"`
}

// MarshalJSON sends a single output as itself ("result":[…] for a
// list read, not "result":[[…]]), several as a list.
func (e Envelope) MarshalJSON() ([]byte, error) {
	j := envelopeJSON{OK: e.OK, DryRun: e.DryRun, Error: e.Error, Warnings: e.Warnings, WarningsElsewhere: e.WarningsElsewhere,
		Pending: e.Pending, PendingMore: e.PendingMore, StepsLeft: e.StepsLeft, BudgetLeft: e.BudgetLeft}
	switch len(e.Result) {
	case 0:
	case 1:
		j.Result = e.Result[0]
	default:
		j.Result = e.Result
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote: a result that is not a
// list is one output; a list is taken as the outputs.
func (e *Envelope) UnmarshalJSON(data []byte) error {
	var j envelopeJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*e = Envelope{OK: j.OK, DryRun: j.DryRun, Error: j.Error, Warnings: j.Warnings, WarningsElsewhere: j.WarningsElsewhere,
		Pending: j.Pending, PendingMore: j.PendingMore, StepsLeft: j.StepsLeft, BudgetLeft: j.BudgetLeft}
	switch r := j.Result.(type) {
	case nil:
	case []any:
		e.Result = r
	default:
		e.Result = []any{r}
	}
	return nil
}

// BudgetLeft is a run budget's remainder; a nil field has no cap.
type BudgetLeft struct {
	Requests *int64 `json:"requests,omitempty"`
	Tokens   *int64 `json:"tokens,omitempty"`
}

// Error is a tool call that could not be carried out, in the words a model
// can act on. It goes back to the model; it never ends the run.
type Error struct {
	Kind    session.ErrorKind `json:"kind"`
	Path    string            `json:"path,omitempty"`
	Message string            `json:"message"`
	Hint    string            `json:"hint,omitempty"`
	// Moot marks a refusal that leaves the model nothing to redo: a
	// setter offered to every subagent of a level (they share one prompt
	// prefix) called where what it sets was not pending, so the value
	// stays as it was. It does not keep open a turn that otherwise
	// finished the work (agent.settled); the model still reads why.
	Moot bool `json:"-"`
}

func (e *Error) Error() string {
	return (&session.Error{Kind: e.Kind, Path: e.Path, Message: e.Message, Hint: e.Hint}).Error()
}
