package wallet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// SubnetEVMID is the VM of L1 EVM chains, `srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy`
// (platform-exchange.md): the ID made from the name "subnetevm". It is node.SubnetEVMID, computed
// here because this package must not import node.
var SubnetEVMID = ids.FromName("subnetevm")

// Defaults of an L1Request, as `cornice l1 create` and `cornice run --l1` use them.
const (
	// DefaultL1Balance is the node's validator balance for the L1's continuous fee: 1 AVAX.
	DefaultL1Balance = 1_000_000_000
	// DefaultL1Weight is the node's weight as the L1's validator.
	DefaultL1Weight = 100
)

// l1PollInterval is how often CreateL1 asks the new chain whether it answers.
const l1PollInterval = 20 * time.Millisecond

// l1SubnetTagDomain is hashed before the genesis's SHA-256 into the tag of the subnets
// CreateL1 makes (l1SubnetTag).
const l1SubnetTagDomain = "cornice l1 create subnet tag v1\x00"

// L1Request is one L1 to create: its genesis, its chain name and the node's stake in it. Every
// field is sent as is; none has a default.
type L1Request struct {
	// Genesis is the Subnet-EVM genesis JSON, sent to the P-Chain byte for byte. CreateL1 only
	// reads it.
	Genesis []byte
	// Name is the chain's name: 1 to 128 ASCII letters, digits and spaces (platform-exchange.md).
	Name string
	// Balance is the node's validator balance in nAVAX, paid by the key (DefaultL1Balance);
	// Weight its weight (DefaultL1Weight).
	Balance, Weight uint64
	// Validators are the nodes that validate the L1, each with Weight and Balance (their IDs and
	// proofs of possession from their info.getNodeID); none means the node CreateL1 talks to.
	Validators []*Client
	// AllowSharedChainID lets a new chain have the EVM chain ID of the C-Chain or of another
	// Subnet-EVM chain on the P-Chain, which CreateL1 otherwise refuses with ErrChainIDInUse: a
	// transaction signed for one would be valid on the other.
	AllowSharedChainID bool
	// Manager is the address, on the new chain, of the L1's validator manager (an ACP-99
	// contract its genesis holds); none means the empty address.
	Manager []byte
}

// L1Result says where an L1 lives.
type L1Result struct {
	BlockchainID ids.ID
	SubnetID     ids.ID
	// Reused is true when the chain already existed on the P-Chain with the same genesis.
	Reused bool
	// ChainID is the chain's EVM chain ID, from its genesis.
	ChainID *big.Int
	// SharedWith names the chain that has the same EVM chain ID when a new chain was made with
	// L1Request.AllowSharedChainID; empty otherwise.
	SharedWith string
}

// L1SubnetOwners are the control addresses of the subnet CreateL1 makes for genesis with the key
// of address keyAddr, any one of them enough (threshold 1): the key, and the genesis's tag, the
// first 20 bytes of SHA-256("cornice l1 create subnet tag v1\x00" || SHA-256(genesis)).
//
// The tag lets CreateL1 find a subnet whose CreateChainTx never came (a crash in between) and
// finish the job on it, instead of making a second subnet. The subnet cannot carry it in its
// memo, which the P-Chain refuses since Durango (platform-exchange.md §4.2); its owners are shown
// by platform.getSubnets. No key has the tag's address (it is not a public key's hash), so the
// key remains the subnet's only real owner.
func L1SubnetOwners(keyAddr ids.ShortID, genesis []byte) []ids.ShortID {
	return []ids.ShortID{keyAddr, l1SubnetTag(genesis)}
}

// l1SubnetTag is the tag of L1SubnetOwners.
func l1SubnetTag(genesis []byte) ids.ShortID {
	sum := sha256.Sum256(genesis)
	h := sha256.New()
	h.Write([]byte(l1SubnetTagDomain))
	h.Write(sum[:])
	var tag ids.ShortID
	copy(tag[:], h.Sum(nil))
	return tag
}

// CreateL1 makes the L1 of req on the node at client, through key's P-Chain wallet: a
// CreateSubnetTx owned by L1SubnetOwners, a CreateChainTx of the Subnet-EVM VM (SubnetEVMID)
// with the genesis, and a ConvertSubnetToL1Tx with the node itself (info.getNodeID), or the nodes
// of req.Validators, as the L1's validators, managed by the new chain at req.Manager (the empty address by default). Each tx is waited for at most
// wait; then it waits, at most wait again, until the chain answers eth_chainId. clk paces every
// wait.
//
// Before any tx it parses the genesis as the node would (l1params.ParseGenesis, without an
// upgrade file), so that a genesis the node would refuse costs nothing; the error wraps the
// node's text after "L1 genesis: ".
//
// It is safe to run again after a failure or a crash at any point: a Subnet-EVM chain whose
// genesis is byte-identical to req.Genesis is reused (L1Result.Reused), and converted if an
// earlier attempt stopped short of that; a subnet of an earlier attempt that stopped before its
// chain is given the chain. A chain that does not answer in time gives an error wrapping
// ErrChainNotUp.
//
// Two CreateL1 at once with the same key spend the same UTXOs, and the node accepts only one of
// their txs: make L1s one after the other.
func CreateL1(ctx context.Context, client *Client, key *Key, req L1Request, wait time.Duration, clk clock.Clock) (L1Result, error) {
	p, err := NewP(ctx, client, key, clk)
	if err != nil {
		return L1Result{}, err
	}
	// The node would refuse to run a genesis it cannot parse, and only after three paid txs: check
	// it first, with the texts the node would give (no upgrade file: the chain has no ID yet).
	g, err := l1params.ParseGenesis(req.Genesis, nil, p.NetworkID())
	if err != nil {
		return L1Result{}, l1GenesisError(err)
	}
	owners := L1SubnetOwners(key.Address(), req.Genesis)
	res, found, err := findL1(ctx, p, req.Genesis, owners)
	if err != nil {
		return L1Result{}, err
	}
	res.Reused, res.ChainID = found, g.Config.ChainID
	if !found {
		if res.SharedWith, err = chainIDUser(ctx, p, g.Config.ChainID); err != nil {
			return L1Result{}, err
		}
		if res.SharedWith != "" && !req.AllowSharedChainID {
			return L1Result{}, chainIDInUseError(g.Config.ChainID, res.SharedWith)
		}
		if res.SubnetID == ids.Empty {
			tx, err := p.CreateSubnetOwners(ctx, owners)
			if err != nil {
				return L1Result{}, err
			}
			if res.SubnetID, err = p.IssueAndWait(ctx, tx, wait); err != nil {
				return L1Result{}, fmt.Errorf("create subnet: %w", err)
			}
		}
		tx, err := p.CreateChain(ctx, res.SubnetID, req.Name, SubnetEVMID, req.Genesis)
		if err != nil {
			return L1Result{}, err
		}
		if res.BlockchainID, err = p.IssueAndWait(ctx, tx, wait); err != nil {
			return L1Result{}, fmt.Errorf("create chain: %w", err)
		}
	}
	if err := convertToL1(ctx, p, res, req, wait); err != nil {
		return L1Result{}, err
	}
	if err := waitChain(ctx, clk, client, "/ext/bc/"+res.BlockchainID.String()+"/rpc", wait); err != nil {
		return L1Result{}, err
	}
	return res, nil
}

// convertToL1 converts res's subnet into an L1 managed by res's chain at req.Manager, with
// the node (info.getNodeID), or each of req.Validators, as its validator of req.Weight and
// req.Balance, unless it is converted already (platform.getSubnet).
func convertToL1(ctx context.Context, p *P, res L1Result, req L1Request, wait time.Duration) error {
	var subnet api.GetSubnetReply
	if err := p.client.Call(ctx, pPath, "platform.getSubnet", api.GetSubnetArgs{SubnetID: res.SubnetID}, &subnet); err != nil {
		return fmt.Errorf("read subnet %s: %w", res.SubnetID, err)
	}
	if subnet.ConversionID != ids.Empty {
		return nil
	}
	nodes := req.Validators
	if len(nodes) == 0 {
		nodes = []*Client{p.client}
	}
	vs := make([]L1Validator, len(nodes))
	for i, c := range nodes {
		nodeID, pop, err := NodeIdentity(ctx, c)
		if err != nil {
			return fmt.Errorf("validator at %s: %w", c.URI(), err)
		}
		vs[i] = L1Validator{NodeID: nodeID, Weight: req.Weight, Balance: req.Balance, Signer: pop}
	}
	tx, err := p.ConvertSubnet(ctx, res.SubnetID, res.BlockchainID, append([]byte{}, req.Manager...), vs)
	if err != nil {
		return err
	}
	if _, err := p.IssueAndWait(ctx, tx, wait); err != nil {
		return fmt.Errorf("convert subnet %s to an L1: %w", res.SubnetID, err)
	}
	return nil
}

// findL1 looks for an earlier attempt at the L1 of genesis on the P-Chain. It reports found, with
// the chain and its subnet, for a Subnet-EVM chain whose genesis is genesis, byte for byte
// (platform.getBlockchains, then each candidate's CreateChainTx from platform.getTx). Failing
// that, it returns, not found but with its SubnetID, a subnet made by CreateL1 for this genesis
// whose CreateChainTx never came: controlled by exactly owners (L1SubnetOwners) with threshold 1,
// with no chain and not converted (findSubnet). Otherwise the result is empty.
func findL1(ctx context.Context, p *P, genesis []byte, owners []ids.ShortID) (L1Result, bool, error) {
	var list api.GetBlockchainsReply
	if err := p.client.Call(ctx, pPath, "platform.getBlockchains", nil, &list); err != nil {
		return L1Result{}, false, fmt.Errorf("list blockchains: %w", err)
	}
	for _, bc := range list.Blockchains {
		if bc.VMID != SubnetEVMID {
			continue
		}
		cc, err := readCreateChainTx(ctx, p.client, bc.ID)
		if err != nil {
			return L1Result{}, false, fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		if cc != nil && bytes.Equal(cc.GenesisData, genesis) {
			return L1Result{BlockchainID: bc.ID, SubnetID: bc.SubnetID}, true, nil
		}
	}
	subnetID, err := findSubnet(ctx, p, list.Blockchains, owners)
	return L1Result{SubnetID: subnetID}, false, err
}

// chainIDUser names the chain that already has the EVM chain ID id: the C-Chain (its
// eth_chainId; a node without one has none) or a Subnet-EVM chain of the P-Chain (its genesis's
// chain ID, as the node parses it), or "" when none has.
func chainIDUser(ctx context.Context, p *P, id *big.Int) (string, error) {
	var c hexutil.Big
	if err := p.client.Call(ctx, cChainRPCPath, "eth_chainId", []any{}, &c); err == nil && c.ToInt().Cmp(id) == 0 {
		return "the C-Chain", nil
	}
	var list api.GetBlockchainsReply
	if err := p.client.Call(ctx, pPath, "platform.getBlockchains", nil, &list); err != nil {
		return "", fmt.Errorf("list blockchains: %w", err)
	}
	for _, bc := range list.Blockchains {
		if bc.VMID != SubnetEVMID {
			continue
		}
		cc, err := readCreateChainTx(ctx, p.client, bc.ID)
		if err != nil {
			return "", fmt.Errorf("read CreateChainTx %s: %w", bc.ID, err)
		}
		if cc == nil {
			continue
		}
		// A chain whose genesis the node cannot parse does not run, so shares nothing.
		if g, err := l1params.ParseGenesis(cc.GenesisData, nil, p.NetworkID()); err == nil && g.Config.ChainID.Cmp(id) == 0 {
			return fmt.Sprintf("L1 chain %s (%s)", bc.ID, bc.Name), nil
		}
	}
	return "", nil
}

// readCreateChainTx reads the tx txID with platform.getTx and returns it if it is a
// CreateChainTx, or nil.
func readCreateChainTx(ctx context.Context, client *Client, txID ids.ID) (*txs.CreateChainTx, error) {
	var reply chainapi.GetTxReply
	if err := client.Call(ctx, pPath, "platform.getTx", chainapi.GetTxArgs{TxID: txID, Encoding: ids.Hex}, &reply); err != nil {
		return nil, err
	}
	var s string
	if err := json.Unmarshal(reply.Tx, &s); err != nil {
		return nil, err
	}
	b, err := ids.Hex.Decode(s)
	if err != nil {
		return nil, err
	}
	tx, err := txs.ParseTx(b)
	if err != nil {
		return nil, err
	}
	cc, _ := tx.Unsigned().(*txs.CreateChainTx)
	return cc, nil
}

// findSubnet returns the first subnet of platform.getSubnets that exactly owners control with
// threshold 1, that has none of chains and is not converted (platform.getSubnet), or ids.Empty.
func findSubnet(ctx context.Context, p *P, chains []api.APIBlockchain, owners []ids.ShortID) (ids.ID, error) {
	withChain := make(map[ids.ID]bool, len(chains))
	for _, bc := range chains {
		withChain[bc.SubnetID] = true
	}
	var list api.GetSubnetsReply
	if err := p.client.Call(ctx, pPath, "platform.getSubnets", api.GetSubnetsArgs{}, &list); err != nil {
		return ids.Empty, fmt.Errorf("list subnets: %w", err)
	}
	for _, s := range list.Subnets {
		if s.ID == ids.Empty || withChain[s.ID] || s.Threshold != 1 || !controlledBy(p, s.ControlKeys, owners) {
			continue
		}
		var subnet api.GetSubnetReply
		if err := p.client.Call(ctx, pPath, "platform.getSubnet", api.GetSubnetArgs{SubnetID: s.ID}, &subnet); err != nil {
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
func controlledBy(p *P, keys []string, owners []ids.ShortID) bool {
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

// waitChain calls eth_chainId on the node's endpoint path until it answers with a result, ctx is
// done or timeout has passed on clk; the node starts an L1's chain once the conversion's block is
// accepted. The deadline also cancels a call in flight.
func waitChain(ctx context.Context, clk clock.Clock, client *Client, path string, timeout time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := clk.AfterFunc(timeout, cancel)
	defer deadline.Stop()
	for {
		var id json.RawMessage
		last := client.Call(ctx, path, "eth_chainId", []any{}, &id)
		if last == nil {
			return nil
		}
		if clock.Sleep(ctx, clk, l1PollInterval) != nil {
			return chainNotUpError(client.URI()+path, last)
		}
	}
}
