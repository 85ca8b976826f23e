package course

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// DefaultLessonsDir is where new lesson files go when the course names
// no lesson file yet to take the folder from.
const DefaultLessonsDir = "lessons"

// ErrChanged means the course file was edited during the run; what the
// run named is not written over the edit.
var ErrChanged = errors.New("the course file was changed during the run; run again to continue from the edit")

// Save writes what the course's subagents did: each lesson they named
// becomes a new lesson file (NewLessonFile), then the course file gets
// their names and the metadata written, every other byte as the author
// wrote it. It returns the files written.
func (f *File) Save() ([]string, error) {
	c := f.Course
	var written []string
	for i := range c.Lessons {
		l := &c.Lessons[i]
		if !l.Filled() || l.File != "" {
			continue
		}
		rel, err := f.NewLessonFile(i)
		if err != nil {
			return written, err
		}
		l.File = rel
		written = append(written, filepath.Join(f.Dir(), filepath.FromSlash(rel)))
	}
	cur, err := f.edited()
	if err != nil {
		return written, err
	}
	data, err := f.Src.Patch(cur)
	if errors.Is(err, yamlsrc.ErrUnsafePatch) {
		data, err = yamlsrc.Render(cur, 2)
	}
	if err != nil {
		return written, err
	}
	if bytes.Equal(data, f.Src.Data) {
		return written, nil
	}
	err = atomicfile.WriteIf(f.Path, data, 0o644, func() error {
		now, err := regfile.ReadFile(f.Path)
		if err == nil && !bytes.Equal(now, f.Src.Data) {
			return ErrChanged
		}
		return err
	})
	if err != nil {
		return written, fmt.Errorf("%s: %w", f.Path, err)
	}
	return append(written, f.Path), nil
}

// edited is the course file's tree with the run's changes: a fresh parse
// of what was read, so the original stays to patch against.
func (f *File) edited() (*yaml.Node, error) {
	src, err := yamlsrc.Parse(f.Path, f.Src.Data)
	if err != nil {
		return nil, err
	}
	c, root := f.Course, src.Root
	meta := yamlsrc.Value(root, "course")
	for key, v := range map[string]yamlsrc.Field[string]{"subject": c.Subject, "grade": c.Grade} {
		if n := yamlsrc.Value(meta, key); n != nil && v.Set {
			*n = *yamlsrc.Encode(v.Value)
		}
	}
	if n := yamlsrc.Value(meta, "outcomes"); n != nil && c.Outcomes.Set {
		*n = *yamlsrc.Encode(c.Outcomes.Value)
	}
	list := yamlsrc.Value(root, "lessons")
	for i, l := range c.Lessons {
		if l.Pending && l.File != "" && i < len(list.Content) {
			list.Content[i] = fileItem(l.File)
		}
	}
	return root, nil
}

// fileItem is a lesson item as the author writes one: {file: PATH}.
func fileItem(rel string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "file"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: rel},
	}}
}

// NewLessonFile writes lesson i, named by AddLesson, as a new lesson file
// in the course's lessons folder: NN-slug-of-the-title.yaml, never over
// an existing file (a number is added), inside the course folder. A file
// of that name with the same title is one an interrupted run wrote
// before it could name it in the course: it is taken as it is.
func (f *File) NewLessonFile(i int) (string, error) {
	l := f.Course.Lessons[i]
	root, err := os.OpenRoot(f.Dir())
	if err != nil {
		return "", err
	}
	defer root.Close()
	dir := f.lessonsDir()
	if err := root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return "", fmt.Errorf("the lessons folder %s: %w", dir, err)
	}
	data, err := yamlsrc.Render(f.skeleton(l), 2)
	if err != nil {
		return "", err
	}
	base := fmt.Sprintf("%02d-%s", i+1, Slug(l.Title))
	for n := 1; ; n++ {
		name := base + ".yaml"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.yaml", base, n)
		}
		rel := path.Join(dir, name)
		out, err := root.OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			if s, err := ReadSummary(filepath.Join(f.Dir(), filepath.FromSlash(rel)), rel); err == nil && s.Title == l.Title {
				return rel, nil
			}
			continue
		}
		if err != nil {
			return "", fmt.Errorf("new lesson file %s: %w", rel, err)
		}
		_, err = out.Write(data)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return rel, err
	}
}

// lessonsDir is the folder of the course's first lesson file, else
// DefaultLessonsDir.
func (f *File) lessonsDir() string {
	for _, l := range f.Course.Lessons {
		if l.File != "" && !l.Pending {
			return path.Dir(filepath.ToSlash(l.File))
		}
	}
	return DefaultLessonsDir
}

// skeleton is a new lesson: its title, the course's subject and grade,
// and the rest pending with the lesson's brief as hint.
func (f *File) skeleton(l Lesson) *yaml.Node {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	brief := l.Brief
	if brief == "" {
		brief = l.Title
	}
	meta := []*yaml.Node{str("title"), str(l.Title)}
	if v, ok := f.Course.Subject.Get(); ok {
		meta = append(meta, str("subject"), str(v))
	}
	if v, ok := f.Course.Grade.Get(); ok {
		meta = append(meta, str("grade"), str(v))
	}
	meta = append(meta,
		str("objectives"), yamlsrc.PendingNode(brief),
		str("key_learning_points"), yamlsrc.PendingNode(""),
		str("vocabulary"), yamlsrc.PendingNode("the terms this lesson introduces; reuse, do not redefine, those of earlier lessons"))
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		HeadComment: "Written by lessongen for the course " + filepath.Base(f.Path) + ".",
		Content: []*yaml.Node{
			str("version"), {Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"},
			str("metadata"), {Kind: yaml.MappingNode, Tag: "!!map", Content: meta},
			str("slides"), {Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{yamlsrc.PendingNode(brief)}},
		}}
}

// Slug is title as a file name: lower-case letters and digits joined by
// hyphens, at most 48 bytes (cut at a word's end); "lesson" when nothing is left.
func Slug(title string) string {
	f := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	s := strings.Join(f, "-")
	if len(s) > 48 {
		// Cut at a word's end.
		if cut := strings.LastIndex(s[:49], "-"); cut > 0 {
			s = s[:cut]
		} else {
			s = s[:48]
		}
	}
	if s == "" {
		return "lesson"
	}
	return s
}
