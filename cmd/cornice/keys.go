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
	var key, network string
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Print a key's X-, P- and C-Chain addresses",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			k, err := wallet.ParseKey(key)
			if err != nil {
				return fmt.Errorf("--key: %w", err)
			}
			networkID, err := config.ParseNetworkID(network)
			if err != nil {
				return fmt.Errorf("--network-id: %w", err)
			}
			_, err = fmt.Fprintf(stdout, "X: %s\nP: %s\nC: %s\n",
				k.ChainAddress("X", networkID), k.ChainAddress("P", networkID), k.EthAddress().Hex())
			return err
		},
	}
	fs := cmd.Flags()
	registerKeyFlag(fs, &key)
	fs.StringVar(&network, "network-id", config.NetworkName(config.LocalID), "network (a name such as local or fuji, or a number) whose address prefix (HRP) to use")
	return cmd
}
