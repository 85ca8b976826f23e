package lesson

import (
	"regexp"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp"
	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"

	"github.com/lessongen/lessongen/internal/suggest"
)

// A licence is free text, but one that names an SPDX licence is checked
// against the SPDX licence list (github.com/github/go-spdx, which carries
// the list and parses expressions such as "MIT OR Apache-2.0"), so a
// reuse can rely on it.

// spacedID is a licence written as people write it, with spaces for the
// SPDX id's hyphens: "CC BY 4.0", "CC BY-NC-SA 4.0".
var spacedID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9.+-]*( [A-Za-z0-9.+-]+)*$`)

// LicenceID returns the SPDX id or expression a licence names, in the
// list's spelling ("CC BY 4.0" → "CC-BY-4.0"), and whether it names one.
func LicenceID(licence string) (string, bool) {
	s := strings.TrimSpace(licence)
	if s == "" {
		return "", false
	}
	candidates := []string{s}
	if !isExpression(s) && spacedID.MatchString(s) {
		candidates = append(candidates, strings.Join(strings.Fields(s), "-"))
	}
	for _, c := range candidates {
		norm, bad := spdxexp.ValidateAndNormalizeLicensesWithOptions([]string{c}, spdxexp.ValidateLicensesOptions{})
		if len(bad) == 0 && len(norm) == 1 {
			return norm[0], true
		}
	}
	return "", false
}

// isExpression: s combines licences, as an SPDX expression does.
func isExpression(s string) bool {
	for _, op := range []string{" AND ", " OR ", " WITH ", "(", ")"} {
		if strings.Contains(s, op) {
			return true
		}
	}
	return false
}

// licenceWarning says why a licence could not be checked, "" when it
// names an SPDX licence. A licence that looks like an id gets the
// nearest id on the list.
func licenceWarning(licence string) string {
	if _, ok := LicenceID(licence); ok {
		return ""
	}
	s := strings.TrimSpace(licence)
	msg := "is not an SPDX licence id or expression, so a reuse cannot check it"
	if spacedID.MatchString(s) && !isExpression(s) {
		guess := strings.Join(strings.Fields(s), "-")
		if near := suggest.Nearest(guess, spdxlicenses.GetLicenses(), 3); near != "" {
			return msg + `; did you mean "` + near + `"?`
		}
	}
	return msg + "; write its SPDX id (https://spdx.org/licenses/) when it has one, or keep the text as written"
}
