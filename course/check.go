package course

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// Resolve checks that every lesson file the course names exists inside
// the course folder, reached without leaving it (no .., no symlink out:
// os.Root refuses both), and is named once, and returns their paths.
// Problems name the course file's line and column.
//
// Once: two items naming one file (the same path, another spelling of it
// such as lessons/../lessons/x.yaml, a link inside the folder to it, a
// hard link) would be two lessons of one run under one lesson lock, the
// second refused as "in use" by the run itself; os.SameFile compares
// the files opened, whatever the spelling.
func (f *File) Resolve() ([]string, yamlsrc.Problems) {
	r := &yamlsrc.Reporter{File: f.Path}
	root, err := os.OpenRoot(f.Dir())
	if err != nil {
		return nil, yamlsrc.Problems{{File: f.Path, Message: err.Error()}}
	}
	defer root.Close()
	paths := make([]string, len(f.Course.Lessons))
	opened := make([]os.FileInfo, len(f.Course.Lessons)) // each lesson file named so far
	for i, l := range f.Course.Lessons {
		if l.File == "" {
			continue
		}
		node := yamlsrc.Value(l.Node, "file")
		if filepath.IsAbs(l.File) {
			r.At(node, "lesson file %s is absolute; name it relative to the course file's folder", l.File)
			continue
		}
		fh, err := regfile.OpenIn(root, filepath.FromSlash(l.File))
		if err != nil {
			hint := ""
			if !errors.Is(err, fs.ErrNotExist) {
				hint = fmt.Sprintf("\nfix: lesson files live in the course's folder (%s) or below it, not through a link out of it", f.Dir())
			}
			r.At(node, "lesson file %s: %v%s", l.File, unwrapPath(err), hint)
			continue
		}
		fi, err := fh.Stat()
		fh.Close()
		if err != nil {
			r.At(node, "lesson file %s: %v", l.File, unwrapPath(err))
			continue
		}
		if j := slices.IndexFunc(opened, func(o os.FileInfo) bool { return o != nil && os.SameFile(o, fi) }); j >= 0 {
			first := f.Course.Lessons[j]
			r.At(node, "lesson file %s is the file line %d names already (%s): a course names each lesson once; remove one of the two", l.File, yamlsrc.Value(first.Node, "file").Line, first.File)
			continue
		}
		opened[i] = fi
		full := filepath.Join(f.Dir(), filepath.FromSlash(l.File))
		if Sniff(full) {
			r.At(node, "%s is a course file; a course lists lesson files", l.File)
			continue
		}
		paths[i] = full
	}
	return paths, r.Problems
}

// unwrapPath is err without the path os repeats in it.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Check looks across the lessons' summaries (in course order, each read
// from paths[i]): a vocabulary term defined two different ways, and a
// prerequisite no earlier lesson teaches. Both are warnings: a later
// lesson may sharpen a definition on purpose, a prerequisite may be
// known from before the course, and a run must not be blocked by what a
// model wrote; validate --strict makes them fail.
func Check(all []Summary, paths []string) yamlsrc.Problems {
	var ps yamlsrc.Problems
	first := map[string]int{} // normalised term -> lesson
	firstTerm := map[string]Term{}
	for i, s := range all {
		r := &yamlsrc.Reporter{File: paths[i]}
		for _, t := range s.Vocabulary {
			key := norm(t.Term)
			j, seen := first[key]
			if !seen {
				first[key], firstTerm[key] = i, t
				continue
			}
			prev := firstTerm[key]
			if t.Definition != "" && prev.Definition != "" && norm(t.Definition) != norm(prev.Definition) {
				r.WarnAt(t.Node, "the term %q is defined differently in %s (line %d: %q); define it once and reuse it, or name the difference", t.Term, all[j].File, prev.Node.Line, prev.Definition)
			}
		}
		if i > 0 {
			for _, p := range s.Prerequisites {
				if !taught(p.Text, all[:i]) {
					r.WarnAt(p.Node, "prerequisite %q is not taught in an earlier lesson of the course; teach it there, or check it is known from before the course", p.Text)
				}
			}
		}
		ps = append(ps, r.Problems...)
	}
	return ps
}

// taught reports whether an earlier lesson teaches prerequisite p: one of
// its terms is in p, or most of p's words are in one of its objectives or
// key learning points.
func taught(p string, earlier []Summary) bool {
	np := " " + norm(p) + " "
	want := words(p)
	for _, s := range earlier {
		for _, t := range s.Vocabulary {
			if nt := norm(t.Term); nt != "" && strings.Contains(np, " "+nt+" ") {
				return true
			}
		}
		for _, o := range append(append([]string{}, s.Objectives...), s.KeyPoints...) {
			if overlap(want, words(o)) {
				return true
			}
		}
	}
	return false
}

// overlap: at least half of want's words (and one) are in have.
func overlap(want, have map[string]bool) bool {
	n := 0
	for w := range want {
		if have[w] {
			n++
		}
	}
	return n > 0 && 2*n >= len(want)
}

// words are the content words of s, lower-cased (short words left out).
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(norm(s)) {
		if len(w) > 3 {
			out[strings.TrimSuffix(w, "s")] = true
		}
	}
	return out
}

// norm lower-cases s, keeps letters and digits, and joins words by one
// space: "Denominator." and "denominator" are one term.
func norm(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Join(f, " ")
}

// String names the lesson for messages.
func (s Summary) String() string { return fmt.Sprintf("%s (%q)", s.File, s.Title) }
