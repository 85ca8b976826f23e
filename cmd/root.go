package cmd

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/modality"
)

const rootLong = `lessongen turns partly written lesson plans into finished ones.

A lesson is a YAML file: metadata (title, grade, objectives, ...), slides,
and on each slide its children (%s).
Mark what is still to be written as pending:

  objectives:                                  # a null value is pending
  vocabulary: !pending "5 terms with definitions"   # pending, with a hint
  slides:
    - !pending "two practice slides"           # new slides go here
    - id: summary
      title: Summary
      whiteboard: !pending "three columns: inputs, process, outputs"

lessongen walks the lesson (lesson -> slides -> children), runs a small
tool-calling model subagent for each pending level, and writes the result
back. Everything you wrote - text, comments, key order - stays byte for
byte; only pending spots change.

Start with 'lessongen validate' and 'lessongen plan' (no model needed),
then 'lessongen generate'.

Exit codes:
  0    done
  1    failure: the model provider or an internal error
  2    bad usage or invalid input; nothing written
  3    finished, but some nodes are still pending, failed or left defects (partial result saved)
  130  interrupted; committed work saved

Configuration, highest precedence first: command-line flags, environment
variables (LESSONGEN_MODEL, LESSONGEN_BASE_URL, LESSONGEN_API_KEY, ...; the
key also from OPENAI_API_KEY), a config file (--config, or
$XDG_CONFIG_HOME/lessongen/config.yaml, or ./lessongen.yaml), defaults.`

// NewRootCmd builds the command tree for one run.
func NewRootCmd(streams *IOStreams, reg *modality.Registry) *cobra.Command {
	root := &cobra.Command{
		Use:           "lessongen",
		Short:         "Turn partly written lesson plans into finished ones",
		Long:          fmt.Sprintf(rootLong, kindList(reg)),
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Runnable so that an unknown command reaches unknownCommand (exit
		// 2) rather than cobra's own error (exit 1).
		Args:                       cobra.ArbitraryArgs,
		RunE:                       unknownCommand,
		SuggestionsMinimumDistance: 2,
		DisableFlagsInUseLine:      true,
	}
	root.SetVersionTemplate("lessongen {{.Version}}\n")
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{flagError(c, err)}
	})
	f := newFactory(streams, reg)
	root.PersistentFlags().String("config", "", "config file (default: $XDG_CONFIG_HOME/lessongen/config.yaml or ./lessongen.yaml) [$LESSONGEN_CONFIG]")

	root.AddCommand(
		newCmdValidate(f, nil),
		newCmdPlan(f, nil),
		newCmdTools(f, nil),
		newCmdGenerate(f, nil),
		newCmdFill(f, nil),
		newCmdRender(f, nil),
		newCmdDoctor(f, nil),
		newCmdVersion(f),
		newCmdSchema(f, nil),
		newCmdInit(f, nil),
	)
	return root
}

// exactArgs is cobra.ExactArgs as a usage error (exit 2) that names what
// is missing and shows the usage line.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return missingArgs(cmd)
		case len(args) > n:
			return usagef("too many arguments (%d, want %d)\nusage: %s", len(args), n, cmd.UseLine())
		}
		return nil
	}
}

func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return missingArgs(cmd)
		}
		return nil
	}
}

// missingArgs names the arguments the usage line asks for: "missing FILE".
func missingArgs(cmd *cobra.Command) error {
	want := strings.TrimSpace(strings.TrimPrefix(cmd.Use, cmd.Name()))
	if i := strings.Index(want, " -"); i >= 0 {
		want = want[:i] // "FILE --slide ID": the flag is checked on its own
	}
	return usagef("missing %s\nusage: %s", want, cmd.UseLine())
}

// unknownCommand is the root's own run: bare "lessongen" shows help, and
// anything else is an unknown command (exit 2), with cobra's suggestions.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	msg := fmt.Sprintf("unknown command %q", args[0])
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
	}
	return usagef("%s\nusage: %s COMMAND\nrun 'lessongen --help' for the commands", msg, cmd.Name())
}

// newCmdVersion builds version, which has no options.
func newCmdVersion(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version: the module version, or the VCS revision and date of the build",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(f.io.Out, "lessongen %s\n", version())
			return err
		},
	}
}

func version() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// versionOf is the module version of an installed build ("v1.2.0"), or for
// a build from a git checkout its revision and commit time
// ("devel 0123456789ab 2026-11-22T10:00:00Z", "+modified" with local
// changes), or "dev" when the build carries neither.
func versionOf(info *debug.BuildInfo) string {
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "devel " + rev
	if at != "" {
		v += " " + at
	}
	if modified {
		v += " +modified"
	}
	return v
}

// kindList names the registered child kinds for help text: "whiteboard, quiz".
func kindList(reg *modality.Registry) string {
	var names []string
	for _, d := range reg.Children() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// flagError says what is wrong with a flag in the words of the fix:
// the flag a misspelt one means (cobra suggests commands, not flags),
// the unit a duration lacks. Others stay pflag's.
func flagError(c *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) && strings.HasPrefix(err.Error(), "unknown flag: --") {
		name := unknown.GetSpecifiedName()
		var names []string
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.InheritedFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if !f.Hidden {
					names = append(names, f.Name)
				}
			})
		}
		if near := suggest.Nearest(name, names, 2); near != "" {
			return fmt.Errorf("unknown flag --%s; did you mean --%s?", name, near)
		}
		return fmt.Errorf("unknown flag --%s; %s lists its flags", name, c.CommandPath()+" --help")
	}
	var invalid *pflag.InvalidValueError
	var bare missingUnitError
	if errors.As(err, &invalid) && invalid.GetFlag().Value.Type() == "duration" {
		if _, perr := parseDuration(invalid.GetValue()); errors.As(perr, &bare) {
			return fmt.Errorf("--%s %s: %s needs a unit: %ss, %sm", invalid.GetFlag().Name, bare.n, bare.n, bare.n, bare.n)
		}
	}
	return err
}
