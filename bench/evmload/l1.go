package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/wallet"
)

// The L1 the -l1 node mode creates.
const (
	// l1ChainID is the L1's EVM chain ID; any ID but the C-Chain's (43112) would do.
	l1ChainID = 43119
	// l1Name is the L1 chain's name on the P-Chain.
	l1Name = "evmload"
	// l1Weight and l1Balance are the node's weight and balance (nAVAX: 1 AVAX) as the L1's only
	// validator, as `cornice l1 create` sets them by default.
	l1Weight  = 100
	l1Balance = 1_000_000_000
	// l1PollInterval is how often createL1 asks the new chain whether it answers.
	l1PollInterval = 20 * time.Millisecond
)

// l1Funds is the genesis balance of the local key and of every sender on the L1: 10^26 wei
// (100 million of the native coin), far more than any run spends.
var l1Funds = new(big.Int).Exp(big.NewInt(10), big.NewInt(26), nil)

// l1GenesisJSON is the part of a Subnet-EVM genesis evmload writes (l1-evm.md §4.1).
type l1GenesisJSON struct {
	Config struct {
		ChainID     uint64                      `json:"chainId"`
		FeeConfig   l1params.FeeConfig          `json:"feeConfig"`
		TxAllowList *l1params.TxAllowListConfig `json:"txAllowListConfig"`
	} `json:"config"`
	Alloc      map[common.Address]l1Account `json:"alloc"`
	Nonce      hexutil.Uint64               `json:"nonce"`
	Timestamp  hexutil.Uint64               `json:"timestamp"`
	ExtraData  hexutil.Bytes                `json:"extraData"`
	GasLimit   hexutil.Uint64               `json:"gasLimit"`
	Difficulty hexutil.Uint64               `json:"difficulty"`
	Coinbase   common.Address               `json:"coinbase"`
	Number     hexutil.Uint64               `json:"number"`
	GasUsed    hexutil.Uint64               `json:"gasUsed"`
	ParentHash common.Hash                  `json:"parentHash"`
}

// l1Account is an alloc entry.
type l1Account struct {
	Balance *hexutil.Big `json:"balance"`
}

// l1Genesis returns the Subnet-EVM genesis of the benchmark's L1: benchFees (the C-Chain's fee
// config with a gas target no load reaches, so the two chains differ only in being an L1), the
// transaction allow list active from genesis with the local key as its admin and senders as
// Enabled, and the local key and every sender funded with l1Funds. The allow list is what is
// measured: every transaction's sender is checked against it when it is admitted and again when
// its block is built (l1-evm.md §5.3).
func l1Genesis(senders []common.Address) ([]byte, error) {
	key, err := crypto.HexToECDSA(localKeyHex)
	if err != nil {
		return nil, err
	}
	admin := crypto.PubkeyToAddress(key.PublicKey)
	var g l1GenesisJSON
	g.Config.ChainID = l1ChainID
	g.Config.FeeConfig = benchFees()
	zero := uint64(0)
	g.Config.TxAllowList = &l1params.TxAllowListConfig{
		AllowListConfig: l1params.AllowListConfig{
			AdminAddresses:   []common.Address{admin},
			EnabledAddresses: senders,
		},
		Upgrade: l1params.Upgrade{BlockTimestamp: &zero},
	}
	g.Alloc = make(map[common.Address]l1Account, len(senders)+1)
	for _, a := range append([]common.Address{admin}, senders...) {
		g.Alloc[a] = l1Account{Balance: (*hexutil.Big)(l1Funds)}
	}
	g.ExtraData = hexutil.Bytes{}
	g.GasLimit = hexutil.Uint64(g.Config.FeeConfig.GasLimit.Uint64())
	return json.Marshal(g)
}

// senderAddrs returns the addresses of the first n senders.
func senderAddrs(n int) []common.Address {
	addrs := make([]common.Address, n)
	for i := range addrs {
		addrs[i] = crypto.PubkeyToAddress(senderKey(i).PublicKey)
	}
	return addrs
}

// createL1 makes an L1 with genesis on the node at nodeURL through the local key's P-Chain
// wallet, as `cornice l1 create` does: a CreateSubnetTx owned by the key, a CreateChainTx of
// the Subnet-EVM VM with the genesis, and a ConvertSubnetToL1Tx with the node itself
// (info.getNodeID) as the only validator, managed by the new chain at the empty address. Each
// tx is waited for at most wait; then it waits, at most wait again, until the chain answers
// eth_chainId. It returns the chain's ID.
func createL1(ctx context.Context, clk clock.Clock, nodeURL string, genesis []byte, wait time.Duration) (ids.ID, error) {
	if _, err := checkLoopback(nodeURL); err != nil {
		return ids.ID{}, err
	}
	hc := newRPCClient(nodeURL, 2, time.Minute).http
	defer hc.CloseIdleConnections()
	client, err := wallet.NewClient(nodeURL, hc)
	if err != nil {
		return ids.ID{}, err
	}
	key, err := wallet.ParseKey(localKeyHex)
	if err != nil {
		return ids.ID{}, err
	}
	p, err := wallet.NewP(ctx, client, key, clk)
	if err != nil {
		return ids.ID{}, fmt.Errorf("P-Chain wallet: %w", err)
	}
	// The node would only refuse a genesis it cannot parse after three paid txs: check it first.
	if _, err := l1params.ParseGenesis(genesis, nil, p.NetworkID()); err != nil {
		return ids.ID{}, fmt.Errorf("L1 genesis: %w", err)
	}

	tx, err := p.CreateSubnet(ctx, "")
	if err != nil {
		return ids.ID{}, err
	}
	subnetID, err := issueAndWait(ctx, p, tx, wait)
	if err != nil {
		return ids.ID{}, fmt.Errorf("create subnet: %w", err)
	}
	if tx, err = p.CreateChain(ctx, subnetID, l1Name, node.SubnetEVMID, genesis); err != nil {
		return ids.ID{}, err
	}
	chainID, err := issueAndWait(ctx, p, tx, wait)
	if err != nil {
		return ids.ID{}, fmt.Errorf("create chain: %w", err)
	}
	var self info.GetNodeIDReply
	if err := client.Call(ctx, "/ext/info", "info.getNodeID", nil, &self); err != nil {
		return ids.ID{}, fmt.Errorf("read the node's ID: %w", err)
	}
	v := wallet.L1Validator{NodeID: self.NodeID, Weight: l1Weight, Balance: l1Balance}
	v.Signer.PublicKey = self.NodePOP.PublicKey
	v.Signer.Signature = self.NodePOP.ProofOfPossession
	if tx, err = p.ConvertSubnet(ctx, subnetID, chainID, []byte{}, []wallet.L1Validator{v}); err != nil {
		return ids.ID{}, err
	}
	if _, err := issueAndWait(ctx, p, tx, wait); err != nil {
		return ids.ID{}, fmt.Errorf("convert subnet %s to an L1: %w", subnetID, err)
	}
	if err := waitChain(ctx, clk, l1RPCURL(nodeURL, chainID), wait); err != nil {
		return ids.ID{}, err
	}
	return chainID, nil
}

// l1RPCURL is the eth_* endpoint of chain on the node at nodeURL.
func l1RPCURL(nodeURL string, chain ids.ID) string {
	return nodeURL + "/ext/bc/" + chain.String() + "/rpc"
}

// issueAndWait issues tx and waits until the P-Chain commits it; it returns the tx ID.
func issueAndWait(ctx context.Context, p *wallet.P, tx *platform.Tx, wait time.Duration) (ids.ID, error) {
	id, err := p.Issue(ctx, tx)
	if err != nil {
		return ids.ID{}, err
	}
	return id, p.WaitAccepted(ctx, id, wait)
}

// waitChain polls eth_chainId at rpcURL until it answers with a result, ctx is done or timeout
// has passed: the node starts the chain once the conversion's block is accepted.
func waitChain(ctx context.Context, clk clock.Clock, rpcURL string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := newRPCClient(rpcURL, 1, timeout)
	defer c.http.CloseIdleConnections()
	for {
		var id hexutil.Big
		err := c.call(ctx, &id, "eth_chainId")
		if err == nil {
			return nil
		}
		if serr := sleep(ctx, clk, l1PollInterval); serr != nil {
			return fmt.Errorf("%w: %s: %w", errChainNotUp, rpcURL, err)
		}
	}
}

// newL1 creates the benchmark's L1 (l1Genesis of the first senders senders) on the node at
// nodeURL and returns its chain ID.
func newL1(ctx context.Context, clk clock.Clock, nodeURL string, senders int) (ids.ID, error) {
	g, err := l1Genesis(senderAddrs(senders))
	if err != nil {
		return ids.ID{}, err
	}
	return createL1(ctx, clk, nodeURL, g, time.Minute)
}
