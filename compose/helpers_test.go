package compose_test

import "github.com/lessongen/lessongen/internal/lessontest"

// The fixtures and checks are shared with the lesson tests; see
// internal/lessontest.
const (
	fractionsSrc = lessontest.Fractions
	recapSrc     = lessontest.Recap
	oddSrc       = lessontest.Odd
	compactSrc   = lessontest.Compact
)

type view = lessontest.View

// Aliases, not wrappers: lessontest's helpers mark themselves t.Helper().
var (
	writeFiles    = lessontest.WriteFiles
	load          = lessontest.Load
	loadFractions = lessontest.LoadFractions
	plan          = lessontest.Plan
	dispatch      = lessontest.Dispatch
	rendered      = lessontest.Rendered
	look          = lessontest.Look
	apply         = lessontest.Apply
	observe       = lessontest.Observe
	reload        = lessontest.Reload
	keptInOrder   = lessontest.KeptInOrder
	wantOutputs   = lessontest.WantOutputs
	board         = lessontest.Board
	testRegistry  = lessontest.Registry
	practice      = lessontest.Practice
)

func ptr[T any](v T) *T { return &v }
