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

	"github.com/spf13/cast"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/suggest"
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
	// Review gives drawing nodes one review turn (orchestrate.Options.Review).
	Review bool
	// Browser is the Chromium that draws the board for the review turn
	// (--review-images, which implies Review); "" sends no image.
	Browser string
	// MaxRequests and MaxTokensTotal cap the whole run; 0 = no cap.
	MaxRequests    int
	MaxTokensTotal int64
	// MaxAnswerBytes caps what is read of one answer from the server.
	MaxAnswerBytes int64
	// CheckpointInterval bounds how often a run rewrites the lesson file;
	// 0 = after every node (orchestrate.Options.CheckpointInterval).
	CheckpointInterval time.Duration
}

// Setting keys: the config file's names; flags use dashes, environment
// variables LESSONGEN_ and upper case (LESSONGEN_BASE_URL).
var settingKeys = []string{
	"model", "base_url", "api_key", "concurrency", "max_steps", "timeout", "attempt_timeout", "approve",
	"temperature", "seed", "max_tokens", "tool_schema", "templates", "events", "rps", "retries",
	"parallel_tool_calls", "token_field",
	"state_dir", "sources",
	"stream", "max_requests", "max_tokens_total",
	"record", "replay", "checkpoint_interval", "max_answer_bytes",
	"review", "review_images", "chromium",
}

const (
	defaultModel    = "gpt-4.1-mini"
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

// addModelFlags declares the flags of commands that call a model, each
// help text naming its environment variable.
func addModelFlags(dst *pflag.FlagSet) {
	fs := pflag.NewFlagSet("model", pflag.ContinueOnError)
	defer func() {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage += " " + envNote(f.Name) })
		dst.AddFlagSet(fs)
	}()
	fs.String("model", defaultModel, "model name")
	fs.String("base-url", defaultBaseURL, "OpenAI-compatible API base URL, with /v1 (e.g. http://localhost:11434/v1 for Ollama)")
	fs.Int("concurrency", defaultParallel, "subagents in flight at once across the run")
	fs.Int("max-steps", defaultSteps, "model turns per subagent (its budget)")
	fs.Duration("timeout", defaultTimeout, "deadline for one model turn, retries included")
	fs.Duration("attempt-timeout", 0, "deadline for one HTTP attempt within a turn; a stalled attempt is cut and retried (default: half of --timeout; 0: none)")
	fs.String("approve", "auto", "approve changes: auto, deny (dry run: commit nothing), ask (preview each on the terminal)")
	fs.Float64("temperature", 0, "sampling temperature (default: the server's)")
	fs.Int64("seed", 0, "sampling seed, for servers that support it (default: none)")
	fs.Int64("max-tokens", 0, "cap on tokens per model answer (default: the server's)")
	fs.String("tool-schema", "strict", "tool schemas: strict, or compatible for servers without strict function calling")
	fs.String("templates", "", "directory of prompt templates overriding the built-in ones (LEVEL.tmpl)")
	fs.String("events", "", "write a JSON Lines event log to this file (- for stderr)")
	fs.Float64("rps", 0, "requests per second to the model server (default: unlimited; 429s slow everyone down)")
	fs.Int("retries", 4, "retries of a model turn after 429, 5xx or connection errors, with backoff")
	fs.Bool("parallel-tool-calls", true, "send parallel_tool_calls: true with tools (false for a server that rejects the field)")
	fs.String("token-field", "auto", "field for --max-tokens: auto (max_completion_tokens for OpenAI and Azure hosts, max_tokens elsewhere), max_tokens or max_completion_tokens")
	fs.Int("max-requests", 0, "cap on model requests for the whole run, retries included; when spent, running steps stop at a safe point, the work is saved, exit 3 (default: none)")
	fs.Int64("max-tokens-total", 0, "cap on prompt+completion tokens for the whole run, as the server reports them; when spent, as --max-requests (default: none)")
	fs.Int64("max-answer-bytes", llm.DefaultMaxAnswerBytes, "cap on bytes read of one answer from the server; a longer answer is a failed attempt (an endless or huge body cannot exhaust memory)")
	fs.Bool("review", false, "give each whiteboard's drawing subagent one more turn once it is done, with the board as it stands and the results of its last calls, to fix what it sees (at most one request more per board)")
	fs.String("chromium", "", "the browser --review-images draws the board with (a path or a name on the PATH); default: the first of chromium, chromium-browser, google-chrome, google-chrome-stable on the PATH")
	fs.Bool("review-images", false, "with the review turn (implies --review), also show the model the board as drawn: a PNG screenshotted in headless Chromium, which must be installed; a server that refuses images gets the review as text, with a warning")
	fs.Bool("stream", false, "stream answers: show the model's text as it arrives on a terminal, and log it in pieces to --events")
	fs.String("state-dir", "", "where subagents' conversations and notes are saved and continued from (default: .lessongen/FILE beside the file the lesson is saved to; docs/history.md)")
	fs.StringArray("sources", nil, "a folder of the author's text sources subagents may read and cite, read-only (repeatable; in the environment, separated by "+string(filepath.ListSeparator)+")")
	fs.String("record", "", "save every model request and answer of the run to this file (JSON Lines), for --replay")
	fs.String("replay", "", "answer every model request from this recording, with no network; a request it does not hold stops the run (exit 2)")
}

// setOnly are the settings whose being set at all is read (IsSet,
// InConfig): a default would read as set.
var setOnly = map[string]bool{
	"attempt_timeout": true, "checkpoint_interval": true, "max_answer_bytes": true, "temperature": true, "seed": true,
}

// envNote names the environment variables a flag's setting is read from,
// as loadSettings binds them: "[$LESSONGEN_MAX_STEPS]".
func envNote(flag string) string {
	name := "LESSONGEN_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
	if flag == "base-url" {
		return "[$" + name + ", $OPENAI_BASE_URL]"
	}
	return "[$" + name + "]"
}

// loadSettings resolves settings with precedence flag > environment >
// config file > default, through one viper instance for this run.
func loadSettings(cmd *cobra.Command) (*settings, error) {
	v := viper.New()
	v.SetEnvPrefix("LESSONGEN")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	// The key and base URL also come from OpenAI's own variables, which most
	// users already have set.
	_ = v.BindEnv("api_key", "LESSONGEN_API_KEY", "OPENAI_API_KEY")
	_ = v.BindEnv("base_url", "LESSONGEN_BASE_URL", "OPENAI_BASE_URL")

	if err := mergeConfigFile(cmd, v); err != nil {
		return nil, err
	}
	// A command that takes only some model flags (doctor) still gets the
	// others' defaults, except where being set at all means something.
	defaults := pflag.NewFlagSet("defaults", pflag.ContinueOnError)
	addModelFlags(defaults)
	for _, key := range settingKeys {
		name := strings.ReplaceAll(key, "_", "-")
		if f := cmd.Flags().Lookup(name); f != nil {
			if err := v.BindPFlag(key, f); err != nil {
				return nil, err
			}
		} else if d := defaults.Lookup(name); d != nil && !setOnly[key] && d.Value.Type() != "stringArray" {
			v.SetDefault(key, d.DefValue)
		}
	}
	g := getter{v: v}
	s := &settings{
		Model:       v.GetString("model"),
		BaseURL:     v.GetString("base_url"),
		APIKey:      v.GetString("api_key"),
		Concurrency: g.int("concurrency"),
		MaxSteps:    g.int("max_steps"),
		Timeout:     g.duration("timeout"),
		Approve:     v.GetString("approve"),
		MaxTokens:   int64(g.int("max_tokens")),
		ToolSchema:  v.GetString("tool_schema"),
		Templates:   v.GetString("templates"),
		Events:      v.GetString("events"),
		RPS:         g.float("rps"),
		Retries:     g.int("retries"),
		TokenField:  v.GetString("token_field"),
		StateDir:    v.GetString("state_dir"),
		Sources:     sourceDirs(v.Get("sources")),
		Record:      v.GetString("record"),
		Replay:      v.GetString("replay"),
	}
	s.ParallelToolCalls = g.bool("parallel_tool_calls")
	s.Stream = g.bool("stream")
	s.Review = g.bool("review")
	if g.bool("review_images") {
		// Found now, so a missing browser stops the run before any request.
		path, err := render.FindBrowser(v.GetString("chromium"))
		if err != nil {
			return nil, usagef("--review-images needs Chromium: install the chromium package (%v)", err)
		}
		s.Review, s.Browser = true, path
	}
	s.MaxRequests = g.int("max_requests")
	s.MaxTokensTotal = int64(g.int("max_tokens_total"))
	s.MaxAnswerBytes = llm.DefaultMaxAnswerBytes
	if v.IsSet("max_answer_bytes") {
		s.MaxAnswerBytes = int64(g.int("max_answer_bytes"))
	}
	s.CheckpointInterval = defaultCheckpointInterval
	if v.IsSet("checkpoint_interval") {
		s.CheckpointInterval = g.duration("checkpoint_interval")
	}
	if cmd.Flags().Changed("temperature") || os.Getenv("LESSONGEN_TEMPERATURE") != "" || v.InConfig("temperature") {
		t := g.float("temperature")
		s.Temperature = &t
	}
	if cmd.Flags().Changed("seed") || os.Getenv("LESSONGEN_SEED") != "" || v.InConfig("seed") {
		seed := int64(g.int("seed"))
		s.Seed = &seed
	}
	if v.IsSet("attempt_timeout") {
		s.AttemptTimeout = g.duration("attempt_timeout")
	} else {
		// Half the turn leaves a stalled attempt time for a retry, and
		// grows with --timeout for models that are slow to answer.
		s.AttemptTimeout = s.Timeout / 2
	}
	if g.err != nil {
		return nil, g.err
	}
	return s, s.check()
}

func (s *settings) check() error {
	if err := checkBaseURL(s.BaseURL); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(s.Model) == "":
		return usagef("no model set; use --model, LESSONGEN_MODEL or model in the config file")
	case s.MaxRequests < 0 || s.MaxTokensTotal < 0:
		return usagef("--max-requests and --max-tokens-total must not be negative")
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
	path, _ := cmd.Flags().GetString("config")
	explicit := path != ""
	if !explicit {
		path = os.Getenv("LESSONGEN_CONFIG")
		explicit = path != ""
	}
	if !explicit {
		for _, p := range defaultConfigPaths(cmd.Flags().Arg(0)) {
			if _, err := os.Stat(p); err == nil {
				path = p
				break
			}
		}
	}
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
		return usagef("config file %s: %v", path, err)
	}
	if err := checkSettingTypes(path, fv); err != nil {
		return err
	}
	for _, key := range fv.AllKeys() {
		if !slices.Contains(settingKeys, key) {
			hint := ""
			if near := suggest.Nearest(key, settingKeys, 2); near != "" {
				hint = fmt.Sprintf("; did you mean %q?", near)
			}
			return usagef("config file %s: unknown setting %q%s", path, key, hint)
		}
	}
	return v.MergeConfigMap(fv.AllSettings())
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

// getter reads typed settings, keeping the first value that does not parse
// (viper's own getters would quietly turn "abc" into 0).
type getter struct {
	v   *viper.Viper
	err error
}

func (g *getter) fail(key, want string) {
	if g.err == nil {
		g.err = usagef("%s: %q is not %s (set by --%s, LESSONGEN_%s or %s in the config file)",
			key, fmt.Sprint(g.v.Get(key)), want, strings.ReplaceAll(key, "_", "-"), strings.ToUpper(key), key)
	}
}

func (g *getter) int(key string) int {
	n, err := cast.ToIntE(g.v.Get(key))
	if err != nil {
		g.fail(key, "a whole number")
	}
	return n
}

func (g *getter) float(key string) float64 {
	f, err := cast.ToFloat64E(g.v.Get(key))
	if err != nil {
		g.fail(key, "a number")
	}
	return f
}

func (g *getter) duration(key string) time.Duration {
	d, err := cast.ToDurationE(g.v.Get(key))
	if err != nil {
		g.fail(key, "a duration such as 90s or 2m")
	}
	return d
}

func (g *getter) bool(key string) bool {
	b, err := cast.ToBoolE(g.v.Get(key))
	if err != nil {
		g.fail(key, "true or false")
	}
	return b
}

// sourceDirs reads the sources setting: a list from the flag or the config
// file, a path list (a:b) from the environment.
func sourceDirs(v any) []string {
	if s, ok := v.(string); ok {
		return filepath.SplitList(s)
	}
	return cast.ToStringSlice(v)
}
