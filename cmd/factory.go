package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/modality"
)

// factory is what every command is built from, after cli/cli's
// cmdutil.Factory cut to what lessongen needs: the streams, the modality
// registry, and how a command reads its settings (flags, environment,
// config file). Each command's NewCmdX-style constructor takes it and
// fills its own options struct; its run function takes only that struct.
type factory struct {
	io       *IOStreams
	registry *modality.Registry
	settings func(*cobra.Command) (*settings, error)
}

func newFactory(streams *IOStreams, reg *modality.Registry) *factory {
	return &factory{io: streams, registry: reg, settings: loadSettings}
}
