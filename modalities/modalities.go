// Package modalities is the one list of the modalities lessongen registers.
// The program (cmd) and every test that needs "the registry lessongen runs
// with" build it here, so a new modality is one line in this file and no
// test keeps its own copy of the list.
package modalities

import (
	"github.com/lessongen/lessongen/activity"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/whiteboard"
)

// Registry builds the registry: the lesson is the root; the others are the
// kinds of child a slide may place, in the order they are generated.
func Registry() (*modality.Registry, error) {
	return modality.New(lesson.Modality(), whiteboard.Modality(), quiz.Modality(), activity.Modality())
}

// Must is Registry for tests and benchmarks: the list is fixed at compile
// time, so an error here is a programming mistake.
func Must() *modality.Registry {
	reg, err := Registry()
	if err != nil {
		panic(err)
	}
	return reg
}

// Course builds the course's registry: the course is its root, one level
// above the lesson, and it places no children (its lessons are lesson
// files, each run with Registry's).
func Course() (*modality.Registry, error) { return modality.New(course.Modality()) }
