// Package course is the course modality, one level above the lesson: a
// course file names its lessons (each a lesson file, or a pending item a
// run turns into one) and holds the unit's metadata (title, subject,
// grade, outcomes). Its metadata and lesson list are levels the one
// orchestrator runs (course.metadata, course.node); the lessons are then
// generated as any lesson, each under its own lock and state, with the
// earlier lessons' summaries (Summary) above their describe chains. It
// knows no other modality: a lesson file is read as YAML, by key.
package course

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// FormatVersion is the only course file version this build reads.
const FormatVersion = 1

// MaxFileBytes bounds a course file: a list of lessons, never near it.
const MaxFileBytes = 4 << 20

// Capabilities a course subagent can be granted.
const (
	CapRead     session.Capability = "course.read"
	CapMetadata session.Capability = "course.metadata"
	CapNode     session.Capability = "course.node"
)

// File is a course file as loaded: its source, for positions and the
// save that keeps every byte the author wrote, and its state.
type File struct {
	Path string
	Src  *yamlsrc.Source
	// Course is the state its session owns.
	Course *Course
}

// Dir is the folder the course's lessons live in (the course file's).
func (f *File) Dir() string { return filepath.Dir(f.Path) }

// Course is the course modality's state.
type Course struct {
	Title, Subject, Grade yamlsrc.Field[string]
	Outcomes              yamlsrc.Field[[]string]
	Lessons               []Lesson
}

// Lesson is one item of the course's lesson list: a lesson file, or a
// pending item that a course.node subagent names (AddLesson) and the run
// then writes as a new lesson file.
type Lesson struct {
	// File is the lesson file relative to the course folder; "" while
	// the item is pending.
	File string
	// Node is the item as written, for positions and the save.
	Node *yaml.Node
	// Pending item: its placeholder id and the author's hint.
	Pending bool
	ID      string
	Hint    string
	// Title and Brief are what AddLesson wrote for a pending item.
	Title, Brief string
}

// Filled reports whether a pending item has been named by AddLesson.
func (l Lesson) Filled() bool { return l.Pending && l.Title != "" }

// IsCourse reports whether data is a course file: a mapping with a
// top-level course key. A lesson file has metadata and slides instead,
// so the two never overlap.
func IsCourse(data []byte) bool {
	var probe struct {
		Course yaml.Node `yaml:"course"`
	}
	if yaml.Unmarshal(data, &probe) != nil {
		return false
	}
	return probe.Course.Kind != 0
}

// Sniff reads path and reports whether it is a course file; a file that
// cannot be read is not (the lesson loader then names what is wrong).
func Sniff(path string) bool {
	f, err := regfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	data, _, err := regfile.ReadAtMost(f, MaxFileBytes)
	if err != nil || !bytes.Contains(data, []byte("course")) {
		return false
	}
	return IsCourse(data)
}

// Load reads and decodes a course file; problems come back as
// yamlsrc.Problems naming file, line and column.
func Load(path string) (*File, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, over, err := regfile.ReadAtMost(f, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("%s: more than %d MB; a course file lists lessons, it does not hold them", path, MaxFileBytes>>20)
	}
	src, err := yamlsrc.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r := &yamlsrc.Reporter{File: path}
	c := decode(src.Root, r)
	if err := r.Problems.Err(); err != nil {
		return nil, r.Problems
	}
	return &File{Path: path, Src: src, Course: c}, nil
}

// decode reads the top level: version, course and lessons.
func decode(root *yaml.Node, r *yamlsrc.Reporter) *Course {
	c := &Course{}
	if root.Kind != yaml.MappingNode {
		r.At(root, "a course file is a mapping with the keys version, course and lessons")
		return c
	}
	seen, _ := yamlsrc.Entries(root, r, "the course file", func(k, v *yaml.Node) {
		switch k.Value {
		case "version":
			if v.Value != fmt.Sprint(FormatVersion) {
				r.At(v, "version %s is not supported; this lessongen reads version %d", v.Value, FormatVersion)
			}
		case "course":
			decodeMeta(c, v, r)
		case "lessons":
			c.Lessons = decodeLessons(v, r)
		default:
			r.At(k, "unknown key %q in the course file; it has the keys version, course and lessons", k.Value)
		}
	})
	for _, key := range []string{"version", "course", "lessons"} {
		if seen[key] == nil {
			r.At(root, "the course file is missing the required key %q", key)
		}
	}
	return c
}

// decodeMeta reads course: title (required), subject, grade, outcomes.
func decodeMeta(c *Course, n *yaml.Node, r *yamlsrc.Reporter) {
	if n.Kind != yaml.MappingNode {
		r.At(n, "course must be a mapping {title, subject, grade, outcomes}")
		return
	}
	seen, _ := yamlsrc.Entries(n, r, "course", func(k, v *yaml.Node) {
		switch k.Value {
		case "title":
			if _, pending := yamlsrc.Pending(v); pending {
				r.At(v, "course.title must be written: it names the unit every lesson's subagents are told of")
				return
			}
			c.Title = text(v, r, "course.title")
		case "subject":
			c.Subject = text(v, r, "course.subject")
		case "grade":
			c.Grade = text(v, r, "course.grade")
		case "outcomes":
			c.Outcomes = texts(v, r, "course.outcomes")
		default:
			r.At(k, "unknown key %q in course; it has the keys title, subject, grade and outcomes", k.Value)
		}
	})
	if seen["title"] == nil {
		r.At(n, "course is missing the required key \"title\"; new lesson files are named from the lessons' titles, and the course's names the unit")
	}
}

// text is a scalar field that may be pending.
func text(v *yaml.Node, r *yamlsrc.Reporter, path string) yamlsrc.Field[string] {
	if hint, ok := yamlsrc.Pending(v); ok {
		return yamlsrc.Todo[string](hint)
	}
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		r.At(v, "%s must be text (or !pending)", path)
		return yamlsrc.Field[string]{}
	}
	return yamlsrc.Val(v.Value)
}

// texts is a list of text that may be pending as a whole.
func texts(v *yaml.Node, r *yamlsrc.Reporter, path string) yamlsrc.Field[[]string] {
	if hint, ok := yamlsrc.Pending(v); ok {
		return yamlsrc.Todo[[]string](hint)
	}
	if v.Kind != yaml.SequenceNode {
		r.At(v, "%s must be a list of text (or !pending)", path)
		return yamlsrc.Field[[]string]{}
	}
	var out []string
	for i, it := range v.Content {
		if it.Kind != yaml.ScalarNode || it.Tag == yamlsrc.PendingTag {
			r.At(it, "%s[%d] must be text; make the whole list !pending to have it written", path, i)
			continue
		}
		out = append(out, it.Value)
	}
	return yamlsrc.Val(out)
}

// decodeLessons reads the lesson list: {file: PATH} items and pending
// items, each pending one a lesson still to be named and written.
func decodeLessons(v *yaml.Node, r *yamlsrc.Reporter) []Lesson {
	if v.Kind != yaml.SequenceNode {
		r.At(v, "lessons must be a list of {file: lessons/NAME.yaml} items or !pending \"what the lesson is about\"")
		return nil
	}
	var out []Lesson
	for i, it := range v.Content {
		if hint, ok := yamlsrc.Pending(it); ok {
			out = append(out, Lesson{Node: it, Pending: true, Hint: hint, ID: fmt.Sprintf("lesson%d", i+1)})
			continue
		}
		if it.Kind != yaml.MappingNode {
			r.At(it, "lessons[%d] must be {file: lessons/NAME.yaml} or !pending \"what the lesson is about\"", i)
			continue
		}
		l := Lesson{Node: it}
		yamlsrc.Entries(it, r, fmt.Sprintf("lessons[%d]", i), func(k, fv *yaml.Node) {
			switch {
			case k.Value != "file":
				r.At(k, "unknown key %q in lessons[%d]; a lesson item has the one key file", k.Value, i)
			case fv.Kind != yaml.ScalarNode || strings.TrimSpace(fv.Value) == "" || fv.Tag == yamlsrc.PendingTag:
				r.At(fv, "lessons[%d].file must be a path to a lesson file, relative to the course file", i)
			default:
				l.File = fv.Value
			}
		})
		if l.File != "" {
			out = append(out, l)
		} else if len(it.Content) == 0 {
			r.At(it, "lessons[%d] is missing the required key \"file\"", i)
		}
	}
	return out
}
