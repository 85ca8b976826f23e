package render_test

import (
	"regexp"
	"testing"
)

var (
	startTag = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	idAttr   = regexp.MustCompile(`\sid="([^"]*)"`)
	idRef    = regexp.MustCompile(`(?:href="#|url\(#)([^")]*)`)
)

// No id repeats in a rendered page, and every in-page reference (a
// timeline link, a url(#…) paint) names one that is there: a repeated id
// resolves to its first element, so a board's reference would reach into
// another slide, hidden in present mode. Text cannot hold a tag (it is
// escaped), so reading start tags reads every attribute.
func TestRenderedIDsAreUnique(t *testing.T) {
	for _, path := range []string{example, allKinds} {
		page := string(renderHTML(t, path))
		seen := map[string]bool{}
		for _, tag := range startTag.FindAllString(page, -1) {
			for _, m := range idAttr.FindAllStringSubmatch(tag, -1) {
				if seen[m[1]] {
					t.Errorf("%s: id %q repeats", path, m[1])
				}
				seen[m[1]] = true
			}
		}
		if len(seen) < 3 {
			t.Fatalf("%s: only %d ids found; is the page there?", path, len(seen))
		}
		for _, tag := range startTag.FindAllString(page, -1) {
			for _, m := range idRef.FindAllStringSubmatch(tag, -1) {
				if !seen[m[1]] {
					t.Errorf("%s: %s refers to #%s, which is not in the page", path, tag, m[1])
				}
			}
		}
	}
}
