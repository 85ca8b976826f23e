package cmd

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

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
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{err}
	})
	root.PersistentFlags().String("config", "", "config file (default: $XDG_CONFIG_HOME/lessongen/config.yaml or ./lessongen.yaml)")

	root.AddCommand(
		newValidateCmd(streams, reg),
		newPlanCmd(streams, reg),
		newToolsCmd(streams, reg),
		newGenerateCmd(streams, reg),
		newFillCmd(streams, reg),
		newRenderCmd(streams, reg),
	)
	return root
}

// exactArgs is cobra.ExactArgs with a usage error (exit 2).
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MinimumNArgs(n)(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// kindList names the registered child kinds for help text: "whiteboard, quiz".
func kindList(reg *modality.Registry) string {
	var names []string
	for _, d := range reg.Children() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}
