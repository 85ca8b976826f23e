package sources

import (
	"fmt"
	"strconv"
	"strings"
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
	if err1 != nil || err2 != nil || c.Start < 1 || c.End < c.Start {
		return Citation{}, fmt.Errorf("citation %q: lines are numbers from 1, as path:12 or path:12-18", s)
	}
	return c, nil
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
