package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// --sources comes from the flag (repeated), the environment (a path list)
// or the config file (one folder or a list), the flag winning.
func TestSourcesSetting(t *testing.T) {
	cfgFile := filepath.Join(t.TempDir(), "config.yaml")
	sep := string(filepath.ListSeparator)
	for _, tc := range []struct {
		name, env, config string
		args              []string
		want              []string
		err               string
	}{
		{name: "none"},
		{name: "flag, repeated", args: []string{"--sources", "a", "--sources", "b"}, want: []string{"a", "b"}},
		{name: "env path list", env: "a" + sep + "b", want: []string{"a", "b"}},
		{name: "config list", config: "sources: [a, b]\n", want: []string{"a", "b"}},
		{name: "config one folder", config: "sources: notes\n", want: []string{"notes"}},
		{name: "flag beats env", args: []string{"--sources", "f"}, env: "e", want: []string{"f"}},
		{name: "config list of maps", config: "sources: [{a: 1}]\n", err: "sources must be a folder or a list of folders"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LESSONGEN_SOURCES", tc.env)
			if err := os.WriteFile(cfgFile, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("LESSONGEN_CONFIG", cfgFile)
			reg, err := Registry()
			if err != nil {
				t.Fatal(err)
			}
			c := newGenerateCmd(&IOStreams{}, reg)
			if err := c.ParseFlags(tc.args); err != nil {
				t.Fatal(err)
			}
			s, err := loadSettings(c)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case !slices.Equal(slices.DeleteFunc(s.Sources, func(d string) bool { return d == "" }), tc.want):
				t.Errorf("sources = %q, want %q", s.Sources, tc.want)
			}
		})
	}
}

// A sources folder that cannot be opened is a usage error before any work.
func TestOpenSourcesMissing(t *testing.T) {
	_, err := openSources([]string{filepath.Join(t.TempDir(), "nope")})
	if err == nil || exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--sources") {
		t.Errorf("err = %v (exit %d)", err, exitCode(err))
	}
	if sb, err := openSources([]string{"", " "}); sb != nil || err != nil {
		t.Errorf("blank folders opened: %v %v", sb, err)
	}
}
