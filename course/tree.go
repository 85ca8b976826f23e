package course

import (
	"errors"

	"github.com/lessongen/lessongen/session"
)

// Tree is a course as the orchestrator walks it: the root alone, with no
// slides, so the walk runs course.metadata and course.node and stops. The
// lessons are generated afterwards, each as a lesson (see Schedule).
type Tree struct {
	Sess *session.Session
	// Overview is the lesson list with what each lesson teaches, for the
	// course.node subagent (Tree.Outline).
	Overview string
}

// NewTree gives a loaded course its session.
func NewTree(f *File, overview string) *Tree {
	return &Tree{Sess: session.New("course", f.Course), Overview: overview}
}

func (t *Tree) Session() *session.Session { return t.Sess }
func (t *Tree) Slides() []string          { return nil }
func (t *Tree) Outline() string           { return t.Overview }
func (t *Tree) DescribeSlide(string) string {
	return ""
}
func (t *Tree) Bindings(string) (map[string]string, error) { return nil, nil }
func (t *Tree) NewFile(string, string) string              { return "" }

// errNoSlides: a course places no slides; its lessons do.
var errNoSlides = errors.New("a course has no slides; name a lesson file instead")

func (t *Tree) Lookup(string) (string, error) { return "", errNoSlides }
func (t *Tree) Child(string, string) (*session.Session, error) {
	return nil, session.ErrUnknownChild
}
