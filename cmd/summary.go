package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/orchestrate"
	"github.com/lessongen/lessongen/tool"
)

// runSummary is what a run did, counted once for the line on stderr and
// the --json object on stdout. Every node step is in exactly one count.
type runSummary struct {
	Status string `json:"status"` // done, partial, unfinished, interrupted, failed
	Steps  int    `json:"steps"`
	Done   int    `json:"done"`
	// Unfinished counts the steps of a refinement whose instruction
	// changed nothing (Instruction: what was asked).
	Unfinished  int    `json:"unfinished,omitempty"`
	Instruction string `json:"instruction,omitempty"`
	Pending     int    `json:"pending"`
	Failed      int    `json:"failed"`
	Interrupted int    `json:"interrupted"`
	// WithDefects counts steps that ended with defects they introduced;
	// Defects counts those defects.
	WithDefects int `json:"with_defects"`
	Defects     int `json:"defects"`
	// PendingSpots counts the spots still pending across unfinished steps.
	PendingSpots int                      `json:"pending_spots"`
	Requests     int                      `json:"model_requests"`
	Tokens       event.Tokens             `json:"tokens"`
	ElapsedMS    int64                    `json:"elapsed_ms"`
	Files        []string                 `json:"files"`
	Incomplete   []orchestrate.NodeResult `json:"incomplete"`
	// Notes are what subagents told the author (note_for_author).
	Notes []tool.Note `json:"notes"`
	// Strict lists what validate --strict fails on in the lesson as
	// written, beyond the defects named with their steps: a run that
	// leaves any exits 3, so exit 0 means validate --strict passes.
	Strict []jsonProblem `json:"strict_problems"`
	// Cost is what the tokens cost at the model's price; none when
	// nothing ran.
	Cost *runCost `json:"cost,omitempty"`
	// Resume is the command that continues a run stopped short (Ctrl-C,
	// a spent budget) with what it saved: the same command again.
	Resume  string `json:"resume,omitempty"`
	elapsed time.Duration
}

// strictCheck validates the lesson at file as validate --strict does.
func strictCheck(file string, reg *modality.Registry, sb *sources.Sandbox) yamlsrc.Problems {
	_, problems := validateFile(&validateOptions{reg: reg, strict: true, sources: sb}, file)
	return problems
}

// strictCheckLoaded is strictCheck of doc, the lesson at file as loaded
// and not changed since.
func strictCheckLoaded(file string, doc *compose.Document, reg *modality.Registry, sb *sources.Sandbox) yamlsrc.Problems {
	_, problems := validateDoc(&validateOptions{reg: reg, strict: true, sources: sb}, file, doc)
	return problems
}

// addStrict records the strict problems left in the written lesson, but
// those a step's defects already name; any left make the run partial.
func (s *runSummary) addStrict(problems yamlsrc.Problems) {
	named := func(p yamlsrc.Problem) bool {
		for _, n := range s.Incomplete {
			for _, d := range n.Defects {
				if strings.Contains(p.Message, d.Message) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range problems {
		if !named(p) {
			s.Strict = append(s.Strict, toJSONProblem(p))
		}
	}
	if len(s.Strict) > 0 && s.Status == event.StatusDone {
		s.Status = "partial"
	}
}

func summarizeRun(r orchestrate.Report, runErr error, elapsed time.Duration, files []string) runSummary {
	s := runSummary{Requests: r.Requests, Tokens: r.Tokens, elapsed: elapsed, ElapsedMS: elapsed.Milliseconds(),
		Files: files, Incomplete: r.Incomplete(), Steps: len(r.Nodes)}
	if s.Files == nil {
		s.Files = []string{}
	}
	if s.Incomplete == nil {
		s.Incomplete = []orchestrate.NodeResult{}
	}
	s.Notes = r.Notes
	if s.Notes == nil {
		s.Notes = []tool.Note{}
	}
	s.Strict = []jsonProblem{}
	for _, n := range r.Nodes {
		switch n.Status {
		case event.StatusDone:
			s.Done++
		case event.StatusPending:
			s.Pending++
		case event.StatusInterrupted:
			s.Interrupted++
		case event.StatusDefects:
			s.WithDefects++
		case event.StatusUnfinished:
			s.Unfinished++
		default:
			s.Failed++
		}
		s.PendingSpots += len(n.Pending)
		s.Defects += n.DefectCount
	}
	switch {
	case errors.As(runErr, new(*orchestrate.BudgetSpentError)):
		// A spent budget stops the run on purpose, with everything committed
		// saved (exit 3): partial, whether or not a step was in flight.
		s.Status = "partial"
	case s.Interrupted > 0 || orchestrate.IsInterrupt(runErr):
		s.Status = event.StatusInterrupted
	case runErr != nil || s.Failed > 0:
		s.Status = event.StatusFailed
	case s.Pending > 0 || s.WithDefects > 0:
		s.Status = "partial"
	case s.Unfinished > 0:
		s.Status = event.StatusUnfinished
	default:
		s.Status = event.StatusDone
	}
	return s
}

// printSummary writes the summary line and what is left to do.
func printSummary(w io.Writer, s runSummary) {
	// "still pending" counts steps, as the other counts do; the spots left
	// are counted on their own line below.
	// Unfinished only when there is one: every other run's line stays as
	// scripts read it.
	unfinished := ""
	if s.Unfinished > 0 {
		unfinished = fmt.Sprintf(", %d unfinished", s.Unfinished)
	}
	fmt.Fprintf(w, "summary: %d done%s, %d failed, %d still pending, %d with defects (%s), %d interrupted (of %s) · %s · tokens %d prompt, %d completion, %d cached · %s\n",
		s.Done, unfinished, s.Failed, s.Pending, s.WithDefects, plural(s.Defects, "defect"), s.Interrupted, plural(s.Steps, "step"), plural(s.Requests, "model request"),
		s.Tokens.Prompt, s.Tokens.Completion, s.Tokens.Cached, s.elapsed.Round(time.Millisecond))
	if s.Cost != nil {
		for _, l := range s.Cost.lines() {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if s.Unfinished > 0 {
		fmt.Fprintf(w, "  unfinished: nothing changed as asked (%q); the lesson is as it was\n", termsafe.Line(s.Instruction))
	}
	notStarted := 0
	for _, n := range s.Incomplete {
		if n.NotStarted {
			notStarted++ // one line for them all, below
			continue
		}
		// Errors quote servers' answers and models' text.
		fmt.Fprintf(w, "  %s · %s: %s\n", nodeLabel(n.Node, n.Level), n.Status, termsafe.String(n.Error))
		for _, p := range n.Pending {
			fmt.Fprintf(w, "    still pending: %s\n", termsafe.Line(p.Path))
		}
		for _, d := range n.Defects {
			// Messages quote the model's text.
			fmt.Fprintf(w, "    defect: %s: %s\n", termsafe.Line(d.Path), termsafe.Line(d.Message))
		}
		if more := n.DefectCount - len(n.Defects); more > 0 {
			fmt.Fprintf(w, "    and %s more\n", plural(more, "defect"))
		}
	}
	if notStarted > 0 {
		fmt.Fprintf(w, "  %s not started, counted as still pending\n", plural(notStarted, "step"))
	}
	if s.PendingSpots > 0 {
		fmt.Fprintf(w, "  %s still pending; run again to fill them\n", plural(s.PendingSpots, "spot"))
	}
	if len(s.Strict) > 0 {
		fmt.Fprintf(w, "  validate --strict fails on %s no step could fix:\n", plural(len(s.Strict), "problem"))
	}
	for _, p := range s.Strict {
		// Messages quote the model's text.
		fmt.Fprintf(w, "    %s:%d:%d: %s\n", termsafe.Line(p.File), p.Line, p.Column, termsafe.Line(p.Message))
		if p.Hint != "" {
			fmt.Fprintf(w, "      fix: %s\n", termsafe.Line(p.Hint))
		}
	}
	if s.Resume != "" {
		// The command quotes file names, which may hold anything.
		fmt.Fprintf(w, "  to continue, run the same command: %s\n", termsafe.Line(s.Resume))
	}
	printNotes(w, s.Notes)
}

func writeSummaryJSON(w io.Writer, s runSummary) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// printDryRun prints, on stdout, the unified diff the run would make to
// each file; nothing is written.
func printDryRun(doc *compose.Document, opts *generateOptions) error {
	files, err := doc.Render(opts.out)
	if err != nil {
		return err
	}
	changed := 0
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		oldName := f.Path
		if err != nil {
			old, oldName = nil, "/dev/null"
		}
		d := unifiedDiff(oldName, old, f.Path, f.Data)
		if d == "" {
			continue
		}
		changed++
		if !opts.json {
			// The diff quotes the model's text: shown safe.
			fmt.Fprint(opts.io.Out, termsafe.String(d))
		}
	}
	fmt.Fprintf(opts.io.ErrOut, "dry run: %s would change; nothing was written\n", plural(changed, "file"))
	return nil
}
