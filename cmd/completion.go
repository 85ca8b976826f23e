package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
)

// Value completion for flags with a closed set of values, or values from
// the lesson file (shell completion: 'lessongen completion bash').

func completeFixed(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeModelFlags completes --approve and --tool-schema of a command
// that calls a model.
func completeModelFlags(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("approve", completeFixed(
		string(bridge.ApproveAuto)+"\tcommit every valid change",
		string(bridge.ApproveDeny)+"\tdry run: commit nothing",
		string(bridge.ApproveAsk)+"\tpreview each change and ask"))
	// The forms bridge.ParseForm reads.
	_ = cmd.RegisterFlagCompletionFunc("tool-schema", completeFixed(
		"strict\tfor servers with strict function calling",
		"compatible\tplain JSON Schema"))
}

// completeSlide completes --slide with the slide ids of the lesson named by
// the command's first argument: as written, or derived for a slide written
// without one (see lesson.SlideIDs).
func completeSlide(cmd *cobra.Command, reg *modality.Registry) {
	_ = cmd.RegisterFlagCompletionFunc("slide", func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		doc, err := compose.Load(args[0], reg)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		doc.View(func(p *lesson.Plan) { out = p.SlideIDs() })
		return out, cobra.ShellCompDirectiveNoFileComp
	})
}
