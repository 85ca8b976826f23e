package cmd

import "github.com/spf13/cobra"

func newToolsCmd(streams *IOStreams) *cobra.Command    { return &cobra.Command{Use: "tools", Hidden: true} }
func newGenerateCmd(streams *IOStreams) *cobra.Command { return &cobra.Command{Use: "generate", Hidden: true} }
func newFillCmd(streams *IOStreams) *cobra.Command     { return &cobra.Command{Use: "fill", Hidden: true} }
