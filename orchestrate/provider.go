package orchestrate

import (
	"context"
	"fmt"
	"sync"

	"github.com/lessongen/lessongen/llm"
)

// maxProviderFailures is how many nodes in a row the model provider may
// fail, with no successful model turn in between, before the run stops:
// by then the provider is down for all, not slow for one node.
const maxProviderFailures = 3

// ProviderDownError stops a run: a provider failure every node would meet
// (llm.Systemic: credentials, model not found, unreachable, not the API),
// or maxProviderFailures nodes failed in a row on the provider.
type ProviderDownError struct {
	// Err is the last provider failure.
	Err error
	// Nodes is how many nodes failed in a row (1 for a systemic failure).
	Nodes int
}

func (e *ProviderDownError) Error() string {
	if llm.Systemic(e.Err) {
		return fmt.Sprintf("stopped the run, as every node would fail the same way: %v", e.Err)
	}
	return fmt.Sprintf("stopped the run: %d nodes in a row failed on the model server with no answer in between; the last: %v", e.Nodes, e.Err)
}

func (e *ProviderDownError) Unwrap() error { return e.Err }

// health watches the provider across a run: which node failures stop the
// run and which only fail their node.
type health struct {
	mu       sync.Mutex
	failures int // nodes failed in a row since the last successful turn
}

// failed records a node the provider failed. It returns the error that
// stops the run, or nil when the node's siblings carry on.
func (h *health) failed(err error) error {
	if llm.Systemic(err) {
		return &ProviderDownError{Err: err, Nodes: 1}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failures++
	if h.failures >= maxProviderFailures {
		return &ProviderDownError{Err: err, Nodes: h.failures}
	}
	return nil
}

func (h *health) succeeded() {
	h.mu.Lock()
	h.failures = 0
	h.mu.Unlock()
}

// watchedModel tells health about every turn that succeeds, from any node.
type watchedModel struct {
	llm.Model
	h *health
}

func (m watchedModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := m.Model.Complete(ctx, req)
	if err == nil {
		m.h.succeeded()
	}
	return resp, err
}
