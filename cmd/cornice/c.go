package main

import (
	"io"

	"github.com/spf13/cobra"
)

// newCCmd builds `cornice c` and its subcommands, which move AVAX between the key's C-Chain
// balance and the X- and P-Chains with the C-Chain's atomic txs (docs/cli.md).
func newCCmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "c",
		Short: "Move AVAX between the C-Chain balance and the X- or P-Chain",
	})
	cmd.AddCommand(cChain.exportCmd(stdout), cChain.importCmd(stdout))
	return cmd
}
