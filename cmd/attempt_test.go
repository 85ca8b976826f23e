package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The per-attempt timeout comes from flag, environment or config file like
// every setting; unset, it is half the turn timeout; longer than the turn
// timeout, it is a usage error (exit 2) rather than a setting that can
// never fire.
func TestAttemptTimeoutSetting(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "config.yaml")
	for _, tc := range []struct {
		name   string
		args   []string
		env    string // LESSONGEN_ATTEMPT_TIMEOUT
		config string // config file text
		want   time.Duration
		err    string
	}{
		{name: "default is half the default turn", want: time.Minute},
		{name: "follows --timeout", args: []string{"--timeout", "10s"}, want: 5 * time.Second},
		{name: "flag", args: []string{"--attempt-timeout", "5s"}, want: 5 * time.Second},
		{name: "env", env: "90s", want: 90 * time.Second},
		{name: "config file", config: "attempt_timeout: 45s\n", want: 45 * time.Second},
		{name: "flag beats env", args: []string{"--attempt-timeout", "7s"}, env: "90s", want: 7 * time.Second},
		{name: "zero is none", args: []string{"--attempt-timeout", "0"}, want: 0},
		{name: "unbounded turn", args: []string{"--timeout", "0"}, want: 0},
		{name: "unbounded turn, bounded attempts", args: []string{"--timeout", "0", "--attempt-timeout", "3m"}, want: 3 * time.Minute},
		{name: "equal to the turn", args: []string{"--timeout", "1m", "--attempt-timeout", "1m"}, want: time.Minute},
		{name: "longer than the turn", args: []string{"--timeout", "1m", "--attempt-timeout", "2m"},
			err: "--attempt-timeout (2m0s) must not be longer than --timeout (1m0s)"},
		{name: "longer than the turn, from the config file", args: []string{"--timeout", "30s"}, config: "attempt_timeout: 1m\n",
			err: "must not be longer than --timeout"},
		{name: "negative", args: []string{"--attempt-timeout", "-1s"}, err: "--attempt-timeout must not be negative"},
		{name: "not a duration", env: "soon", err: `attempt_timeout: "soon" is not a duration`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"LESSONGEN_TIMEOUT", "LESSONGEN_MODEL"} {
				t.Setenv(k, "")
			}
			t.Setenv("LESSONGEN_ATTEMPT_TIMEOUT", tc.env)
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
				if err == nil || !strings.Contains(err.Error(), tc.err) || exitCode(err) != ExitUsage {
					t.Fatalf("err = %v (exit %d), want a usage error containing %q", err, exitCode(err), tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case s.AttemptTimeout != tc.want:
				t.Errorf("attempt timeout = %v, want %v", s.AttemptTimeout, tc.want)
			}
		})
	}
}
