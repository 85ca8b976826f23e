package llm

import "testing"

// An id the server chose goes into a request's path: one that is not an
// id ('/', "..", escapes) is refused, never requested.
func TestSafeID(t *testing.T) {
	for id, want := range map[string]bool{
		"batch_abc123": true, "file-XYZ": true, "batch_6f1c6a4e-1b2c-4d5e-8f90-123456789abc": true,
		"": false, "..": false, "../files/x": false, "batch/../../models": false, "a%2Fb": false, "a b": false, "a\nb": false,
	} {
		if got := safeID(id); got != want {
			t.Errorf("safeID(%q) = %v, want %v", id, got, want)
		}
	}
}
