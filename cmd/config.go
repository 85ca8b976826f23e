package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/render"
)

// settings are the resolved configuration of one generation run.
type settings struct {
	Model       string
	BaseURL     string
	APIKey      string
	Concurrency int
	MaxSteps    int
	Timeout     time.Duration
	Approve     string
	Temperature *float64
	Seed        *int64
	MaxTokens   int64
	ToolSchema  string
	Templates   string
	Events      string
	RPS         float64
	Retries     int
	// StateDir holds saved conversations; "" means the lesson's own
	// (internal/statedir.For).
	StateDir string
	// Sources are the author's source folders subagents may read.
	Sources []string
	// Record and Replay name a recording of the run's model requests and
	// answers to write, or to answer from with no network (internal/replay).
	Record, Replay string

	// AttemptTimeout bounds one HTTP attempt within a turn; 0 = none.
	AttemptTimeout time.Duration
	// ParallelToolCalls sends parallel_tool_calls: true with tools.
	ParallelToolCalls bool
	// TokenField is where max_tokens goes: auto, max_tokens or
	// max_completion_tokens.
	TokenField string
	// Stream asks for streamed answers, shown as they arrive.
	Stream bool
	// Batch sends rounds of requests through the Batch API (llm.Batcher),
	// gathered for BatchWindow and polled from BatchPoll on.
	Batch       bool
	BatchWindow time.Duration
	BatchPoll   time.Duration
	BatchDir    string // files for an offline runner instead of the API
	// Review gives drawing nodes one review turn (orchestrate.Options.Review).
	Review bool
	// ReviewImages asks for the board as drawn in the review turn;
	// Chromium names the browser, found as Browser ("" sends no image).
	ReviewImages bool
	Chromium     string
	Browser      string
	// Images draws the images a run described (orchestrate.Images),
	// with ImageModel ("" = the server's).
	Images     bool
	ImageModel string
	// MaxRequests and MaxTokensTotal cap the whole run; 0 = no cap.
	MaxRequests    int
	MaxTokensTotal int64
	// MaxCost caps the run's money, in USD at Prices; 0 = no cap.
	MaxCost float64
	// Prices are the config file's prices per model, over price.Default.
	Prices price.Table
	// Models are the config file's model entries, over price.Models
	// (modelInfo).
	Models map[string]price.Model
	// MaxAnswerBytes caps what is read of one answer from the server.
	MaxAnswerBytes int64
	// CheckpointInterval bounds how often a run rewrites the lesson file;
	// 0 = after every node (orchestrate.Options.CheckpointInterval).
	CheckpointInterval time.Duration
}

const (
	defaultModel    = price.DefaultModel
	defaultBaseURL  = "https://api.openai.com/v1"
	defaultSteps    = 12
	defaultParallel = 4
	defaultTimeout  = 2 * time.Minute
	// defaultCheckpointInterval: a killed run loses at most about this
	// much of the lesson file's progress, and a run over a large lesson
	// does not spend its time rewriting it.
	defaultCheckpointInterval = time.Second
	// minAnswerBytes: below this, ordinary answers would fail.
	minAnswerBytes = 4 << 10
)

// loadSettings resolves settings with precedence flag > environment >
// config file > default, through one viper instance for this run, each
// value parsed as its setting's type.
func loadSettings(cmd *cobra.Command) (*settings, error) {
	v, err := resolveSettings(cmd)
	if err != nil {
		return nil, err
	}
	s := &settings{}
	for _, st := range settingTable {
		val, ok, err := readSetting(v, st)
		if err != nil {
			return nil, err
		}
		if ok {
			st.set(s, val)
		}
	}
	if !v.IsSet("attempt_timeout") {
		// Half the turn leaves a stalled attempt time for a retry, and
		// grows with --timeout for models that are slow to answer.
		s.AttemptTimeout = s.Timeout / 2
	}
	if s.ReviewImages && cmd.Flags().Lookup("chromium") == nil {
		// A command that does not draw (plan --cost) counts the board
		// as drawn without a browser.
		s.Review = true
	} else if s.ReviewImages {
		// Found now, so a missing browser stops the run before any request.
		path, err := render.FindBrowser(s.Chromium)
		if err != nil {
			return nil, usagef("--review-images needs Chromium: install the chromium package (%v)", err)
		}
		s.Review, s.Browser = true, path
	}
	return s, s.check()
}

// resolveSettings binds every setting to its environment variables and
// the command's flag of its name, and merges the config file.
func resolveSettings(cmd *cobra.Command) (*viper.Viper, error) {
	v := viper.New()
	for _, st := range settingTable {
		if err := v.BindEnv(append([]string{st.key}, st.envs()...)...); err != nil {
			return nil, err
		}
		if f := cmd.Flags().Lookup(st.flag()); f != nil && !st.noFlag {
			if err := v.BindPFlag(st.key, f); err != nil {
				return nil, err
			}
		}
	}
	return v, mergeConfigFile(cmd, v)
}

// readSetting reads one setting as its type: its value if set, else its
// default, except where being set at all means something (ok false). A
// command that takes only some flags (doctor) still gets the others'
// defaults.
func readSetting(v *viper.Viper, st setting) (val any, ok bool, err error) {
	raw := st.def
	if v.IsSet(st.key) {
		raw = v.Get(st.key)
	} else if st.setOnly {
		return nil, false, nil
	}
	val, err = st.typ.parse(raw)
	if err != nil {
		return nil, false, invalidSetting(st, raw, err)
	}
	return val, true, nil
}

// sourcesSetting resolves the sources setting alone, as generate does
// (flag, LESSONGEN_SOURCES, config file), for a command that calls no
// model (validate).
func sourcesSetting(cmd *cobra.Command) ([]string, error) {
	val, err := settingValue(cmd, "sources")
	if err != nil {
		return nil, err
	}
	return val.([]string), nil
}

// settingValue resolves one setting as generate does (flag, environment,
// config file, default), for a command that reads only a few of them.
func settingValue(cmd *cobra.Command, key string) (any, error) {
	v, err := resolveSettings(cmd)
	if err != nil {
		return nil, err
	}
	st, ok := lookupSetting(key)
	if !ok {
		panic("cmd: no setting " + key)
	}
	val, _, err := readSetting(v, st)
	return val, err
}

// invalidSetting names the setting and everywhere it can be set; the value
// is quoted unless it is a secret.
func invalidSetting(st setting, val any, err error) error {
	msg := fmt.Sprintf("%s: %q is not %s (set by %s)", st.key, fmt.Sprint(val), st.typ.want(), st.setBy())
	if st.secret {
		msg = fmt.Sprintf("%s is not %s (set by %s)", st.key, st.typ.want(), st.setBy())
	}
	var mu missingUnitError
	if errors.As(err, &mu) {
		msg += "\nfix: " + mu.fix()
	}
	return usagef("%s", msg)
}

func (s *settings) check() error {
	if err := checkBaseURL(s.BaseURL); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(s.Model) == "":
		return usagef("no model set; use --model, LESSONGEN_MODEL or model in the config file")
	case s.MaxRequests < 0 || s.MaxTokensTotal < 0 || s.MaxCost < 0:
		return usagef("--max-requests, --max-tokens-total and --max-cost must not be negative")
	case s.Concurrency < 1:
		return usagef("--concurrency must be at least 1, got %d", s.Concurrency)
	case s.MaxSteps < 1:
		return usagef("--max-steps must be at least 1, got %d", s.MaxSteps)
	case s.Timeout < 0:
		return usagef("--timeout must not be negative")
	case s.AttemptTimeout < 0:
		return usagef("--attempt-timeout must not be negative")
	case s.MaxAnswerBytes < minAnswerBytes:
		return usagef("--max-answer-bytes must be at least %d, got %d", minAnswerBytes, s.MaxAnswerBytes)
	case s.CheckpointInterval < 0:
		return usagef("--checkpoint-interval must not be negative")
	case s.AttemptTimeout > 0 && s.Timeout > 0 && s.AttemptTimeout > s.Timeout:
		// The turn's deadline ends its attempts too, so a longer attempt
		// timeout would never fire; say so rather than ignore it.
		return usagef("--attempt-timeout (%s) must not be longer than --timeout (%s), which bounds the whole turn; lower it or raise --timeout", s.AttemptTimeout, s.Timeout)
	case s.Temperature != nil && (*s.Temperature < 0 || *s.Temperature > 2):
		return usagef("--temperature must be between 0 and 2, got %g", *s.Temperature)
	case s.RPS < 0:
		return usagef("--rps must not be negative")
	case s.Retries < 0:
		return usagef("--retries must not be negative")
	case s.Record != "" && s.Replay != "":
		return usagef("--record and --replay cannot be used together: one run either calls the model or answers from a recording")
	case !slices.Contains([]string{"", llm.TokenFieldAuto, llm.TokenFieldMaxTokens, llm.TokenFieldMaxCompletionTokens}, s.TokenField):
		return usagef("--token-field must be auto, max_tokens or max_completion_tokens, got %q", s.TokenField)
	}
	return nil
}

// mergeConfigFile reads --config (or LESSONGEN_CONFIG), else the first of
// lessongen.yaml beside the lesson (the command's first argument), then
// ./lessongen.yaml, then $XDG_CONFIG_HOME/lessongen/config.yaml that
// exists: the most specific wins, and the file init writes beside a
// lesson is found wherever the command is run from.
// Unknown keys are an error, so a typo does not silently do nothing.
func mergeConfigFile(cmd *cobra.Command, v *viper.Viper) error {
	path := configPath(cmd)
	if path == "" {
		return nil
	}
	fv := viper.New()
	fv.SetConfigFile(path)
	typ := strings.TrimPrefix(filepath.Ext(path), ".")
	if typ == "" {
		typ = "yaml"
	}
	fv.SetConfigType(typ)
	// Read here, not by viper: a named pipe or a device is refused, not
	// waited on.
	data, err := regfile.ReadFile(path)
	if err == nil {
		err = fv.ReadConfig(bytes.NewReader(data))
	}
	if err != nil {
		var notFound *os.PathError
		if errors.As(err, &notFound) {
			return usagef("config file %s: %v", path, notFound.Err)
		}
		if typ == "yaml" || typ == "yml" {
			// viper passes on yaml.v3's words; ours name the line and the fix.
			var ps yamlsrc.Problems
			_, perr := yamlsrc.Parse(path, data)
			p, ok := yamlsrc.Mistake(path, data) // a file of lines with no colon parses as one value
			if errors.As(perr, &ps) && len(ps) > 0 {
				p, ok = ps[0], true
			}
			if ok {
				return rawSecrets(data).Error(usagef("config file %s: %s (%s:%d:%d)", path, p.Message, p.File, p.Line, p.Col))
			}
		}
		return usagef("config file %s: %v", path, err)
	}
	if err := checkConfigFile(path, data, fv); err != nil {
		return configRedactor(fv).Error(err)
	}
	return v.MergeConfigMap(fv.AllSettings())
}

// rawSecrets masks what follows a secret setting's name on any line of
// a config file that does not parse: a message quoting its line (a key
// pasted without its colon) never shows it.
func rawSecrets(data []byte) *redact.Redactor {
	var vals []string
	for line := range strings.Lines(string(data)) {
		name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		name = strings.TrimSuffix(name, ":")
		if st, ok := lookupSetting(name); ok && st.secret {
			if v := strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":")), `"'`); v != "" {
				vals = append(vals, v)
			}
		}
	}
	return redact.New("", "", vals...)
}

// configRedactor masks the secrets the file or the environment sets: a
// check quotes a bad value, and a key pasted under the wrong setting
// (timeout: sk-…) is that value. The run's redactor is not built yet.
func configRedactor(fv *viper.Viper) *redact.Redactor {
	var keys []string
	for _, st := range settingTable {
		if !st.secret {
			continue
		}
		if s, ok := fv.Get(st.key).(string); ok {
			keys = append(keys, s)
		}
		for _, env := range st.envs() {
			keys = append(keys, os.Getenv(env))
		}
	}
	return redact.New("", "", keys...)
}

// configPath is --config, else LESSONGEN_CONFIG, else the first default
// path that exists; "" for none.
func configPath(cmd *cobra.Command) string {
	if path, _ := cmd.Flags().GetString("config"); path != "" {
		return path
	}
	if path := os.Getenv("LESSONGEN_CONFIG"); path != "" {
		return path
	}
	for _, p := range defaultConfigPaths(cmd.Flags().Arg(0)) {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func defaultConfigPaths(lesson string) []string {
	var paths []string
	if lesson != "" && lesson != "-" {
		if dir := filepath.Dir(lesson); dir != "." {
			paths = append(paths, filepath.Join(dir, "lessongen.yaml"))
		}
	}
	paths = append(paths, "lessongen.yaml")
	if dir, err := os.UserConfigDir(); err == nil {
		paths = append(paths, filepath.Join(dir, "lessongen", "config.yaml"))
	}
	return paths
}
