package course

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// MaxPriorBytes bounds what a lesson's subagents are told about the
// lessons before it: every subagent of lesson N carries it, so it must
// not grow with the course. Each earlier lesson gets an equal share,
// its vocabulary first, so a term is the last thing cut.
const MaxPriorBytes = 6000

// Summary is what later lessons are told about a lesson, read from its
// file by key (the course knows no lesson type): its title, objectives,
// key learning points, vocabulary and prerequisites, each with where it
// is written for validate.
type Summary struct {
	// File is the lesson's path as the course names it.
	File          string
	Title         string
	Objectives    []string
	KeyPoints     []string
	Vocabulary    []Term
	Prerequisites []Entry
	// Outcome and KeyQuestions are shown on the course's index page
	// (render), not told to later lessons.
	Outcome      string
	KeyQuestions []string
	// Pending: a run will still write some of what later lessons are
	// told (title, objectives, key points, vocabulary), so they wait for
	// it (Schedule).
	Pending bool

	// told is what later lessons are told of it, and line its line of
	// the outline, each made once (Above).
	told, line string
}

// Term is a vocabulary entry and where it is written.
type Term struct {
	Term, Definition string
	Node             *yaml.Node
}

// Entry is a text item and where it is written.
type Entry struct {
	Text string
	Node *yaml.Node
}

// ReadSummary reads a lesson file's summary; rel is its name in the course.
func ReadSummary(path, rel string) (Summary, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		return Summary{}, err
	}
	src, err := yamlsrc.Parse(path, data)
	if err != nil {
		return Summary{}, err
	}
	return summarize(src.Root, rel), nil
}

// summarize reads metadata's keys; shapes it does not know are left for
// the lesson's own validation to name.
func summarize(root *yaml.Node, rel string) Summary {
	s := Summary{File: rel}
	meta := yamlsrc.Value(root, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		s.Pending = true
		return s
	}
	title := yamlsrc.Value(meta, "title")
	if _, p := yamlsrc.Pending(title); p || title == nil {
		s.Pending = true
	} else {
		s.Title = title.Value
	}
	var pend bool
	s.Objectives, pend = items(yamlsrc.Value(meta, "objectives"), "text")
	s.Pending = s.Pending || pend
	s.KeyPoints, pend = items(yamlsrc.Value(meta, "key_learning_points"), "text")
	s.Pending = s.Pending || pend
	s.Vocabulary, pend = terms(yamlsrc.Value(meta, "vocabulary"))
	s.Pending = s.Pending || pend
	if o := yamlsrc.Value(meta, "outcome"); o != nil && o.Kind == yaml.ScalarNode && o.Tag != yamlsrc.PendingTag {
		s.Outcome = o.Value
	}
	s.KeyQuestions, _ = items(yamlsrc.Value(meta, "key_questions"), "text")
	if n := yamlsrc.Value(meta, "prerequisites"); n != nil && n.Kind == yaml.SequenceNode {
		for _, it := range n.Content {
			if it.Kind == yaml.ScalarNode && it.Tag != yamlsrc.PendingTag {
				s.Prerequisites = append(s.Prerequisites, Entry{Text: it.Value, Node: it})
			}
		}
	}
	return s
}

// entries are a list's items but its placeholders, and whether the list
// or an item of it is pending. An absent list, or another shape (the
// lesson's own validation names it), has none.
func entries(n *yaml.Node) (out []*yaml.Node, pending bool) {
	if _, p := yamlsrc.Pending(n); p {
		return nil, true
	}
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, false
	}
	for _, it := range n.Content {
		if _, p := yamlsrc.Pending(it); p {
			pending = true
		} else {
			out = append(out, it)
		}
	}
	return out, pending
}

// items reads a list of text or {key: text} items.
func items(n *yaml.Node, key string) (out []string, pending bool) {
	list, pending := entries(n)
	for _, it := range list {
		if it.Kind == yaml.MappingNode {
			it = yamlsrc.Value(it, key)
		}
		if it != nil && it.Kind == yaml.ScalarNode {
			out = append(out, it.Value)
		}
	}
	return out, pending
}

// terms reads a vocabulary list: bare terms and {term, definition}, a
// pending definition making the list pending.
func terms(n *yaml.Node) (out []Term, pending bool) {
	list, pending := entries(n)
	for _, it := range list {
		switch it.Kind {
		case yaml.ScalarNode:
			out = append(out, Term{Term: it.Value, Node: it})
		case yaml.MappingNode:
			t := Term{Term: yamlsrc.Scalar(it, "term"), Node: it}
			def := yamlsrc.Value(it, "definition")
			if _, p := yamlsrc.Pending(def); p && def != nil {
				pending = true
			} else if def != nil {
				t.Definition = def.Value
			}
			out = append(out, t)
		}
	}
	return out, pending
}

// Above is the course's level of lesson n's describe chain (n counts
// from 0): the course, its outline, and what the lessons before n teach,
// within MaxPriorBytes. Every subagent of the lesson gets it above the
// lesson's own chain. It notes in all what each lesson is told of the
// ones before, so the caller serialises calls on one slice.
func Above(c *Course, all []Summary, n int) []string {
	out := []string{c.Describe() + fmt.Sprintf(" This is lesson %d of %d.", n+1, len(all)), outline(all, n)}
	if n == 0 {
		return out
	}
	share := MaxPriorBytes / n
	var b strings.Builder
	b.WriteString("Taught in the lessons before this one (reuse their terms as defined there; do not teach them again):")
	for i := range all[:n] {
		if all[i].told == "" {
			all[i].told = prior(i, all[i])
		}
		b.WriteString("\n")
		b.WriteString(clip.String(all[i].told, share))
	}
	return append(out, b.String())
}

// outline lists the course's lessons by title, marking lesson n.
func outline(all []Summary, n int) string {
	var b strings.Builder
	b.WriteString("Course outline:")
	for i := range all {
		if all[i].line == "" {
			title := clip.Text(all[i].Title)
			if title == "" {
				title = "(title not written yet)"
			}
			all[i].line = "\n" + strconv.Itoa(i+1) + ". " + title
		}
		b.WriteString(all[i].line)
		if i == n {
			b.WriteString(" (this lesson)")
		}
	}
	return b.String()
}

// prior is one earlier lesson as later ones read it, vocabulary first.
func prior(i int, s Summary) string {
	var parts []string
	if len(s.Vocabulary) > 0 {
		var ts []string
		for _, t := range s.Vocabulary {
			if t.Definition != "" {
				ts = append(ts, t.Term+" = "+t.Definition)
			} else {
				ts = append(ts, t.Term)
			}
		}
		parts = append(parts, "vocabulary: "+strings.Join(ts, "; "))
	}
	if len(s.Objectives) > 0 {
		parts = append(parts, "objectives: "+strings.Join(s.Objectives, "; "))
	}
	if len(s.KeyPoints) > 0 {
		parts = append(parts, "key learning points: "+strings.Join(s.KeyPoints, "; "))
	}
	if len(parts) == 0 {
		parts = []string{"its objectives and vocabulary are not written yet"}
	}
	return fmt.Sprintf("Lesson %d %q: %s.", i+1, s.Title, strings.Join(parts, ". "))
}
