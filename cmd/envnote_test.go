package cmd

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Every model flag's help names the variable loadSettings reads for it.
func TestModelFlagsNameTheirEnvironment(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	addModelFlags(fs)
	note := regexp.MustCompile(`\[\$LESSONGEN_([A-Z_]+)[],]`)
	n := 0
	fs.VisitAll(func(f *pflag.Flag) {
		n++
		m := note.FindStringSubmatch(f.Usage)
		if m == nil {
			t.Errorf("--%s: help %q names no environment variable", f.Name, f.Usage)
			return
		}
		if key := strings.ToLower(m[1]); !slices.Contains(settingKeys, key) || key != strings.ReplaceAll(f.Name, "-", "_") {
			t.Errorf("--%s: help names $LESSONGEN_%s, which is not its setting", f.Name, m[1])
		}
	})
	if n == 0 {
		t.Fatal("no model flags")
	}
}
