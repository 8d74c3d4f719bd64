package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/wallet"
)

// Defaults of `cornice l1 create` and `cornice run --l1`.
const (
	// defaultL1Balance is the node's validator balance for the L1's continuous fee: 1 AVAX.
	defaultL1Balance = 1_000_000_000
	// defaultL1Weight is the node's weight as the L1's validator.
	defaultL1Weight = 100
	// maxChainNameLen is the longest chain name a CreateChainTx takes (platform-exchange.md).
	maxChainNameLen = 128
	// l1PollInterval is how often createL1 asks the new chain whether it answers.
	l1PollInterval = 20 * time.Millisecond
)

// l1SubnetTagDomain is hashed before the genesis's SHA-256 into the tag of the subnets
// `cornice l1 create` makes (l1SubnetTag).
const l1SubnetTagDomain = "cornice l1 create subnet tag v1\x00"

// l1SubnetTag is the tag of the subnet createL1 makes for genesis: the first 20 bytes of
// SHA-256(l1SubnetTagDomain || SHA-256(genesis)), used as a second control address of the subnet
// beside the key's, threshold 1. It lets findL1 find a subnet whose CreateChainTx never came (a
// crash in between) and finish the job on it, instead of making a second subnet. The subnet
// cannot carry it in its memo, which the P-Chain refuses since Durango (platform-exchange.md
// §4.2); its owner is shown by platform.getSubnets. No key has this address (it is not a public
// key's hash), so the key remains the subnet's only real owner.
func l1SubnetTag(genesis []byte) ids.ShortID {
	sum := sha256.Sum256(genesis)
	h := sha256.New()
	h.Write([]byte(l1SubnetTagDomain))
	h.Write(sum[:])
	var tag ids.ShortID
	copy(tag[:], h.Sum(nil))
	return tag
}

// l1SubnetOwners are the control addresses of the subnet createL1 makes for genesis with the key
// of address keyAddr: the key and the genesis's tag, any one of them enough (threshold 1).
func l1SubnetOwners(keyAddr ids.ShortID, genesis []byte) []ids.ShortID {
	return []ids.ShortID{keyAddr, l1SubnetTag(genesis)}
}

// l1Request is one L1 to create: its genesis, its chain name and this node's stake in it.
type l1Request struct {
	// Genesis is the Subnet-EVM genesis JSON, sent to the P-Chain byte for byte.
	Genesis []byte
	// Name is the chain's name.
	Name string
	// Balance is the node's validator balance in nAVAX; Weight its weight.
	Balance, Weight uint64
}

// l1Result says where an L1 lives.
type l1Result struct {
	BlockchainID ids.ID
	SubnetID     ids.ID
	// Reused is true when the chain already existed on the P-Chain with the same genesis.
	Reused bool
}

// readL1Genesis reads a genesis file and names the chain after it when name is empty.
func readL1Genesis(path, name string, balance, weight uint64) (l1Request, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return l1Request{}, fmt.Errorf("read L1 genesis: %w", err)
	}
	if !json.Valid(b) {
		return l1Request{}, fmt.Errorf("L1 genesis %s: %w", path, errGenesisJSON)
	}
	if name == "" {
		name = chainNameFromFile(path)
	}
	if err := checkChainName(name); err != nil {
		return l1Request{}, err
	}
	return l1Request{Genesis: b, Name: name, Balance: balance, Weight: weight}, nil
}

// chainNameFromFile makes a chain name from a file name: its base name without extension, each
// run of characters other than letters and digits turned into one space ("l1-genesis.json" →
// "l1 genesis"), cut to 128 bytes; "l1" if nothing is left.
func chainNameFromFile(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	words := strings.FieldsFunc(base, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	name := strings.Join(words, " ")
	if len(name) > maxChainNameLen {
		name = strings.TrimSpace(name[:maxChainNameLen])
	}
	if name == "" {
		return "l1"
	}
	return name
}

// checkChainName refuses a name a CreateChainTx would not take: 1 to 128 ASCII letters, digits
// and spaces (platform-exchange.md).
func checkChainName(name string) error {
	if name == "" || len(name) > maxChainNameLen {
		return fmt.Errorf("--name %q: %w", name, errChainName)
	}
	for _, r := range name {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ') {
			return fmt.Errorf("--name %q: %w", name, errChainName)
		}
	}
	return nil
}

// createL1 makes the L1 of req on the node at client, through the key's P-Chain wallet: a
// CreateSubnetTx owned by the key and tagged with the genesis (l1SubnetOwners), a CreateChainTx
// of the Subnet-EVM VM with the genesis, and a ConvertSubnetToL1Tx with the node itself
// (info.getNodeID) as the L1's only validator, managed by the new chain at the empty address. A
// Subnet-EVM chain whose genesis is byte-identical is reused instead, and converted if an earlier
// attempt stopped short of that; a subnet of an earlier attempt that stopped before its chain is
// given the chain. Each tx is waited for at most wait. Then it waits, at most wait again, until
// the chain answers eth_chainId.
//
// `cornice l1 create` and `cornice run --l1` both call it.
func createL1(ctx context.Context, client *wallet.Client, key *wallet.Key, req l1Request, wait time.Duration) (l1Result, error) {
	clk := clock.Real{}
	p, err := wallet.NewP(ctx, client, key, clk)
	if err != nil {
		return l1Result{}, err
	}
	// The node would refuse to run a genesis it cannot parse, and only after three paid txs: check
	// it first, with the texts the node would give (no upgrade file: the chain has no ID yet).
	if _, err := l1params.ParseGenesis(req.Genesis, nil, p.NetworkID()); err != nil {
		return l1Result{}, fmt.Errorf("L1 genesis: %w", err)
	}
	owners := l1SubnetOwners(key.Address(), req.Genesis)
	res, found, err := findL1(ctx, client, p, req.Genesis, owners)
	if err != nil {
		return l1Result{}, err
	}
	res.Reused = found
	if !found {
		if res.SubnetID == ids.Empty {
			tx, err := p.CreateSubnetOwners(ctx, owners)
			if err != nil {
				return l1Result{}, err
			}
			if res.SubnetID, err = issueAndWait(ctx, p, tx, wait); err != nil {
				return l1Result{}, fmt.Errorf("create subnet: %w", err)
			}
		}
		tx, err := p.CreateChain(ctx, res.SubnetID, req.Name, node.SubnetEVMID, req.Genesis)
		if err != nil {
			return l1Result{}, err
		}
		if res.BlockchainID, err = issueAndWait(ctx, p, tx, wait); err != nil {
			return l1Result{}, fmt.Errorf("create chain: %w", err)
		}
	}

	var subnet platform.GetSubnetReply
	if err := client.Call(ctx, "/ext/bc/P", "platform.getSubnet", platform.GetSubnetArgs{SubnetID: res.SubnetID}, &subnet); err != nil {
		return l1Result{}, fmt.Errorf("read subnet %s: %w", res.SubnetID, err)
	}
	if subnet.ConversionID == ids.Empty {
		var self info.GetNodeIDReply
		if err := client.Call(ctx, "/ext/info", "info.getNodeID", nil, &self); err != nil {
			return l1Result{}, fmt.Errorf("read the node's ID: %w", err)
		}
		v := wallet.L1Validator{NodeID: self.NodeID, Weight: req.Weight, Balance: req.Balance}
		v.Signer.PublicKey = self.NodePOP.PublicKey
		v.Signer.Signature = self.NodePOP.ProofOfPossession
		tx, err := p.ConvertSubnet(ctx, res.SubnetID, res.BlockchainID, []byte{}, []wallet.L1Validator{v})
		if err != nil {
			return l1Result{}, err
		}
		if _, err := issueAndWait(ctx, p, tx, wait); err != nil {
			return l1Result{}, fmt.Errorf("convert subnet %s to an L1: %w", res.SubnetID, err)
		}
	}
	if err := waitChain(ctx, clk, client.URI()+"/ext/bc/"+res.BlockchainID.String()+"/rpc", wait); err != nil {
		return l1Result{}, err
	}
	return res, nil
}

// issueAndWait issues tx and waits until the P-Chain commits it; it returns the tx ID.
func issueAndWait(ctx context.Context, p *wallet.P, tx *platform.Tx, wait time.Duration) (ids.ID, error) {
	id, err := p.Issue(ctx, tx)
	if err != nil {
		return ids.ID{}, err
	}
	return id, p.WaitAccepted(ctx, id, wait)
}

// findL1 looks for an earlier attempt at the L1 of genesis on the P-Chain. It reports found, with
// the chain and its subnet, for a Subnet-EVM chain whose genesis is genesis, byte for byte
// (platform.getBlockchains, then each candidate's CreateChainTx from platform.getTx). Failing
// that, it returns, not found but with its SubnetID, a subnet made by createL1 for this genesis
// whose CreateChainTx never came: controlled by exactly owners (l1SubnetOwners) with threshold 1,
// with no chain and not converted (findSubnet). Otherwise the result is empty.
func findL1(ctx context.Context, client *wallet.Client, p *wallet.P, genesis []byte, owners []ids.ShortID) (l1Result, bool, error) {
	var list platform.GetBlockchainsReply
	if err := client.Call(ctx, "/ext/bc/P", "platform.getBlockchains", nil, &list); err != nil {
		return l1Result{}, false, fmt.Errorf("list blockchains: %w", err)
	}
	for _, bc := range list.Blockchains {
		if bc.VMID != node.SubnetEVMID {
			continue
		}
		var reply platform.GetTxReply
		if err := client.Call(ctx, "/ext/bc/P", "platform.getTx", platform.GetTxArgs{TxID: bc.ID, Encoding: ids.Hex}, &reply); err != nil {
			return l1Result{}, false, fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		var s string
		if err := json.Unmarshal(reply.Tx, &s); err != nil {
			return l1Result{}, false, fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		b, err := ids.Hex.Decode(s)
		if err != nil {
			return l1Result{}, false, fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		tx, err := platform.ParseTx(b)
		if err != nil {
			return l1Result{}, false, fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		if cc, ok := tx.Unsigned().(*platform.CreateChainTx); ok && bytes.Equal(cc.GenesisData, genesis) {
			return l1Result{BlockchainID: bc.ID, SubnetID: bc.SubnetID}, true, nil
		}
	}
	subnetID, err := findSubnet(ctx, client, p, list.Blockchains, owners)
	return l1Result{SubnetID: subnetID}, false, err
}

// findSubnet returns the first subnet of platform.getSubnets that exactly owners control with
// threshold 1, that has none of chains and is not converted (platform.getSubnet), or ids.Empty.
func findSubnet(ctx context.Context, client *wallet.Client, p *wallet.P, chains []platform.APIBlockchain, owners []ids.ShortID) (ids.ID, error) {
	withChain := make(map[ids.ID]bool, len(chains))
	for _, bc := range chains {
		withChain[bc.SubnetID] = true
	}
	var list platform.GetSubnetsReply
	if err := client.Call(ctx, "/ext/bc/P", "platform.getSubnets", platform.GetSubnetsArgs{}, &list); err != nil {
		return ids.Empty, fmt.Errorf("list subnets: %w", err)
	}
	for _, s := range list.Subnets {
		if s.ID == ids.Empty || withChain[s.ID] || s.Threshold != 1 || !controlledBy(p, s.ControlKeys, owners) {
			continue
		}
		var subnet platform.GetSubnetReply
		if err := client.Call(ctx, "/ext/bc/P", "platform.getSubnet", platform.GetSubnetArgs{SubnetID: s.ID}, &subnet); err != nil {
			return ids.Empty, fmt.Errorf("read subnet %s: %w", s.ID, err)
		}
		if subnet.ConversionID == ids.Empty {
			return s.ID, nil
		}
	}
	return ids.Empty, nil
}

// controlledBy reports whether the P-Chain addresses keys are owners, in any order. An address
// that does not parse is no owner.
func controlledBy(p *wallet.P, keys []string, owners []ids.ShortID) bool {
	if len(keys) != len(owners) {
		return false
	}
	for _, k := range keys {
		addr, err := p.ParseAddress(k)
		if err != nil || !slices.Contains(owners, addr) {
			return false
		}
	}
	return true
}

// waitChain polls eth_chainId at rpcURL until it answers with a result, ctx is done or timeout
// has passed.
func waitChain(ctx context.Context, clk clock.Clock, rpcURL string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`)
	var last error
	for {
		if last = chainAnswers(ctx, rpcURL, body); last == nil {
			return nil
		}
		t := clk.NewTimer(l1PollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %s: %w", errChainNotUp, rpcURL, last)
		case <-t.C:
		}
	}
}

// chainAnswers posts body to rpcURL and reports whether a JSON-RPC result came back.
func chainAnswers(ctx context.Context, rpcURL string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rpcURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		return err
	}
	if len(reply.Result) == 0 {
		return fmt.Errorf("no result")
	}
	return nil
}

// printL1 writes where the L1 lives, one "name: value" line each, with the node's base URI.
func printL1(w io.Writer, nodeURI string, res l1Result) error {
	base := strings.TrimSuffix(nodeURI, "/") + "/ext/bc/" + res.BlockchainID.String()
	ws := base
	switch {
	case strings.HasPrefix(ws, "https://"):
		ws = "wss://" + strings.TrimPrefix(ws, "https://")
	case strings.HasPrefix(ws, "http://"):
		ws = "ws://" + strings.TrimPrefix(ws, "http://")
	}
	status := "created"
	if res.Reused {
		status = "reused"
	}
	_, err := fmt.Fprintf(w, "blockchainID: %s\nsubnetID: %s\nrpc: %s/rpc\nws: %s/ws\nvalidators: %s/validators\nstatus: %s\n",
		res.BlockchainID, res.SubnetID, base, ws, base, status)
	return err
}

// newL1Cmd builds `cornice l1` and its subcommands.
func newL1Cmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "l1",
		Short: "Create L1 EVM chains",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newL1CreateCmd(stdout))
	return cmd
}

// newL1CreateCmd builds `cornice l1 create`.
func newL1CreateCmd(stdout io.Writer) *cobra.Command {
	var (
		f               walletFlags
		gfile, name     string
		balance, weight uint64
	)
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create an L1 EVM chain validated by the node",
		Long: "Create an L1 from the Subnet-EVM genesis in --genesis: a subnet owned by the key, a chain of\n" +
			"the Subnet-EVM VM with that genesis, and the subnet's conversion into an L1 managed by the new\n" +
			"chain, with the node (info.getNodeID) as its validator of --weight and --balance nAVAX. A chain\n" +
			"with the same genesis already on the P-Chain is reused, as is a subnet an interrupted earlier\n" +
			"run made for it. Waits until the chain answers, then\n" +
			"prints its blockchain ID, subnet ID, and RPC, websocket and validators URLs.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			req, err := readL1Genesis(gfile, name, balance, weight)
			if err != nil {
				return err
			}
			key, err := wallet.ParseKey(f.key)
			if err != nil {
				return fmt.Errorf("--key: %w", err)
			}
			client, err := wallet.NewClient(f.nodeURI, nil)
			if err != nil {
				return fmt.Errorf("--node-uri: %w", err)
			}
			res, err := createL1(ctx, client, key, req, f.wait)
			if err != nil {
				return err
			}
			return printL1(stdout, client.URI(), res)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&gfile, "genesis", "", "`file` of the L1's Subnet-EVM genesis (see examples/l1-genesis.json)")
	fs.StringVar(&name, "name", "", "chain name: at most 128 letters, digits and spaces (default: from the genesis file's name)")
	fs.Uint64Var(&balance, "balance", defaultL1Balance, "the node's validator balance in nAVAX, paid by the key")
	fs.Uint64Var(&weight, "weight", defaultL1Weight, "the node's validator weight")
	f.register(fs)
	_ = cmd.MarkFlagRequired("genesis")
	return cmd
}
