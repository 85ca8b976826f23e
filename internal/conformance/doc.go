// Package conformance holds only a test: every registered modality, and a
// toy one defined in the test, is driven through each step a lesson goes
// through (load, plan, generate against the fake model, save, resume after
// an interruption, validate, render, schema), and the test fails when a
// step leaves a modality out.
package conformance
