package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/modality"
)

// newGenerateCmd is the generate command over streams and a registry.
func newGenerateCmd(streams *IOStreams, reg *modality.Registry) *cobra.Command {
	return newCmdGenerate(newFactory(streams, reg), nil)
}
