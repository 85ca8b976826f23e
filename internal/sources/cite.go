package sources

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// MaxCitations bounds one item's sources list.
const MaxCitations = 20

// Citation is one reference to the author's sources: a path and a line
// range (Start == End for one line).
type Citation struct {
	Path       string
	Start, End int
}

// ParseCitation reads "path:line" or "path:start-end".
func ParseCitation(s string) (Citation, error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return Citation{}, fmt.Errorf("citation %q: write path:line or path:start-end", s)
	}
	c := Citation{Path: s[:i]}
	lines := s[i+1:]
	from, to, isRange := strings.Cut(lines, "-")
	var err1, err2 error
	c.Start, err1 = strconv.Atoi(from)
	c.End = c.Start
	if isRange {
		c.End, err2 = strconv.Atoi(to)
	}
	if err1 != nil || err2 != nil || !digits(from) || isRange && !digits(to) || c.Start < 1 || c.End < c.Start {
		return Citation{}, fmt.Errorf("citation %q: lines are numbers from 1, as path:12 or path:12-18", s)
	}
	return c, nil
}

// digits reports whether s is written in ASCII digits alone (Atoi also
// takes a sign: "+3").
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// CheckCitations checks the form of a sources list, as the add and update
// tools and the load do.
func CheckCitations(list []string) error {
	if len(list) > MaxCitations {
		return fmt.Errorf("%d citations; at most %d", len(list), MaxCitations)
	}
	for _, s := range list {
		if _, err := ParseCitation(s); err != nil {
			return err
		}
	}
	return nil
}

// CiteHint tells a model how to write a citation.
const CiteHint = "cite as path:line or path:start-end, with the line numbers read_source shows"

// CheckList checks the sources list an intent carries: nil, or the
// invalid_args refusal every add and update tool gives.
func CheckList(list []string) error {
	if err := CheckCitations(list); err != nil {
		return session.Reject(session.KindInvalidArgs, "sources", CiteHint, "%v", err)
	}
	return nil
}

// Ref is one citation as a file holds it, so a report can point at it.
type Ref struct {
	Text string
	// Node is the YAML node it was read from: the list item, or the item
	// that holds the list; nil for one a run added.
	Node *yaml.Node
	// Where names the item for a person: slides[light].sources.
	Where string
}

// Refs pairs the sources list of the item read from the mapping src with
// the nodes it was read from.
func Refs(src *yaml.Node, list []string, where string) []Ref {
	var nodes []*yaml.Node
	if src != nil && src.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(src.Content); i += 2 {
			if v := src.Content[i+1]; src.Content[i].Value == "sources" && v.Kind == yaml.SequenceNode && len(v.Content) == len(list) {
				nodes = v.Content
			}
		}
	}
	out := make([]Ref, len(list))
	for i, text := range list {
		out[i] = Ref{Text: text, Node: src, Where: where}
		if nodes != nil {
			out[i].Node = nodes[i]
		}
	}
	return out
}

// CheckRefs reports, at load, each citation that is not written
// path:line or path:start-end, and a list longer than MaxCitations.
func CheckRefs(refs []Ref, r *yamlsrc.Reporter) {
	count := map[string]int{}
	for _, c := range refs {
		if _, err := ParseCitation(c.Text); err != nil {
			r.At(c.Node, "%s: %v", c.Where, err)
		}
		if count[c.Where]++; count[c.Where] == MaxCitations+1 {
			r.At(c.Node, "%s: more than %d citations; keep the %d that matter most", c.Where, MaxCitations, MaxCitations)
		}
	}
}

// Check reports whether a citation names an existing file and lines in
// it: nil, or a message for the author.
func (s *Sandbox) Check(c Citation) error {
	n, e := s.Lines(c.Path)
	if e != nil {
		return fmt.Errorf("%s", e.Message)
	}
	if c.End > n {
		return fmt.Errorf("%s has %d lines; line %d is past the end", c.Path, n, c.End)
	}
	return nil
}

// Checker is Check for many citations at once, as validate checks every
// citation of a lesson: each file is opened and its lines counted once,
// not once per citation that names it.
func (s *Sandbox) Checker() func(Citation) error {
	type count struct {
		n int
		e *Error
	}
	counts := map[string]count{}
	return func(c Citation) error {
		got, ok := counts[c.Path]
		if !ok {
			got.n, got.e = s.Lines(c.Path)
			counts[c.Path] = got
		}
		if got.e != nil {
			return fmt.Errorf("%s", got.e.Message)
		}
		if c.End > got.n {
			return fmt.Errorf("%s has %d lines; line %d is past the end", c.Path, got.n, c.End)
		}
		return nil
	}
}

// DecodeList reads the value of a `sources:` key that a type decoding its
// own node meets (the struct codec reads the others), reporting a value
// that is not a list of text; CheckRefs then checks each citation's form.
func DecodeList(n *yaml.Node, r *yamlsrc.Reporter, path string) []string {
	if n.Kind != yaml.SequenceNode {
		r.At(n, "%s must be a list of citations such as [ch1.md:12, ch1.md:20-24]", path)
		return nil
	}
	var list []string
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			r.At(c, "%s: a citation is text such as ch1.md:12", path)
			continue
		}
		list = append(list, c.Value)
	}
	return list
}

// AppendList adds the key sources with list to mapping m, the way a type
// encoding its own node writes its citations; nothing when list is empty.
func AppendList(m *yaml.Node, list []string) {
	if len(list) == 0 {
		return
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, c := range list {
		n.Content = append(n.Content, yamlsrc.Encode(c))
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "sources"}, n)
}
