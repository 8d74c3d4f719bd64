package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/wallet"
)

// newKeysCmd builds `cornice keys`, which prints a key's X-, P- and C-Chain addresses. It needs
// no node: the network ID only picks the addresses' HRP.
func newKeysCmd(stdout io.Writer) *cobra.Command {
	var (
		key       string
		networkID uint32
	)
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Print a key's X-, P- and C-Chain addresses",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			k, err := wallet.ParseKey(key)
			if err != nil {
				return fmt.Errorf("--key: %w", err)
			}
			_, err = fmt.Fprintf(stdout, "X: %s\nP: %s\nC: %s\n",
				k.ChainAddress("X", networkID), k.ChainAddress("P", networkID), k.EthAddress().Hex())
			return err
		},
	}
	fs := cmd.Flags()
	registerKeyFlag(fs, &key)
	fs.Uint32Var(&networkID, "network-id", config.LocalID, "network `ID` whose address prefix (HRP) to use")
	return cmd
}
