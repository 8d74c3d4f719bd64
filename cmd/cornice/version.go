package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/config"
)

// newVersionCmd builds `cornice version`, which prints the version string and the commit the
// binary was built from ("unknown" when the build carries none).
func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and git commit",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			commit := config.GitCommit()
			if commit == "" {
				commit = "unknown"
			}
			_, err := fmt.Fprintf(stdout, "%s\ncommit: %s\n", config.Current(), commit)
			return err
		},
	}
}
