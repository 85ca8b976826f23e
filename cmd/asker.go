package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/bridge"
)

// terminalAsker shows each proposed change and asks y/n/always. Subagents
// run concurrently, so questions are asked one at a time.
type terminalAsker struct {
	mu     sync.Mutex
	io     *IOStreams
	in     *bufio.Reader
	always bool
}

func newTerminalAsker(streams *IOStreams) *terminalAsker {
	return &terminalAsker{io: streams, in: bufio.NewReader(streams.In)}
}

func (a *terminalAsker) Ask(ctx context.Context, p bridge.Proposal) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.always {
		return true, nil
	}
	w := a.io.ErrOut
	fmt.Fprintf(w, "\n%s wants to %s %s\n", p.Node, p.Tool, p.Args)
	for _, out := range p.Preview.Outputs {
		data, _ := json.Marshal(out)
		fmt.Fprintf(w, "  would commit: %s\n", data)
	}
	for _, warn := range p.Preview.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn.Message)
	}
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		fmt.Fprint(w, "apply? [y]es / [n]o / [a]lways: ")
		line, err := a.in.ReadString('\n')
		if err != nil && line == "" {
			return false, bridge.ErrNoTerminal
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		case "a", "always":
			a.always = true
			return true, nil
		}
	}
}
