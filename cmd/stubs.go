package cmd

import "github.com/spf13/cobra"

func newGenerateCmd(streams *IOStreams) *cobra.Command {
	return &cobra.Command{Use: "generate", Hidden: true}
}
func newFillCmd(streams *IOStreams) *cobra.Command { return &cobra.Command{Use: "fill", Hidden: true} }
