package cmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// setting is one row of settingTable: everything about a setting that
// flags, environment, config file, `lessongen schema config`, docs/reference.md
// and doctor need.
type setting struct {
	key  string      // the config file's name; the flag is it with dashes
	typ  settingType // what the value must be, wherever it is set
	def  any         // the default, of typ's Go type (settingType.parse)
	help string      // the flag's help; its [$VAR] note is added
	doc  string      // the settings table's default column: the default and its effect
	arg  string      // the flag's argument in the settings table (DIR, FILE)
	// env are variables read after LESSONGEN_KEY, in order.
	env    []string
	noFlag bool // set only by environment or config file (the key)
	secret bool // never quoted in a message
	// setOnly: being set at all is read, so the default is never applied
	// (temperature unset is the server's).
	setOnly bool
	probe   bool // changes what doctor's probes send or how they read the answer
	set     func(*settings, any)
}

// settingTable declares every setting once, in the settings table's order.
var settingTable = []setting{
	{key: "model", typ: textType, def: defaultModel, probe: true,
		help: "model name",
		doc:  "`" + defaultModel + "` (`internal/price` holds the model table: prices, context, what each model takes, shutdown dates; a run and `doctor` warn " + fmt.Sprint(price.ShutdownWarnDays) + " days before a model is shut down)",
		set:  func(s *settings, v any) { s.Model = v.(string) }},
	{key: "base_url", typ: textType, def: defaultBaseURL, probe: true, env: []string{"OPENAI_BASE_URL"},
		help: "OpenAI-compatible API base URL, with /v1 (e.g. http://localhost:11434/v1 for Ollama)",
		doc:  "`https://api.openai.com/v1`; an empty or non-http(s) value is an error (exit 2), never a fallback",
		set:  func(s *settings, v any) { s.BaseURL = v.(string) }},
	{key: "api_key", typ: textType, def: "", noFlag: true, secret: true, env: []string{"OPENAI_API_KEY"},
		help: "the API key; keep it out of files",
		doc:  "none; not needed for local servers",
		set:  func(s *settings, v any) { s.APIKey = v.(string) }},
	{key: "concurrency", typ: intType, def: int64(defaultParallel),
		help: "subagents in flight at once across the run",
		doc:  "4 subagents in flight; a slide's subagents run back to back on one slot, and the slides with the most levels pending start first",
		set:  func(s *settings, v any) { s.Concurrency = int(v.(int64)) }},
	{key: "max_steps", typ: intType, def: int64(defaultSteps),
		help: "model turns per subagent (its budget)",
		doc:  "12 model turns per subagent",
		set:  func(s *settings, v any) { s.MaxSteps = int(v.(int64)) }},
	{key: "timeout", typ: durationType, def: defaultTimeout, probe: true,
		help: "deadline for one model turn, retries included",
		doc:  "`2m` per model turn, retries included; a turn that runs out fails its node, not the run",
		set:  func(s *settings, v any) { s.Timeout = v.(time.Duration) }},
	{key: "attempt_timeout", typ: durationType, def: time.Duration(0), setOnly: true, probe: true,
		help: "deadline for one HTTP attempt within a turn; a stalled attempt is cut and retried (default: half of --timeout; 0: none)",
		doc:  "half of `timeout` (`1m`) per HTTP attempt; a request that stalls (no answer, or an answer that stops halfway) is cut and retried (an image request too); `0` = none; longer than `timeout` is a usage error (exit 2)",
		set:  func(s *settings, v any) { s.AttemptTimeout = v.(time.Duration) }},
	{key: "retries", typ: intType, def: int64(4), probe: true,
		help: "retries of a model turn after 429, 5xx or connection errors, with backoff",
		doc:  "4 (429, 5xx, connection errors, attempt timeouts; backoff with jitter, `Retry-After` honoured)",
		set:  func(s *settings, v any) { s.Retries = int(v.(int64)) }},
	{key: "rps", typ: floatType, def: 0.0,
		help: "requests per second to the model server (default: unlimited; 429s slow everyone down)",
		doc:  "unlimited; one limiter per provider, slowed down by 429s",
		set:  func(s *settings, v any) { s.RPS = v.(float64) }},
	{key: "approve", typ: textType, def: "auto",
		help: "approve changes: auto, deny (dry run: commit nothing), ask (preview each on the terminal)",
		doc:  "`auto`; `ask` shows each change on the terminal as the diff it makes to its file, and asks; `deny` is a deprecated alias of `--dry-run`",
		set:  func(s *settings, v any) { s.Approve = v.(string) }},
	{key: "tool_schema", typ: textType, def: "strict", probe: true,
		help: "tool schemas: strict, or compatible for servers without strict function calling",
		doc:  "`strict`; `compatible` for servers without strict function calling",
		set:  func(s *settings, v any) { s.ToolSchema = v.(string) }},
	{key: "temperature", typ: floatType, def: 0.0, setOnly: true, probe: true,
		help: "sampling temperature (default: the server's)",
		doc:  "the server's; between 0 and 2",
		set:  func(s *settings, v any) { t := v.(float64); s.Temperature = &t }},
	{key: "seed", typ: intType, def: int64(0), setOnly: true, probe: true,
		help: "sampling seed, for servers that support it (default: none)",
		doc:  "the server's",
		set:  func(s *settings, v any) { n := v.(int64); s.Seed = &n }},
	{key: "max_tokens", typ: intType, def: int64(0), probe: true,
		help: "cap on tokens per model answer (default: the server's)",
		doc:  "the server's",
		set:  func(s *settings, v any) { s.MaxTokens = v.(int64) }},
	{key: "token_field", typ: textType, def: "auto", probe: true,
		help: "field for --max-tokens: auto (max_completion_tokens for OpenAI and Azure hosts, max_tokens elsewhere), max_tokens or max_completion_tokens",
		doc:  "`auto`: `max_tokens` goes in `max_completion_tokens` for OpenAI and Azure hosts (`*.openai.com`, `*.openai.azure.com`), in `max_tokens` elsewhere; or name the field: `max_tokens`, `max_completion_tokens`",
		set:  func(s *settings, v any) { s.TokenField = v.(string) }},
	{key: "parallel_tool_calls", typ: boolType, def: true, probe: true,
		help: "send parallel_tool_calls: true with tools (false for a server that rejects the field)",
		doc:  "`true`: requests with tools ask for several calls per turn; `false` leaves the field out (for a server that rejects it)",
		set:  func(s *settings, v any) { s.ParallelToolCalls = v.(bool) }},
	{key: "templates", typ: textType, def: "", arg: "DIR",
		help: "directory of prompt templates overriding the built-in ones (LEVEL.tmpl)",
		doc:  "built in; `DIR/LEVEL.tmpl` overrides one level",
		set:  func(s *settings, v any) { s.Templates = v.(string) }},
	{key: "events", typ: textType, def: "", arg: "FILE",
		help: "write a JSON Lines event log to this file (- for stderr)",
		doc:  "none; JSON Lines (`run_start`, `node_start`/`node_end`, `model_text`, `text_chunk`, `tool_call`/`tool_result`, `usage`, `checkpoint`, `note`, `author_question`/`author_answer`, `run_end`), each through the redactor; `-` for stderr",
		set:  func(s *settings, v any) { s.Events = v.(string) }},
	{key: "max_requests", typ: intType, def: int64(0),
		help: "cap on model requests for the whole run, retries included; when spent, running steps stop at a safe point, the work is saved, exit 3 (default: none)",
		doc:  "none; a cap on the whole run's HTTP requests (retries included). What is left of a cap shows in every tool result as `budget_left` beside `steps_left` once a quarter or less of it remains (a figure that moves with other subagents' requests, shown all along, would make the same answers give another lesson at another concurrency); a request in flight holds its share of `--max-requests`, so no more are sent than the cap (retries aside). Once spent no step starts; running steps stop at their next request (requests in flight finish and their tool calls commit), what was committed is saved, and the run exits 3 naming the budget",
		set:  func(s *settings, v any) { s.MaxRequests = int(v.(int64)) }},
	{key: "max_tokens_total", typ: intType, def: int64(0),
		help: "cap on prompt+completion tokens for the whole run, as the server reports them; when spent, as --max-requests (default: none)",
		doc:  "none; a cap on the whole run's prompt+completion tokens, as the server reports them; shown and spent as `max_requests`",
		set:  func(s *settings, v any) { s.MaxTokensTotal = v.(int64) }},
	{key: "max_cost", typ: floatType, def: 0.0,
		help: "cap on the run's cost in US dollars, at the model's price and, with --images, the image model's per picture (see prices); a request whose worst case could pass it is not sent, the work is saved, exit 3 (default: none)",
		doc:  "none; a cap on the run's money in USD at the model's price (`prices`). Before each request its worst case (its prompt at 4 bytes a token, uncached, and an answer of `max_tokens`, or 16384 tokens when that is unset) is added to what was spent and what the requests in flight may spend; a request that could pass the cap is not sent, and the run stops as `max_requests` does (exit 3, everything done saved). With `images`, each picture is held at its image model's price (`prices`: `image`) before it is asked for, and one that could pass the cap is not asked for (exit 3). A model, or with `images` an image model, with no price is a usage error (exit 2)",
		set:  func(s *settings, v any) { s.MaxCost = v.(float64) }},
	{key: "prices", typ: pricesType, def: price.Table(nil), noFlag: true,
		help: "model prices in USD per 1M tokens (an image model's per picture), over the built-in table: a list of {model, input, cached_input, output} or {model, image}",
		doc:  "OpenAI's current models (`internal/price`, checked " + price.Checked + "); a list of `{model: NAME, input: USD, cached_input: USD, output: USD}` per 1M tokens adds a model or overrides one, and `{model: NAME, image: USD}` an image model's price of one picture as `images` asks for it (1024×1024, no quality sent: the price of the highest quality the server's `auto` may pick) (names are matched exactly: a dated snapshot is priced only where the table lists it, and `o3-pro` is not priced as `o3`). In the environment, the list as JSON. `plan --cost` and the run's summary use it; a model with none gets tokens only, pictures without a price are counted but not priced",
		set:  func(s *settings, v any) { s.Prices = v.(price.Table) }},
	{key: "models", typ: modelsType, def: map[string]price.Model(nil), noFlag: true,
		help: "entries of the model table to add or override: a list of {model, context, shutdown_date, parallel_tool_calls, tools_without_reasoning, max_completion_tokens, response_format}",
		doc:  "the model table (`internal/price`); a list of `{model: NAME, …}` adds a model or changes the named fields of one (matched by exact name): `context` (tokens), `shutdown_date` (`YYYY-MM-DD`, `\"\"` for none; a run and `doctor` warn before it), `parallel_tool_calls: false` (never sent), `tools_without_reasoning: true` (`reasoning_effort: none` with tools), `max_completion_tokens: true` (the answer cap's field), `response_format: true` (an image model that takes it). In the environment, the list as JSON",
		set:  func(s *settings, v any) { s.Models = v.(map[string]price.Model) }},
	{key: "max_answer_bytes", typ: intType, def: int64(llm.DefaultMaxAnswerBytes), probe: true,
		help: "cap on bytes read of one answer from the server; a longer answer is a failed attempt (an endless or huge body cannot exhaust memory)",
		doc:  "`8388608` (8 MiB); cap on what is read of one answer body, streamed or not. An answer that passes it (an endless or huge body from a broken server or proxy) stops being read there and is a failed attempt, retried like a cut stream; the error names the cap and this setting. A streamed answer sends each token in a chunk of its own, about 200 bytes each, so 8 MiB holds some 40 000 streamed tokens; at least `4096`",
		set:  func(s *settings, v any) { s.MaxAnswerBytes = v.(int64) }},
	{key: "stream", typ: boolType, def: false, probe: true,
		help: "stream answers: show the model's text as it arrives on a terminal, and log it in pieces to --events",
		doc:  "`false`; `true` asks for streamed answers (with `stream_options.include_usage`): the model's text is printed above the live progress view as it arrives, and `--events` gets `text_chunk` events (each ends at whitespace, so no word is split). Documents are the same as without it; a stream cut before its end is retried like a dropped connection (so is Ollama's stream of a model that failed mid-answer, which just stops after an empty chunk, without the reason: the error says so and points to Ollama's log), and the text it had shown is declared void (a `text_chunk` event with `\"restart\": true`; on the terminal, \"the answer was cut off; it starts again\")",
		set:  func(s *settings, v any) { s.Stream = v.(bool) }},
	{key: "batch", typ: boolType, def: false,
		help: "send each round of requests through OpenAI's Batch API (half the price, answers within 24 hours); batch ids are saved in the state folder, so a rerun waits on them instead of paying twice",
		doc:  "`false`; `true` gathers the requests of one round (every worker waiting, or `batch_window` after the first) into one batch: a JSONL file uploaded with purpose `batch`, then `/v1/batches` with `completion_window` `24h`, polled every `batch_poll` (doubling, at most 10 min) until done. A failed line is that request's error, retried in the next round when transient. Batch ids and a hash of each line's request are saved in the state folder's `batches.json` before polling; a rerun whose requests match a saved batch waits on it. A server without the Batch API (llama.cpp, Ollama, vLLM's OpenAI server: 404 on `/v1/batches` or `/v1/files`) is a usage error (exit 2) before any request. Not with `stream`, `record` or `replay` (exit 2)",
		set:  func(s *settings, v any) { s.Batch = v.(bool) }},
	{key: "batch_dir", typ: textType, def: "", arg: "DIR",
		help: "with --batch, write each round to DIR/round-HASH.in.jsonl for an offline runner (vLLM's run_batch) and read its answers from DIR/round-HASH.out.jsonl, instead of the Batch API",
		doc:  "none; with `batch`, each round is written to `DIR/round-HASH.in.jsonl` (OpenAI's batch input format) and the run waits, polling every `batch_poll`, until `DIR/round-HASH.out.jsonl` holds an answer for every line (`vllm run-batch -i IN -o OUT --model MODEL --enable-auto-tool-choice --tool-call-parser PARSER` writes it), failing a line still unanswered once that output has stayed the same for 3 polls, or 25h after the round was written; nothing is sent to the server. A link or named pipe at a round file's name is refused (exit 2 before the run), never written through or waited on. The name is the round's hash, so a rerun reads the answers already there",
		set:  func(s *settings, v any) { s.BatchDir = v.(string) }},
	{key: "batch_window", typ: durationType, def: llm.DefaultBatchWindow,
		help: "with --batch, how long a round gathers requests after its first before it is sent (it is sent at once when every worker waits)",
		doc:  "`2s`; with `batch`, a round is sent when `concurrency` requests wait, or this long after its first",
		set:  func(s *settings, v any) { s.BatchWindow = v.(time.Duration) }},
	{key: "batch_poll", typ: durationType, def: llm.DefaultBatchPoll,
		help: "with --batch, the first wait between polls of a batch; it doubles up to 10m",
		doc:  "`30s`; with `batch`, the first wait between polls of a batch, doubling up to `10m`",
		set:  func(s *settings, v any) { s.BatchPoll = v.(time.Duration) }},
	{key: "review", typ: boolType, def: false,
		help: "give each whiteboard's, quiz's and activity's writing subagent a look at what it made once it is done, with the results of its last calls, to fix what it sees; a change made then is shown again (at most " + fmt.Sprint(agent.MaxLooks) + " looks)",
		doc:  "`false`; `true` gives the node subagent of each whiteboard, quiz and activity a review turn once its work is done: the node as its describe tool shows it (for a board, `describe_whiteboard`: every element, style as drawn, measured text fit, defects) after the results of its last calls, which a subagent that ends on its last write never reads. The model fixes what it sees or replies with no tool calls; a reply that changed something gets one more look at the node as it now stands, up to " + fmt.Sprint(agent.MaxLooks) + " looks (`agent.MaxLooks`) within the step budget, each a request more (`BenchmarkRequestEconomyReview`, whose model changes nothing in review: 1.47 requests per subagent against 1.00)",
		set:  func(s *settings, v any) { s.Review = v.(bool) }},
	{key: "review_images", typ: boolType, def: false,
		help: "with the review turn (implies --review), also show the model the node as drawn (the board, the quiz, the activity), drawn again for each look: a PNG screenshotted in headless Chromium, which must be installed; a server that refuses images gets the review as text, with a warning",
		doc:  "`false`; `true` implies `review` and adds to each look the node as drawn, drawn again after each change: a PNG of the whiteboard as `render` draws it (the canvas's size, its longer side at most 1280 px), or of a quiz or an activity as the handout shows it (960 px wide, as tall as it is up to 1280 px), each in a palette of its most frequent colours so that it stays at most 30 KB, 40 KB as base64 (one too busy for that is drawn smaller); only the newest picture goes with a request, screenshotted in headless Chromium and sent as an image part (a `data:image/png;base64,` URL) of the review message, for a model that takes images. A server that refuses the image (llama-server without `--mmproj`: \"image input is not supported\"; a text-only model) gets that review again as text with a warning, and the run sends no more images. Saved conversations hold `[image: board as drawn, N bytes]`, not the image; `--record` holds it, so `--replay` of such a recording needs `--review-images` and a browser that draws the same PNG (the same Chromium version), or it misses",
		set:  func(s *settings, v any) { s.ReviewImages = v.(bool) }},
	{key: "images", typ: boolType, def: false, probe: true,
		help: "once the subagents are done, ask the server's image endpoint (POST /v1/images/generations) for a picture of each image the run described, saved beside the lesson; a server without one gets a message and the placeholders stay",
		doc:  "`false`; `true` draws each image element the run generated without a picture through the server's image endpoint (the OpenAI images API, `b64_json`, 1024×1024), saves it as `images/<element id>-<8 hex of its SHA-256>.png` beside the YAML that holds the board, and sets its `src`, its `prompt` (what was asked) and its `credit` (the model). Pictures are asked for side by side (at most `concurrency` at once), each attempt within `attempt_timeout`, retried as `retries` says, its answer read up to a 5 MB picture's base64. Each picture is one request more, counted against `max_requests` and, at the image model's price, against `max_cost` and in the run's cost (`images` in the summary and in `--json`'s `cost`), recorded and replayed like the rest. A server without the endpoint (llama.cpp's server, Ollama: 404) gets one message naming it and the fix, no more pictures are asked for, the placeholders stay and the run ends as it otherwise would",
		set:  func(s *settings, v any) { s.Images = v.(bool) }},
	{key: "image_model", typ: textType, def: "", arg: "NAME", probe: true,
		help: "the model --images asks for pictures (e.g. " + price.DefaultImageModel + "); default: " + price.DefaultImageModel + " on OpenAI, the server's own elsewhere",
		doc:  "`" + price.DefaultImageModel + "` on OpenAI's API (without a model it falls back to the removed `dall-e-2`), the server's own model elsewhere (llama.cpp's mediagen, vLLM-Omni); the model `images` asks to draw. Only models the table marks as taking it (DALL·E) are sent `response_format`: GPT image models always answer `b64_json` and refuse the field, and local servers answer `b64_json` by default",
		set:  func(s *settings, v any) { s.ImageModel = v.(string) }},
	{key: "chromium", typ: textType, def: "", arg: "PATH",
		help: "the headless browser --review-images draws the board with and render --format pdf prints with (a path or a name on the PATH); default: the first of chromium, chromium-browser, google-chrome, google-chrome-stable on the PATH",
		doc:  "the first of `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable` on the PATH; the browser `review_images` draws with and `render --format pdf` prints with (a path or a name); none found is exit 2 before any request",
		set:  func(s *settings, v any) { s.Chromium = v.(string) }},
	{key: "state_dir", typ: textType, def: "", arg: "DIR",
		help: "where subagents' conversations and notes are saved and continued from (default: .lessongen/FILE beside the file the lesson is saved to; docs/history.md)",
		doc:  "`.lessongen/FILE/` beside the file the lesson is saved to (with `-o`, the output's; it starts as a copy of the input's), one folder per lesson file; each subagent's conversation, saved as it runs, the notes for the author and the record of what runs generated ([docs/history.md](history.md)); read but not written by dry runs and `-o -`",
		set:  func(s *settings, v any) { s.StateDir = v.(string) }},
	{key: "sources", typ: foldersType, def: []string(nil), arg: "DIR",
		help: "a folder of the author's text sources subagents may read and cite, read-only (repeatable; in the environment, separated by " + string(filepath.ListSeparator) + ")",
		doc:  "none; folders of text subagents may read and cite, read-only (see [Writing from your sources](#writing-from-your-sources)); `validate` checks citations in them. The flag is repeatable, the environment variable a path list, the config file one folder or a list",
		set:  func(s *settings, v any) { s.Sources = v.([]string) }},
	{key: "record", typ: textType, def: "", arg: "FILE",
		help: "save every model request and answer of the run to this file (JSON Lines), for --replay",
		doc:  "none; save every model request and answer (see [Record and replay](#record-and-replay))",
		set:  func(s *settings, v any) { s.Record = v.(string) }},
	{key: "replay", typ: textType, def: "", arg: "FILE",
		help: "answer every model request from this recording, with no network; a request it does not hold stops the run (exit 2)",
		doc:  "none; answer from a recording, offline; a request it lacks is exit 2",
		set:  func(s *settings, v any) { s.Replay = v.(string) }},
	{key: "checkpoint_interval", typ: durationType, def: defaultCheckpointInterval,
		help: "make finished nodes durable at most this often while subagents run (appended to the journal in the state folder; files of their own are saved as each node finishes; the lesson file is rewritten at the end); 0: after every node",
		doc:  "`1s`: while subagents run, the nodes finished since are made durable at most this often: appended to `journal.jsonl.gz` in the state folder, not by rewriting the lesson file, which is written once at the end, on Ctrl-C and on failures (and when the lesson's own fields change or you edit it); whiteboard and quiz files of their own are saved as each node finishes. A killed run loses at most this much: the next run puts the journaled nodes back. Saved conversations are fsync'd at most this often too, and at each one's end. `0` after every node (and every turn)",
		set:  func(s *settings, v any) { s.CheckpointInterval = v.(time.Duration) }},
}

// settingKeys are the config file's names, in the table's order.
var settingKeys = func() []string {
	keys := make([]string, len(settingTable))
	for i, s := range settingTable {
		keys[i] = s.key
	}
	return keys
}()

func lookupSetting(key string) (setting, bool) {
	i := slices.IndexFunc(settingTable, func(s setting) bool { return s.key == key })
	if i < 0 {
		return setting{}, false
	}
	return settingTable[i], true
}

// flag is the setting's flag name, "" for none.
func (s setting) flag() string {
	if s.noFlag {
		return ""
	}
	return strings.ReplaceAll(s.key, "_", "-")
}

// envs are the variables the setting is read from, in order:
// LESSONGEN_BASE_URL, then OPENAI_BASE_URL.
func (s setting) envs() []string {
	return append([]string{"LESSONGEN_" + strings.ToUpper(s.key)}, s.env...)
}

// addFlag declares the setting's flag on fs, its help naming its
// environment variables.
func (s setting) addFlag(fs *pflag.FlagSet) {
	name, usage := s.flag(), s.help+" "+s.envNote()
	switch s.typ {
	case intType:
		fs.Int64(name, s.def.(int64), usage)
	case floatType:
		fs.Float64(name, s.def.(float64), usage)
	case durationType:
		fs.Duration(name, s.def.(time.Duration), usage)
	case boolType:
		fs.Bool(name, s.def.(bool), usage)
	case foldersType:
		fs.StringArray(name, s.def.([]string), usage)
	default:
		fs.String(name, s.def.(string), usage)
	}
}

// addModelFlags declares the flags of commands that call a model: every
// setting that has a flag.
func addModelFlags(dst *pflag.FlagSet) {
	for _, s := range settingTable {
		if !s.noFlag {
			s.addFlag(dst)
		}
	}
}

// envNote names the environment variables a flag's setting is read from,
// as resolveSettings binds them: "[$LESSONGEN_MAX_STEPS]".
func envNote(flag string) string {
	s, _ := lookupSetting(strings.ReplaceAll(flag, "-", "_"))
	return s.envNote()
}

func (s setting) envNote() string {
	return "[$" + strings.Join(s.envs(), ", $") + "]"
}

// setBy names where a setting can be set, for messages: "--timeout,
// LESSONGEN_TIMEOUT or timeout in the config file".
func (s setting) setBy() string {
	var where []string
	if f := s.flag(); f != "" {
		where = append(where, "--"+f)
	}
	where = append(where, s.envs()...)
	return strings.Join(where, ", ") + " or " + s.key + " in the config file"
}
