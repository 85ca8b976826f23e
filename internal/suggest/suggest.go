// Package suggest finds the near miss behind a typo, for "did you mean"
// hints in errors shown to people and to models.
package suggest

import "strings"

// Nearest returns the option closest to name within maxDist edits
// (case-insensitive), or "" when none is that close.
func Nearest(name string, options []string, maxDist int) string {
	best, bestD := "", maxDist+1
	for _, o := range options {
		if d := Distance(strings.ToLower(name), strings.ToLower(o)); d < bestD {
			best, bestD = o, d
		}
	}
	return best
}

// Distance is the Levenshtein edit distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DidYouMean is the hint for a value that is not one of options: the
// option a synonym names (circle → ellipse), else the nearest within 2
// edits, as `; did you mean "ellipse"?`, or "" when none fits.
func DidYouMean(name string, options []string, synonyms map[string]string) string {
	best := synonyms[strings.ToLower(name)]
	if best == "" {
		best = Nearest(name, options, 2)
	}
	if best == "" {
		return ""
	}
	return `; did you mean "` + best + `"?`
}
