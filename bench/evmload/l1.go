package main

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

// The L1 the -l1 node mode creates.
const (
	// l1ChainID is the L1's EVM chain ID; any ID but the C-Chain's (43112) would do.
	l1ChainID = 43119
	// l1Name is the L1 chain's name on the P-Chain.
	l1Name = "evmload"
	// l1Wait bounds each of the L1's txs, and then the wait until its chain answers.
	l1Wait = time.Minute
)

// l1Funds is the genesis balance of the local key and of every sender on the L1: 10^26 wei
// (100 million of the native coin), far more than any run spends.
var l1Funds = new(big.Int).Exp(big.NewInt(10), big.NewInt(26), nil)

// l1Genesis returns the Subnet-EVM genesis of the benchmark's L1: benchFees (the C-Chain's fee
// config with a gas target no load reaches, so the two chains differ only in being an L1), the
// transaction allow list active from genesis with the local key as its admin and senders as
// Enabled, and the local key and every sender funded with l1Funds. The allow list is what is
// measured: every transaction's sender is checked against it when it is admitted and again when
// its block is built (l1-evm.md §5.3).
func l1Genesis(senders []common.Address) ([]byte, error) {
	key, err := localKey()
	if err != nil {
		return nil, err
	}
	admin := crypto.PubkeyToAddress(key.PublicKey)
	zero := uint64(0)
	spec := l1params.GenesisSpec{
		ChainID:   l1ChainID,
		FeeConfig: benchFees(),
		Precompiles: []l1params.PrecompileConfig{&l1params.TxAllowListConfig{
			AllowListConfig: l1params.AllowListConfig{AdminAddresses: []common.Address{admin}, EnabledAddresses: senders},
			Upgrade:         l1params.Upgrade{BlockTimestamp: &zero},
		}},
		Alloc: make(map[common.Address]*big.Int, len(senders)+1),
	}
	for _, a := range append([]common.Address{admin}, senders...) {
		spec.Alloc[a] = l1Funds
	}
	return spec.JSON()
}

// senderAddrs returns the addresses of the first n senders.
func senderAddrs(n int) []common.Address {
	addrs := make([]common.Address, n)
	for i := range addrs {
		addrs[i] = crypto.PubkeyToAddress(senderKey(i).PublicKey)
	}
	return addrs
}

// newL1 creates the benchmark's L1 (l1Genesis of the first senders senders) on the node at
// nodeURL with wallet.CreateL1, as `cornice l1 create` does, through the local key's P-Chain
// wallet and with the node as the only validator of the default weight and balance; it returns
// the chain's ID. Every call goes through the tool's loopback-only HTTP client.
func newL1(ctx context.Context, clk clock.Clock, nodeURL string, senders int) (ids.ID, error) {
	g, err := l1Genesis(senderAddrs(senders))
	if err != nil {
		return ids.ID{}, err
	}
	if _, err := loopback.CheckURL(nodeURL); err != nil {
		return ids.ID{}, err
	}
	hc := newRPCClient(nodeURL, 2, l1Wait).http
	defer hc.CloseIdleConnections()
	client, err := wallet.NewClient(nodeURL, hc)
	if err != nil {
		return ids.ID{}, err
	}
	key, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return ids.ID{}, err
	}
	req := wallet.L1Request{Genesis: g, Name: l1Name, Balance: wallet.DefaultL1Balance, Weight: wallet.DefaultL1Weight}
	res, err := wallet.CreateL1(ctx, client, key, req, l1Wait, clk)
	if err != nil {
		return ids.ID{}, fmt.Errorf("create L1: %w", err)
	}
	return res.BlockchainID, nil
}

// l1RPCURL is the eth_* endpoint of chain on the node at nodeURL.
func l1RPCURL(nodeURL string, chain ids.ID) string {
	return nodeURL + "/ext/bc/" + chain.String() + "/rpc"
}
