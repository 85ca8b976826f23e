package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/tool"
)

// terminalAsker shows each proposed change and asks y/n/always. Subagents
// run concurrently, so questions are asked one at a time.
type terminalAsker struct {
	mu     sync.Mutex
	io     *IOStreams
	lines  chan string // answers, read in the background so Ctrl-C is not stuck behind a read
	always bool
	// display is paused while a question is on screen; quit stops the run
	// at its next safe point (the answer "q").
	display interface {
		Pause()
		Resume()
	}
	quit func()
}

func newTerminalAsker(streams *IOStreams) *terminalAsker {
	a := &terminalAsker{io: streams, lines: make(chan string)}
	go func() {
		defer close(a.lines)
		in := bufio.NewReader(streams.In)
		for {
			line, err := in.ReadString('\n')
			if line != "" {
				a.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return a
}

func (a *terminalAsker) Ask(ctx context.Context, p bridge.Proposal) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.always {
		return true, nil
	}
	if a.display != nil {
		a.display.Pause()
		defer a.display.Resume()
	}
	a.showProposal(p)
	w := a.io.ErrOut
	for {
		fmt.Fprint(w, "apply? [y]es / [n]o / [a]lways / [q]uit and save: ")
		var line string
		select {
		case <-ctx.Done():
			leaveQuestion(w)
			return false, ctx.Err()
		case l, ok := <-a.lines:
			if !ok {
				return false, bridge.ErrNoTerminal
			}
			line = l
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		case "a", "always":
			a.always = true
			return true, nil
		case "q", "quit":
			if a.quit == nil {
				break
			}
			fmt.Fprintln(w, "stopping: what is done so far is saved")
			a.quit()
			return false, ErrInterrupted
		}
		fmt.Fprintln(w, "answer y (apply), n (refuse), a (apply this and all later changes) or q (stop the run and save)")
	}
}

// showProposal shows what a change would do: the diff of its file, or
// its arguments and outcome, and its warnings. The preview quotes the
// model's text: shown with control characters and bidi overrides made
// visible, so it reads as what would be saved.
func (a *terminalAsker) showProposal(p bridge.Proposal) {
	w := a.io.ErrOut
	whose := ""
	if p.Authored {
		whose = ", changing what the author wrote (--rewrite)"
	}
	fmt.Fprintf(w, "\n%s wants to %s%s:\n", nodeLabel(p.Node, ""), termsafe.Line(p.Tool), whose)
	if p.Diff != "" {
		fmt.Fprint(w, indent(termsafe.String(p.Diff), "  "))
	} else {
		// No diff (none was asked for, or it could not be made): the
		// arguments and outcome, as YAML, the lesson file's own notation.
		if p.DiffErr != nil {
			fmt.Fprintf(w, "  (no diff: %s)\n", termsafe.Line(p.DiffErr.Error()))
		}
		a.showCall(p)
	}
	for _, warn := range p.Preview.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", termsafe.Line(warn.Message))
	}
}

// leaveQuestion ends a question the run was stopped at (Ctrl-C): the
// prompt line is finished, and says so, so what follows starts on a line
// of its own instead of after the prompt (and the terminal's ^C).
func leaveQuestion(w io.Writer) {
	fmt.Fprintln(w, "\nstopped: not answered, nothing applied")
}

// showCall shows a proposal's arguments and what it would commit as YAML;
// arguments that are not JSON are shown as sent.
func (a *terminalAsker) showCall(p bridge.Proposal) {
	w := a.io.ErrOut
	if args, ok := asYAML([]byte(p.Args), "    "); ok {
		fmt.Fprintf(w, "%s\n", termsafe.String(args))
	} else {
		fmt.Fprintf(w, "    %s\n", termsafe.Line(p.Args))
	}
	for _, out := range p.Preview.Outputs {
		data, _ := json.Marshal(out)
		if view, ok := asYAML(data, "    "); ok {
			fmt.Fprintf(w, "  would commit:\n%s\n", termsafe.String(view))
			continue
		}
		fmt.Fprintf(w, "  would commit: %s\n", termsafe.Line(string(data)))
	}
}

// indent puts prefix before every line of text.
func indent(text, prefix string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}

// AskAuthor shows a subagent's question and returns the answer typed, one
// question at a time and with the live display paused, as Ask does.
func (a *terminalAsker) AskAuthor(ctx context.Context, node, question string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.display != nil {
		a.display.Pause()
		defer a.display.Resume()
	}
	w := a.io.ErrOut
	fmt.Fprintf(w, "\n%s asks: %s\n", nodeLabel(node, ""), termsafe.Line(question))
	fmt.Fprint(w, "your answer (empty: let it choose): ")
	select {
	case <-ctx.Done():
		leaveQuestion(w)
		return "", ctx.Err()
	case l, ok := <-a.lines:
		if !ok {
			return "", tool.ErrNoAuthor
		}
		ans := strings.TrimSpace(l)
		if ans == "" {
			return "", tool.ErrNoAuthor
		}
		return ans, nil
	}
}
