package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/wallet/evmwait"
)

// newICMCmd builds `cornice icm` and its subcommands (Interchain Messaging).
func newICMCmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "icm",
		Short: "Interchain Messaging: deploy Teleporter",
	})
	cmd.AddCommand(newICMDeployCmd(stdout))
	return cmd
}

// newICMDeployCmd builds `cornice icm deploy`.
func newICMDeployCmd(stdout io.Writer) *cobra.Command {
	var (
		f     walletFlags
		file  string
		chain string
	)
	cmd := &cobra.Command{
		Use:   "deploy",
		Short: "Deploy a contract with its keyless (Nick's method) transaction, such as TeleporterMessenger",
		Long: "Send the keyless deployment transaction in --tx (hex, as each Teleporter release publishes it) on\n" +
			"--chain (an alias such as C, or a blockchain ID): the key first sends its deployer what the\n" +
			"transaction's gas costs, then the transaction itself goes. Prints the deployer, the contract's\n" +
			"address (the same on every chain) and the status: deployed, or already deployed when the\n" +
			"contract is there.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := readKeyless(file)
			if err != nil {
				return err
			}
			key, client, err := f.connect()
			if err != nil {
				return err
			}
			url := strings.TrimSuffix(client.URI(), "/") + "/ext/bc/" + chain + "/rpc"
			eth, err := ethclient.DialContext(cmd.Context(), url)
			if err != nil {
				return fmt.Errorf("--node-uri: %w", err)
			}
			defer eth.Close()
			status, err := deployKeyless(cmd.Context(), eth, key, k, f.wait)
			if err != nil {
				return unreachableError(client.URI(), err)
			}
			_, err = fmt.Fprintf(stdout, "deployer: %s\naddress: %s\nstatus: %s\n", k.Deployer.Hex(), k.Contract.Hex(), status)
			return err
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&file, "tx", "", "`file` holding the raw keyless deployment transaction in hex")
	fs.StringVar(&chain, "chain", "C", "the `chain` to deploy on: an alias (C) or an L1's blockchain ID")
	f.register(fs)
	_ = cmd.MarkFlagRequired("tx")
	return cmd
}

// readKeyless reads a keyless deployment transaction from file: hex, with or without 0x.
func readKeyless(file string) (*icm.Keyless, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--tx %s: %w", file, unwrapPathError(err))
	}
	text := strings.TrimSpace(string(b))
	if !strings.HasPrefix(text, "0x") {
		text = "0x" + text
	}
	raw, err := hexutil.Decode(text)
	if err != nil {
		return nil, fmt.Errorf("--tx %s: not a transaction in hex: %w", file, err)
	}
	k, err := icm.ParseKeyless(raw)
	if err != nil {
		return nil, fmt.Errorf("--tx %s: %w", file, err)
	}
	return k, nil
}

// deployKeyless funds k's deployer from key and sends k's transaction on the chain of eth,
// waiting at most wait for each. It returns "already deployed" when the contract is there.
func deployKeyless(ctx context.Context, eth *ethclient.Client, key *wallet.Key, k *icm.Keyless, wait time.Duration) (string, error) {
	code, err := eth.CodeAt(ctx, k.Contract, nil)
	if err != nil {
		return "", err
	}
	if len(code) > 0 {
		return "already deployed", nil
	}
	nonce, err := eth.NonceAt(ctx, k.Deployer, nil)
	if err != nil {
		return "", err
	}
	if nonce > 0 {
		return "", fmt.Errorf("%w: the deployer %s has sent a transaction on this chain already, and no contract is at %s",
			errKeylessSpent, k.Deployer.Hex(), k.Contract.Hex())
	}
	balance, err := eth.BalanceAt(ctx, k.Deployer, nil)
	if err != nil {
		return "", err
	}
	if need := new(big.Int).Sub(k.Cost(), balance); need.Sign() > 0 {
		if err := fund(ctx, eth, key, k.Deployer, need, wait); err != nil {
			return "", fmt.Errorf("fund the deployer: %w", err)
		}
	}
	if _, err := evmwait.SendAndWait(ctx, eth, k.Tx, wait); err != nil {
		return "", fmt.Errorf("the deployment: %w", err)
	}
	return "deployed", nil
}

// fund sends value from key to to and waits for it.
func fund(ctx context.Context, eth *ethclient.Client, key *wallet.Key, to common.Address, value *big.Int, wait time.Duration) error {
	chainID, err := eth.ChainID(ctx)
	if err != nil {
		return err
	}
	_, err = evmwait.Transact(ctx, eth, key.PrivateKey(), chainID, evmwait.Call{To: &to, Value: value, Gas: 21_000}, wait)
	return err
}
