// Package agent runs one subagent: a tool-calling conversation for one level
// of one node, with a step budget, a repair turn, and cancellation.
package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// Tools is what a subagent may call; bridge.Toolset implements it.
type Tools interface {
	Tools() []tool.Def
	ReadOnly(name string) bool
	Call(ctx context.Context, name, args string) (tool.Envelope, error)
	Pending() []session.Pending
	// Defects lists the defects (e.g. overlapping elements) the subagent
	// introduced that remain.
	Defects() []session.Warning
	// Capability is what a tool needs granted (tool.CapNote for the note
	// to the person); "" for a tool not on offer.
	Capability(name string) session.Capability
}

// Task is one subagent's job.
type Task struct {
	Node  string
	Level string
	// Prompt is the rendered task prompt, the level's fixed instructions;
	// it goes out as the system message.
	Prompt string
	// NodePart is the node's own part of the prompt (describe chain,
	// pending list), sent after the kickoff in the first user message, so
	// that what precedes it is the same for every subagent of a level.
	NodePart string
	// MaxSteps is the budget of model turns, the repair turn included.
	MaxSteps int

	// Prior, when set, is an earlier conversation of this node to continue
	// (well-formed: every call has its result); it is sent instead of
	// Prompt and the kickoff, followed by Continue as the new user turn.
	// Without Prior, Continue replaces the kickoff (a refinement with
	// nothing pending and no saved conversation).
	Prior    []llm.Message
	Continue string
	// Committed holds the ids of calls already applied in an earlier run:
	// a call with such an id is answered without running it again.
	Committed map[string]bool
	// Append, when set, is given each message as it joins the
	// conversation, before what follows it runs: an assistant turn before
	// its tools, each tool result when it commits. It may be called from
	// several goroutines at once. An error ends the subagent.
	Append func(llm.Message) error
	// BudgetLeft, when set, is what the run may still spend, shown in
	// every tool result beside steps_left.
	BudgetLeft func() *tool.BudgetLeft
	// Review, when set, shows the node as it stands (--review): once the
	// work is done, the model gets one more turn with it, to look at
	// what it made and fix what it sees before the subagent ends; while
	// its replies change the node, it is shown again (at most MaxLooks).
	Review func(ctx context.Context) string
	// ReviewImage, when set with Review, is the node as drawn (a PNG),
	// sent with each look (--review-images), drawn again each time;
	// nil from it sends none. A server that refuses the image gets the
	// turn again without it, with a warning, and ImagesRefused (when
	// set) is told, so the run stops sending images.
	ReviewImage   func(ctx context.Context) []byte
	ImagesRefused func()
	// Refinement marks a task that carries out a person's instruction on
	// a node with nothing pending: a turn whose calls all succeed ends it
	// when it changed the node or answered with a note, as its prompt
	// says, since no pending list is left to empty.
	Refinement bool
	// RequestBytes, when set, is the size of the body a request goes out
	// as (llm.Client.RequestBytes): MaxRequestBytes then holds on the
	// wire, where JSON escaping and each message's fields add to the text
	// (a 2,000-call flood sent 4.26 MB under a 4 MB cap on its text).
	RequestBytes func(llm.Request) (int, error)
}

// Stop says why a subagent ended.
type Stop string

const (
	StopDone     Stop = "done"     // the model stopped calling tools
	StopBudget   Stop = "budget"   // the step budget ran out
	StopCanceled Stop = "canceled" // the context was cancelled
	StopFailed   Stop = "failed"   // the model provider failed
)

// Result is how a subagent ended.
type Result struct {
	Stop     Stop
	Steps    int
	Requests int
	Tokens   event.Tokens
	// Pending is what is still pending at the node's level after the run.
	Pending []session.Pending
	// Defects are the defects the subagent introduced that remain.
	Defects []session.Warning
	// Repaired is set when the repair turn was used.
	Repaired bool
	// Unparsed is set when the model stopped with work pending and its
	// text was a tool call the server did not parse
	// (llm.ErrUnparsedToolCalls): a repair turn would meet the same.
	Unparsed bool
	// Looks counts the times the review (Task.Review) showed the node.
	Looks int
	// PromptBytes counts the bytes of message text sent, over all turns.
	PromptBytes int
	Messages    []llm.Message
	// Refusals are this run's calls that were refused, in the order the
	// model made them (the first MaxRefusalsKept; RefusalCount counts
	// them all): why a refinement that changed nothing did not.
	Refusals     []Refusal
	RefusalCount int
}

// Refusal is one refused call: the tool and the reason it was given.
type Refusal struct {
	Tool    string `json:"tool"`
	Message string `json:"message"`
}

// MaxRefusalsKept bounds the refusals a Result keeps: enough to say why,
// never a runaway model's thousands.
const MaxRefusalsKept = 5

// MaxCallsPerTurn is the most tool calls run from one model turn; the
// rest are answered with a limit envelope. A turn that does the work of a
// whole node needs well under this (a whiteboard rarely has 20 elements,
// a lesson adds at most its slide cap), and it bounds what one turn can
// cost: with every result small, the next request grows by at most this
// many results, not by whatever a runaway model asks for.
const MaxCallsPerTurn = 64

// MaxLooks is the most times the review shows a node: once its work is
// done, then again after each reply that changed it, so a fix made in
// review is seen as it is drawn (an equation left tiny by a resize).
// A model that keeps changing things is not shown it a fourth time.
const MaxLooks = 3

// Request size bounds. The largest context windows in use hold about a
// million tokens, some 4 MB of text: a bigger request cannot be answered
// and means something ran away. One message past 1 MB (a tool result, a
// prompt) is a runaway on its own, and naming it says what to fix.
const (
	MaxRequestBytes = 4_000_000
	MaxMessageBytes = 1_000_000
)

// RequestTooLargeError is a request the subagent would not send. It ends
// the subagent (its node fails) but not the run.
type RequestTooLargeError struct {
	// What names the oversized message, or "the request" as a whole.
	What        string
	Size, Limit int
}

func (e *RequestTooLargeError) Error() string {
	return fmt.Sprintf("request not sent: %s is %s; limit %s", e.What, clip.Size(e.Size), clip.Size(e.Limit))
}

// checkSize refuses a request over MaxMessageBytes in one message or
// MaxRequestBytes in all, naming the largest message. With wire (the
// body's size as sent), the whole is measured as sent once its text
// alone could be over: escaping makes a byte of text at most six on the
// wire, and each message and call adds its fields.
func checkSize(msgs []llm.Message, tools []llm.Tool, wire func(llm.Request) (int, error)) error {
	total, largest, largestAt, parts, images := 0, 0, 0, 0, 0
	for i, m := range msgs {
		n := len(m.Content)
		for _, c := range m.ToolCalls {
			n += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		for _, img := range m.Images {
			images += len(img)
		}
		parts += 1 + len(m.ToolCalls) + len(m.Images)
		total += n
		if n > largest {
			largest, largestAt = n, i
		}
	}
	for _, t := range tools {
		total += len(t.Name) + len(t.Description) + len(t.Parameters)
		parts++
	}
	tooLarge := func(size int) error {
		return &RequestTooLargeError{What: fmt.Sprintf("the request (largest part: %s, %s)", describeMessage(msgs, largestAt), clip.Size(largest)), Size: size, Limit: MaxRequestBytes}
	}
	switch {
	case largest > MaxMessageBytes:
		return &RequestTooLargeError{What: describeMessage(msgs, largestAt), Size: largest, Limit: MaxMessageBytes}
	case total > MaxRequestBytes:
		return tooLarge(total)
	case wire == nil || 6*total+2*images+256*parts <= MaxRequestBytes:
		return nil
	}
	size, err := wire(llm.Request{Messages: msgs, Tools: tools})
	if err != nil {
		return fmt.Errorf("measure the request: %w", err)
	}
	if size > MaxRequestBytes {
		return tooLarge(size)
	}
	return nil
}

// describeMessage names msgs[i] for a person: "the tool result of call c5
// (describe_lesson)", "the model's reply of turn 2 (80 tool calls)".
func describeMessage(msgs []llm.Message, i int) string {
	m := msgs[i]
	switch m.Role {
	case llm.RoleSystem:
		return "the task prompt"
	case llm.RoleUser:
		return "the user message"
	case llm.RoleAssistant:
		turn := 0
		for _, p := range msgs[:i+1] {
			if p.Role == llm.RoleAssistant {
				turn++
			}
		}
		if len(m.ToolCalls) > 0 {
			return fmt.Sprintf("the model's reply of turn %d (%d tool calls)", turn, len(m.ToolCalls))
		}
		return fmt.Sprintf("the model's reply of turn %d", turn)
	case llm.RoleTool:
		for _, p := range msgs[:i] {
			for _, c := range p.ToolCalls {
				if c.ID == m.ToolCallID {
					return fmt.Sprintf("the tool result of call %s (%s)", c.ID, c.Name)
				}
			}
		}
		return "the tool result of call " + m.ToolCallID
	}
	return fmt.Sprintf("message %d", i)
}

// kickoff is the user turn that starts a subagent. The conversation ends
// by itself once a tool turn leaves nothing pending and no defects, so no
// closing reply is asked for: it would cost a request.
const kickoff = "Fill every pending item using the tools; make all the calls you can in one turn. The task ends as soon as nothing is pending."

// FirstRequest is the request that starts task: the saved conversation
// (Prior) or the task prompt, then the kickoff (or Continue) as the user
// turn, with the tools on offer. A cost estimate sizes it without
// running anything.
func FirstRequest(tools Tools, task Task) llm.Request {
	msgs := slices.Clone(task.Prior)
	if len(msgs) == 0 {
		msgs = []llm.Message{{Role: llm.RoleSystem, Content: task.Prompt}}
	}
	turn := llm.Message{Role: llm.RoleUser, Content: cmp.Or(task.Continue, kickoff)}
	// The first user turn carries the node's part, also when a saved
	// conversation holds only this layout's system message (a run killed
	// before the turn was saved); one of the earlier layout held the part.
	first := !slices.ContainsFunc(msgs, func(m llm.Message) bool { return m.Role == llm.RoleUser })
	if first && task.NodePart != "" && (len(task.Prior) == 0 || msgs[0].Content == task.Prompt) {
		turn.Content += "\n\n" + strings.TrimSpace(task.NodePart)
	}
	if task.Refinement && len(task.Prior) > 0 && msgs[0].Role == llm.RoleSystem && task.Prompt != "" {
		// A refinement continues the conversation under its own rules
		// (change what the person asks; only the tools now on offer), not
		// the generation's that began it ("fill only what is pending").
		sys := task.Prompt
		if u := slices.IndexFunc(msgs, func(m llm.Message) bool { return m.Role == llm.RoleUser }); u > 0 && task.NodePart != "" && !strings.Contains(msgs[u].Content, "\n\n") {
			// An earlier layout kept the node's part in the system message
			// and sent the kickoff alone: the part stays where it was.
			sys = strings.TrimRight(sys, "\n") + "\n" + strings.TrimSpace(task.NodePart) + "\n"
		}
		msgs[0] = llm.Message{Role: llm.RoleSystem, Content: sys}
	}
	// A run stopped before the answer to this very turn saved it already:
	// ask it again, not twice, so the request is the one sent before (a
	// batch in flight holds it, --batch).
	unanswered := len(task.Prior) > 0 && msgs[len(msgs)-1].Role == llm.RoleUser
	switch {
	case unanswered && askedAlready(msgs, turn.Content):
	case unanswered:
		// Another turn was saved unanswered (a refinement killed while the
		// model answered): it gets an answer of its own, saved with the
		// new turn, so no two user turns meet (a chat template that wants
		// the roles to alternate refuses them).
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: Unanswered}, turn)
	default:
		msgs = append(msgs, turn)
	}
	return llm.Request{Messages: msgs, Tools: toLLMTools(tools.Tools())}
}

// Unanswered stands in a conversation for the answer to a user turn the
// model never gave: the run stopped first, and another turn follows.
const Unanswered = "[lessongen: not answered: the run stopped before this turn was answered]"

// askedAlready reports whether the last of msgs, a saved user turn, is
// lead: the same words, or, as the conversation's first user turn, lead
// followed by the node's part. A later turn must match whole: a new
// instruction that is the start of an unanswered old one is still sent.
func askedAlready(msgs []llm.Message, lead string) bool {
	saved := msgs[len(msgs)-1].Content
	if saved == lead {
		return true
	}
	firstUser := slices.IndexFunc(msgs, func(m llm.Message) bool { return m.Role == llm.RoleUser }) == len(msgs)-1
	return firstUser && strings.HasPrefix(saved, lead+"\n\n")
}

// Run runs the subagent. It returns an error only for what ends it early
// and is not the model's to fix: a provider failure, cancellation, or a
// request too large to send (a *RequestTooLargeError), with the result so
// far.
func Run(ctx context.Context, model llm.Model, tools Tools, task Task, emit event.Sink) (Result, error) {
	if emit == nil {
		emit = event.Discard
	}
	res := Result{}
	save := task.Append
	if save == nil {
		save = func(llm.Message) error { return nil }
	}
	var msgs []llm.Message
	if len(task.Prior) > 0 {
		msgs = slices.Clone(task.Prior)
	}
	first := FirstRequest(tools, task)
	if len(msgs) > 0 {
		msgs[0] = first.Messages[0] // a refinement's own system prompt, not the saved one
	}
	for _, m := range first.Messages[len(msgs):] {
		if err := save(m); err != nil {
			return finish(res, msgs, tools, StopFailed), err
		}
		msgs = append(msgs, m)
	}
	defs := first.Tools
	reviewing := false // the next request is a review turn
	changed := false   // a change was committed since the last look
	for res.Steps < task.MaxSteps {
		if err := ctx.Err(); err != nil {
			return finish(res, msgs, tools, StopCanceled), err
		}
		if err := checkSize(msgs, defs, task.RequestBytes); err != nil {
			return finish(res, msgs, tools, StopFailed), err
		}
		res.Steps++
		for _, m := range msgs {
			res.PromptBytes += len(m.Content)
		}
		chunks := newChunker(task, res.Steps, emit)
		resp, err := model.Complete(ctx, llm.Request{Messages: msgs, Tools: defs, OnText: chunks.add, OnRestart: chunks.restart})
		chunks.flush()
		res.Requests += resp.Sent(err)
		if err != nil && llm.ImageRefused(err) && dropImages(msgs) {
			res.Steps--
			emit(event.Event{Kind: event.Warning, Node: task.Node, Level: task.Level, Text: "the model server refused the review's image (" + err.Error() + "): reviewing from the text alone"})
			if task.ImagesRefused != nil {
				task.ImagesRefused()
			}
			continue
		}
		if err != nil {
			if resp.Sent(err) == 0 {
				res.Steps-- // nothing was sent (a spent run budget refused it): no turn
			}
			if ctx.Err() != nil {
				return finish(res, msgs, tools, StopCanceled), ctx.Err()
			}
			if reviewing && resp.Sent(err) > 0 {
				// The work was done before the review was asked for: a
				// review the server fails does not undo it.
				emit(event.Event{Kind: event.Warning, Node: task.Node, Level: task.Level, Step: res.Steps, Text: "the review turn failed; the node is kept as it was before it: " + err.Error()})
				return finish(res, msgs, tools, StopDone), nil
			}
			return finish(res, msgs, tools, StopFailed), err
		}
		reviewing = false
		tokens := event.Tokens{Prompt: resp.Usage.PromptTokens, Completion: resp.Usage.CompletionTokens, Cached: resp.Usage.CachedTokens}
		res.Tokens = res.Tokens.Add(tokens)
		emit(event.Event{Kind: event.Usage, Node: task.Node, Level: task.Level, Step: res.Steps, Tokens: &tokens})
		if text := strings.TrimSpace(resp.Message.Content); text != "" {
			// Events hold a model's values clipped like its arguments.
			emit(event.Event{Kind: event.ModelText, Node: task.Node, Level: task.Level, Step: res.Steps, Text: clip.String(text, tool.MaxArgsBytes)})
		}
		assistant := llm.Message{Role: llm.RoleAssistant, Content: resp.Message.Content, ToolCalls: resp.Message.ToolCalls}
		kept := llm.Message{Role: assistant.Role, Content: assistant.Content, ToolCalls: historyCalls(assistant.ToolCalls)}
		// Write-ahead: the turn is saved before any of its tools runs.
		if err := save(kept); err != nil {
			return finish(res, msgs, tools, StopFailed), err
		}
		msgs = append(msgs, kept)

		if len(assistant.ToolCalls) == 0 {
			pending, defects := session.Owed(tools.Pending()), tools.Defects()
			if len(pending)+len(defects) > 0 && llm.UnparsedToolCall(assistant.Content, defs) {
				res.Unparsed = true
				return finish(res, msgs, tools, StopDone), nil
			}
			if len(pending)+len(defects) == 0 && res.Steps < task.MaxSteps {
				if ok, err := review(ctx, task, &res, &msgs, save, changed); err != nil {
					return finish(res, msgs, tools, StopFailed), err
				} else if ok {
					reviewing, changed = true, false
					continue
				}
			}
			if len(pending)+len(defects) == 0 || res.Repaired || res.Steps >= task.MaxSteps {
				return finish(res, msgs, tools, StopDone), nil
			}
			// One bounded repair turn naming exactly what is missing or
			// wrong.
			res.Repaired = true
			repair := llm.Message{Role: llm.RoleUser, Content: repairPrompt(pending, defects, task.MaxSteps-res.Steps)}
			if err := save(repair); err != nil {
				return finish(res, msgs, tools, StopFailed), err
			}
			msgs = append(msgs, repair)
			continue
		}
		results, moot, err := runCalls(ctx, tools, assistant.ToolCalls, task, res.Steps, emit, save)
		msgs = append(msgs, results...)
		for i, c := range assistant.ToolCalls {
			if i < len(results) && !tools.ReadOnly(c.Name) && resultOK(results[i].Content) {
				changed = true
			}
		}
		if err != nil {
			stop := StopCanceled
			if ctx.Err() == nil {
				stop = StopFailed
			}
			return finish(res, msgs, tools, stop), err
		}
		res.addRefusals(assistant.ToolCalls, results)
		if settled(tools, assistant.ToolCalls, results, moot, task.Refinement) {
			if res.Steps < task.MaxSteps {
				if ok, err := review(ctx, task, &res, &msgs, save, changed); err != nil {
					return finish(res, msgs, tools, StopFailed), err
				} else if ok {
					reviewing, changed = true, false
					continue
				}
			}
			// Nothing left to do: a closing text turn would cost a request
			// and change nothing.
			return finish(res, msgs, tools, StopDone), nil
		}
	}
	return finish(res, msgs, tools, StopBudget), nil
}

// review shows the model the node as it stands, after the results of its
// last calls (which it would otherwise never read): once its work is
// done, and again, drawn afresh, after a reply that changed something,
// until MaxLooks.
func review(ctx context.Context, task Task, res *Result, msgs *[]llm.Message, save func(llm.Message) error, changed bool) (bool, error) {
	if task.Review == nil || res.Looks >= MaxLooks || (res.Looks > 0 && !changed) {
		return false, nil
	}
	res.Looks++
	lead := "Review what you made before it is saved. The results of your last calls are above; this is the node as it stands now:"
	if res.Looks > 1 {
		lead = "Look again: this is the node as it stands after your changes:"
	}
	end := "If something is wrong or could be clearer for students (text crossing a line, a label on the wrong thing, text too small to read, a warning), fix it with the tools now. If it is right, reply with no tool calls."
	if res.Looks == MaxLooks {
		end += " This is the last look: what you change now is not shown to you again, so fix only what is clearly wrong."
	}
	m := llm.Message{Role: llm.RoleUser, Content: lead + "\n\n" + task.Review(ctx) + "\n\n" + end}
	if task.ReviewImage != nil {
		if img := task.ReviewImage(ctx); img != nil {
			// One picture per request: the node as it stands, not
			// every earlier look at it.
			dropImages(*msgs)
			m.Content += "\n\nThe image is how it is drawn for students."
			m.Images = [][]byte{img}
		}
	}
	if err := save(m); err != nil {
		return false, err
	}
	*msgs = append(*msgs, m)
	return true, nil
}

// dropImages removes the images of msgs, reporting whether there were any.
func dropImages(msgs []llm.Message) bool {
	found := false
	for i := range msgs {
		if len(msgs[i].Images) > 0 {
			msgs[i].Images, found = nil, true
		}
	}
	return found
}

// historyCalls is the model's calls as later requests repeat them: the
// arguments of a call too large to run are replaced by {} (its result says
// why), so one runaway call is not sent again with every turn. Servers such
// as Ollama need valid JSON there.
func historyCalls(calls []llm.ToolCall) []llm.ToolCall {
	var out []llm.ToolCall
	for i, c := range calls {
		if len(c.Arguments) <= tool.MaxArgsBytes {
			continue
		}
		if out == nil {
			out = slices.Clone(calls)
		}
		out[i].Arguments = "{}"
	}
	if out == nil {
		return calls
	}
	return out
}

// settled reports whether a tool turn finished the subagent's work: it
// changed something (in a refinement, or left a note for the person),
// every call succeeded, and nothing is pending and no defect it
// introduced remains. A turn of reads only (a model looking before it
// acts) or one with a failed call goes back to the model, unless the
// failure is moot (see tool.Error.Moot): a setter offered to every
// subagent of a level, called for what was not pending here, costs no
// turn.
func settled(tools Tools, calls []llm.ToolCall, results []llm.Message, moot []bool, refinement bool) bool {
	acted := false
	for i, c := range calls {
		if !tools.ReadOnly(c.Name) || refinement && tools.Capability(c.Name) == tool.CapNote {
			acted = true
		}
		if !moot[i] && !resultOK(results[i].Content) {
			return false
		}
	}
	return acted && len(tools.Pending()) == 0 && len(tools.Defects()) == 0
}

// resultOK reads the "ok" of a tool result envelope.
func resultOK(content string) bool {
	var env struct {
		OK bool `json:"ok"`
	}
	return json.Unmarshal([]byte(content), &env) == nil && env.OK
}

// addRefusals records the turn's refused calls with their reasons.
func (res *Result) addRefusals(calls []llm.ToolCall, results []llm.Message) {
	for i, c := range calls {
		var env struct {
			OK    bool        `json:"ok"`
			Error *tool.Error `json:"error"`
		}
		if json.Unmarshal([]byte(results[i].Content), &env) != nil || env.OK || env.Error == nil {
			continue
		}
		res.RefusalCount++
		if len(res.Refusals) < MaxRefusalsKept {
			res.Refusals = append(res.Refusals, Refusal{Tool: c.Name, Message: env.Error.Message})
		}
	}
}

func finish(res Result, msgs []llm.Message, tools Tools, stop Stop) Result {
	res.Stop, res.Messages, res.Pending, res.Defects = stop, msgs, session.Owed(tools.Pending()), tools.Defects()
	return res
}

func repairPrompt(pending []session.Pending, defects []session.Warning, stepsLeft int) string {
	var b strings.Builder
	if len(pending) > 0 {
		b.WriteString("You stopped, but these are still pending:\n")
	}
	for _, p := range pending {
		b.WriteString("- " + p.Name())
		if p.ID != "" {
			b.WriteString(" [placeholder " + p.ID + "]")
		}
		if p.Hint != "" {
			fmt.Fprintf(&b, ": %q", p.Hint)
		}
		b.WriteString("\n")
	}
	if len(defects) > 0 {
		b.WriteString("You stopped, but your changes left these defects:\n")
		for i, d := range defects {
			if i == session.MaxWarnings {
				// As in tool results: the prompt stays bounded.
				fmt.Fprintf(&b, "- and %d more\n", len(defects)-i)
				break
			}
			fmt.Fprintf(&b, "- %s: %s\n", d.Path, d.Message)
		}
	}
	switch {
	case len(defects) == 0:
		fmt.Fprintf(&b, "Fill them now with the tools (%d turns left), then reply with no tool calls.", stepsLeft)
	case len(pending) == 0:
		fmt.Fprintf(&b, "Fix each now with the tools (%d turns left), then reply with no tool calls.", stepsLeft)
	default:
		fmt.Fprintf(&b, "Fill and fix them now with the tools (%d turns left), then reply with no tool calls.", stepsLeft)
	}
	return b.String()
}

func toLLMTools(tools []tool.Def) []llm.Tool {
	out := make([]llm.Tool, len(tools))
	for i, t := range tools {
		out[i] = llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict}
	}
	return out
}

// runCalls answers every tool call with exactly one tool message, in the
// order given. Consecutive read-only calls run in parallel; each mutation
// runs alone, after everything before it, so the model's order holds.
// Calls past MaxCallsPerTurn are not run and get a limit envelope. moot
// marks the calls refused as moot (tool.Error.Moot).
func runCalls(ctx context.Context, tools Tools, calls []llm.ToolCall, task Task, step int, emit event.Sink, save func(llm.Message) error) (_ []llm.Message, moot []bool, _ error) {
	out := make([]llm.Message, len(calls))
	moot = make([]bool, len(calls))
	n := min(len(calls), MaxCallsPerTurn)
	stepsLeft := task.MaxSteps - step
	run := func(i int) error {
		c := calls[i]
		emit(event.Event{Kind: event.ToolCall, Node: task.Node, Level: task.Level, Step: step, Tool: c.Name, CallID: c.ID, Args: clip.String(c.Arguments, tool.MaxArgsBytes)})
		if task.Committed[c.ID] {
			// The call id is the idempotency key: an earlier run applied it.
			out[i] = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: notRun(session.KindPrecondition, "not run again: call "+c.ID+" was already applied in an earlier run")}
			return save(out[i])
		}
		var before string
		readOnly := tools.ReadOnly(c.Name)
		if !readOnly {
			before = pendingKey(tools.Pending())
		}
		env, err := tools.Call(ctx, c.Name, c.Arguments)
		if err != nil {
			return err
		}
		// The pending list is sent once: in the prompt, then in the
		// result of a call that changed it, never repeated in results
		// that would only say it again (a turn of 20 calls sent it 20
		// times). A read changes nothing, so it is decided without
		// looking, the same whichever parallel read finishes first.
		if readOnly || pendingKey(tools.Pending()) == before {
			env.Pending, env.PendingMore = nil, 0
		}
		env.StepsLeft = &stepsLeft
		if task.BudgetLeft != nil {
			env.BudgetLeft = task.BudgetLeft()
		}
		data, err := json.Marshal(env)
		if err != nil {
			return err
		}
		ok := env.OK
		moot[i] = env.Error != nil && env.Error.Moot
		emit(event.Event{Kind: event.ToolResult, Node: task.Node, Level: task.Level, Step: step, Tool: c.Name, CallID: c.ID, OK: &ok, Result: data})
		out[i] = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: string(data)}
		return save(out[i])
	}
	for i := 0; i < n; {
		if !tools.ReadOnly(calls[i].Name) {
			if err := run(i); err != nil {
				return filled(out, calls), moot, err
			}
			i++
			continue
		}
		j := i
		for j < n && tools.ReadOnly(calls[j].Name) {
			j++
		}
		var wg sync.WaitGroup
		errs := make([]error, j-i)
		for k := i; k < j; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[k-i] = run(k)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return filled(out, calls), moot, err
			}
		}
		i = j
	}
	if n < len(calls) {
		limited := notRun(session.KindLimit, fmt.Sprintf("not run: at most %d calls per turn; call again next turn", MaxCallsPerTurn))
		ok := false
		for i := n; i < len(calls); i++ {
			c := calls[i]
			emit(event.Event{Kind: event.ToolCall, Node: task.Node, Level: task.Level, Step: step, Tool: c.Name, CallID: c.ID, Args: clip.String(c.Arguments, tool.MaxArgsBytes)})
			emit(event.Event{Kind: event.ToolResult, Node: task.Node, Level: task.Level, Step: step, Tool: c.Name, CallID: c.ID, OK: &ok, Result: json.RawMessage(limited)})
			out[i] = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: limited}
			if err := save(out[i]); err != nil {
				return filled(out, calls), moot, err
			}
		}
	}
	return out, moot, nil
}

// filled answers the calls the run stopped before, so the conversation
// still has exactly one result per call.
func filled(msgs []llm.Message, calls []llm.ToolCall) []llm.Message {
	stopped := notRun(session.KindPrecondition, "not run: the subagent stopped")
	for i, m := range msgs {
		if m.Role == "" {
			msgs[i] = llm.Message{Role: llm.RoleTool, ToolCallID: calls[i].ID, Content: stopped}
		}
	}
	return msgs
}

// pendingKey identifies a pending list, to tell whether a call changed it.
func pendingKey(ps []session.Pending) string {
	data, _ := json.Marshal(ps)
	return string(data)
}

// notRun is the result of a call that was never carried out. It carries no
// pending list: it is sent for many calls at once and should stay small.
func notRun(kind session.ErrorKind, message string) string {
	data, _ := json.Marshal(struct {
		OK    bool        `json:"ok"`
		Error *tool.Error `json:"error"`
	}{Error: &tool.Error{Kind: kind, Message: message}})
	return string(data)
}
