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
	// wroteLesson, when set, runs after a checkpoint that wrote the
	// lesson file (the run's end records its own).
	wroteLesson func()
}

func (s *fileStore) Checkpoint(lesson bool) ([]string, error) {
	paths, err := save(s.saver, s.out, lesson, s.during)
	if err == nil && lesson && s.wroteLesson != nil {
		s.wroteLesson()
	}
	return paths, err
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
	// out is where the run saves the lesson ("" in place). With -o the
	// journal stands for the input until the run first writes the
	// output, then for the output (which a rerun resumes from).
	out string
	// inPlace: the run writes the file it loaded.
	inPlace bool
}

func (l savedLesson) Sum() string { return l.saver.LessonSum(l.out) }

func (l savedLesson) Edited() bool { return l.inPlace && l.saver.LessonEdited() }
