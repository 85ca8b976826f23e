package cmd

import (
	"fmt"
	"io"

	"github.com/lessongen/lessongen/compose"
)

// fileStore is a run's orchestrate.Store when it writes files: the lesson
// and its children's files through the saver, to out ("" for in place).
type fileStore struct {
	saver *compose.Saver
	out   string
	// during and final are where a save's warnings go while the run is
	// on (above the live frame) and at its end.
	during, final io.Writer
}

func (s *fileStore) Checkpoint(lesson bool) ([]string, error) {
	return save(s.saver, s.out, lesson, s.during)
}

func (s *fileStore) Save() ([]string, error) {
	paths, err := save(s.saver, s.out, true, s.final)
	if err != nil {
		return paths, fmt.Errorf("save: %w", err)
	}
	return paths, nil
}

func (s *fileStore) Conflicted() bool { return len(s.saver.Conflicts()) > 0 }

// stdoutStore is the Store of a run with -o -: the lesson written to out
// at the end, nothing during the run.
type stdoutStore struct {
	doc *compose.Document
	out io.Writer
	// errOut is told of pictures the run placed, which a lesson on
	// stdout cannot carry.
	errOut io.Writer
}

func (stdoutStore) Checkpoint(bool) ([]string, error) { return nil, nil }

func (s stdoutStore) Save() ([]string, error) {
	data, err := s.doc.LessonBytes()
	if err != nil {
		return nil, err
	}
	_, err = s.out.Write(data)
	if atts, _ := s.doc.Attachments(""); len(atts) > 0 && s.errOut != nil {
		fmt.Fprintf(s.errOut, "lessongen: warning: -o - writes no picture files, and the lesson names %s placed by this run (%s first); save to a file (-o FILE) to keep them\n",
			plural(len(atts), "picture"), atts[0].Path)
	}
	return nil, err
}

func (stdoutStore) Conflicted() bool { return false }

// savedLesson is the lesson file a run's journal stands in for between
// rewrites (orchestrate.LessonFile), as the saver knows it.
type savedLesson struct {
	saver *compose.Saver
	// inPlace: the run writes the file it loaded. With -o the journal
	// stands for the input, which the run never writes.
	inPlace bool
}

func (l savedLesson) Sum() string { return l.saver.LessonSum() }

func (l savedLesson) Edited() bool { return l.inPlace && l.saver.LessonEdited() }
