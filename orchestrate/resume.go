package orchestrate

// Resuming a node's saved conversation: a later run continues it only
// while the node still reads as the conversation left it.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// openLog opens the lesson's saved conversations, when it has a state
// folder. A log that cannot be read costs the run its saved
// conversations, not the run: it is set aside when the run may write,
// with a warning naming where, and every node starts afresh.
func openLog(opts Options) (*history.Log, error) {
	if opts.StateDir == "" {
		return nil, nil
	}
	l, err := history.Open(opts.StateDir, opts.Redact)
	var bad *history.CorruptError
	if errors.As(err, &bad) {
		msg := fmt.Sprintf("saved conversations not continued: %v", bad)
		if !opts.HistoryReadOnly {
			aside, err := l.SetAsideLog(time.Now())
			if err != nil {
				return nil, err
			}
			msg += "; set aside as " + aside + ", every node starts afresh"
		}
		opts.Events(event.Event{Kind: event.Warning, Text: msg})
	} else if err != nil {
		return nil, err
	}
	// As durable as the lesson's checkpoints, no more: they sync it, with
	// the lesson, once per interval.
	if opts.Checkpoint != nil {
		l.SyncEvery(-1)
	} else {
		l.SyncEvery(opts.CheckpointInterval)
	}
	if !opts.HistoryReadOnly {
		// Another run holding the log stops this one before its first
		// request.
		if err := l.Claim(); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// openHistory continues the node's saved conversation when there is one
// and the node still reads as the conversation left it, else starts a new
// one. A stale history (the author changed the node since) is replaced,
// not resumed: the model would reason from content that is gone.
func (r *runner) openHistory(task *agent.Task, d *modality.Descriptor, sess *session.Session, level session.Level, turn string) (*history.Writer, error) {
	hash := contentHash(d, sess, level)
	conv, err := r.loadHistory(task, true)
	switch {
	case err == nil && conv.Header.ContentHash == hash:
		w, err := r.hist.Reopen(task.Node, task.Level)
		if err != nil {
			return nil, err
		}
		// The synthetic results of interrupted calls join the file, so
		// the conversation on disk is the one sent.
		for _, m := range conv.Messages {
			if m.Role == llm.RoleTool && slices.Contains(conv.Interrupted, m.ToolCallID) {
				if err := w.Append(m); err != nil {
					return nil, err
				}
			}
		}
		r.resume(task, conv, turn, sess)
		return w, nil
	case err == nil:
		r.emit(event.Event{Kind: event.ModelText, Node: task.Node, Level: task.Level, Text: "saved conversation not continued: the node changed since it was saved"})
	case !errors.Is(err, history.ErrNone):
		return nil, err
	}
	return r.hist.Create(history.Header{Node: task.Node, Level: task.Level, ContentHash: hash})
}

// continueHistory is openHistory without writing: the node's saved
// conversation is continued when it still fits the node, nothing is saved.
func (r *runner) continueHistory(task *agent.Task, d *modality.Descriptor, sess *session.Session, level session.Level, turn string) error {
	conv, err := r.loadHistory(task, false)
	switch {
	case err == nil && conv.Header.ContentHash == contentHash(d, sess, level):
		r.resume(task, conv, turn, sess)
	case err != nil && !errors.Is(err, history.ErrNone):
		return err
	}
	return nil
}

// loadHistory loads the node's saved conversation. One that cannot be
// read (a bad line, an empty file a full disk left) costs this node its
// conversation, not the run: it is set aside when the run may write
// (setAside), with a warning naming where, and the node starts afresh.
func (r *runner) loadHistory(task *agent.Task, setAside bool) (history.Conversation, error) {
	conv, err := r.hist.Load(task.Node, task.Level)
	var bad *history.CorruptError
	if !errors.As(err, &bad) {
		return conv, err
	}
	msg := fmt.Sprintf("saved conversation not continued: %v", bad)
	if setAside {
		aside, err := r.hist.SetAside(task.Node, task.Level, time.Now())
		if err != nil {
			return conv, err
		}
		msg += "; set aside as " + aside + ", the node starts afresh"
	}
	r.emit(event.Event{Kind: event.Warning, Node: task.Node, Level: task.Level, Text: msg})
	return history.Conversation{}, history.ErrNone
}

// resume has task continue a saved conversation, with turn (the
// instruction and what it may change) as the new user turn.
func (r *runner) resume(task *agent.Task, conv history.Conversation, turn string, sess *session.Session) {
	if turn != "" {
		// The node as it stands now: the model would otherwise replay its
		// earlier calls in its head to know what is where (and what a
		// person changed since is not in them).
		var now string
		sess.View(func(st session.State) { now = st.Describe() })
		turn += "\n\nAs it stands now: " + now
	}
	task.Prior, task.Committed, task.Continue = conv.Messages, conv.Committed, turn
	r.mu.Lock()
	r.report.Continued++
	r.mu.Unlock()
}

// contentHash identifies a node's content as its modality declares it
// (modality.Descriptor.Content): what the node reads as both before a save
// and after the saved file is loaded again.
func contentHash(d *modality.Descriptor, sess *session.Session, level session.Level) string {
	content := d.Content
	if level == session.LevelMetadata && d.MetadataContent != nil {
		content = d.MetadataContent
	}
	var s string
	sess.View(func(st session.State) { s = content(st) })
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}
