package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/statedir"
)

// stateDirs is where a run keeps the lesson's state (saved conversations,
// notes): beside the file it saves the lesson to, in that file's own
// folder (internal/statedir), unless --state-dir names one.
type stateDirs struct {
	dir string
	// from, for a run to another file (-o) whose output has no state yet,
	// is the input's state: the output's starts as a copy of it, so an
	// earlier run's conversations and notes go on with the lesson.
	from string
	// migrate is the lesson file whose old, shared state folder (one
	// .lessongen for every lesson beside it) becomes its own on first use.
	migrate  string
	explicit bool
}

// stateFor resolves the state folder of a run on file saving to out.
func stateFor(setting, file, out string) (stateDirs, error) {
	if out != "" && out != "-" && inStateFolder(out) {
		// Its state folder would be made inside the state it starts from
		// as a copy, and the copy would walk into itself.
		return stateDirs{}, usagef("-o %s is inside a state folder (%s), which lessongen keeps for itself; write the lesson elsewhere", out, statedir.Name)
	}
	if setting != "" {
		return stateDirs{dir: setting, explicit: true}, nil
	}
	saveTo := file
	if out != "" && out != "-" {
		saveTo = out
	}
	for _, f := range []string{file, saveTo} {
		if err := statedir.CheckName(f); err != nil {
			return stateDirs{}, usagef("%v", err)
		}
	}
	s := stateDirs{dir: statedir.For(saveTo)}
	if _, err := os.Lstat(s.dir); !errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	switch {
	case saveTo == file:
		s.migrate = file
	case statedir.ReadDir(file) != statedir.For(file) || exists(statedir.For(file)):
		s.from = statedir.ReadDir(file)
	}
	return s, nil
}

// prepare makes the state folder ready before a run that saves state
// starts: it migrates or copies the state it starts from, then checks
// that nothing in it is a link and that it can be written (exit 2). It
// returns the folder to continue conversations from. A replay (readOnly)
// saves no conversation, so it moves and copies nothing either: it reads
// the state it would start from where it is.
func (s stateDirs) prepare(errOut io.Writer, readOnly bool) (string, error) {
	var note string
	var err error
	switch {
	case readOnly && s.from != "":
		return s.from, statedirCheck(s.dir)
	case readOnly && s.migrate != "":
		return statedir.ReadDir(s.migrate), statedirCheck(s.dir)
	case s.migrate != "":
		note, err = statedir.Migrate(s.migrate, otherLessons(s.migrate))
	case s.from != "":
		entries := ownEntries(s.from)
		if filepath.Base(s.from) == statedir.Name { // the old layout: only its state
			entries = []string{statedir.HistoryDir, statedir.NotesFile}
		}
		if entries == nil || len(entries) > 0 {
			err = statedir.Copy(s.from, s.dir, entries...)
		}
		note = fmt.Sprintf("%s starts from a copy of %s, the state of the lesson it is made from", s.dir, s.from)
	}
	if err != nil {
		return "", usagef("state folder: %v", err)
	}
	if note != "" {
		fmt.Fprintf(errOut, "lessongen: note: %s\n", note)
	}
	return s.dir, statedirCheck(s.dir)
}

// ownEntries lists the entries of state folder dir that a copy of it
// takes along: all but the record of what its file was made from, which
// is that file's, not the copy's (nil lists all).
func ownEntries(dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var entries []string
	for _, d := range des {
		if d.Name() != originFile {
			entries = append(entries, d.Name())
		}
	}
	if entries == nil {
		return []string{} // nothing of its own: nothing to copy
	}
	return entries
}

// statedirCheck is statedir.Check as a usage error (exit 2).
func statedirCheck(dir string) error {
	if err := statedir.Check(dir); err != nil {
		return usagef("state folder: %v", err)
	}
	return nil
}

// readStateDir is the state folder a command that only reads (render)
// uses for file.
func readStateDir(setting, file string) string {
	if setting != "" {
		return setting
	}
	return statedir.ReadDir(file)
}

// inStateFolder reports whether path lies inside a folder named
// statedir.Name.
func inStateFolder(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(filepath.Clean(path))), "/") {
		if part == statedir.Name {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// otherLessons reports whether the folder of file holds other lesson
// files, which the old shared state folder may also belong to. A lesson
// file is a .yaml or .yml file whose top level has metadata and slides.
func otherLessons(file string) bool {
	entries, err := os.ReadDir(filepath.Dir(file))
	if err != nil {
		return true // cannot tell: copy, which loses nothing
	}
	for _, e := range entries {
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		if !e.Type().IsRegular() || (ext != ".yaml" && ext != ".yml") || name == filepath.Base(file) {
			continue
		}
		if looksLikeLesson(filepath.Join(filepath.Dir(file), name)) {
			return true
		}
	}
	return false
}

func looksLikeLesson(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 4<<20 || bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	var top map[string]yaml.Node
	if yaml.Unmarshal(data, &top) != nil {
		return false
	}
	_, m := top["metadata"]
	_, s := top["slides"]
	return m && s
}
