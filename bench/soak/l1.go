package main

import (
	"context"
	"encoding/json"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// The L1 the soak creates.
const (
	// l1ChainID is the L1's EVM chain ID; any ID but the C-Chain's (43112) would do.
	l1ChainID = 43120
	// l1Name is the L1 chain's name on the P-Chain.
	l1Name = "soak"
)

// l1Funds is the genesis balance of the local key and of the L1 sender: 10^26 wei.
var l1Funds = new(big.Int).Exp(big.NewInt(10), big.NewInt(26), nil)

// l1GenesisJSON is the part of a Subnet-EVM genesis the soak writes (l1-evm.md §4.1).
type l1GenesisJSON struct {
	Config struct {
		ChainID      uint64                       `json:"chainId"`
		FeeConfig    l1params.FeeConfig           `json:"feeConfig"`
		TxAllowList  *l1params.TxAllowListConfig  `json:"txAllowListConfig"`
		NativeMinter *l1params.NativeMinterConfig `json:"contractNativeMinterConfig"`
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

// l1Genesis returns the Subnet-EVM genesis of the soak's L1: the default fee config, the tx
// allow list (l1-evm.md §5.3) with admin as Admin and sender Enabled, the native minter (§5.4)
// with admin as Admin, both active from genesis, and admin and sender funded with l1Funds.
func l1Genesis(admin, sender common.Address) ([]byte, error) {
	var g l1GenesisJSON
	g.Config.ChainID = l1ChainID
	g.Config.FeeConfig = l1params.DefaultFeeConfig()
	zero := uint64(0)
	g.Config.TxAllowList = &l1params.TxAllowListConfig{
		AllowListConfig: l1params.AllowListConfig{
			AdminAddresses:   []common.Address{admin},
			EnabledAddresses: []common.Address{sender},
		},
		Upgrade: l1params.Upgrade{BlockTimestamp: &zero},
	}
	g.Config.NativeMinter = &l1params.NativeMinterConfig{
		AllowListConfig: l1params.AllowListConfig{AdminAddresses: []common.Address{admin}},
		Upgrade:         l1params.Upgrade{BlockTimestamp: &zero},
	}
	g.Alloc = map[common.Address]l1Account{
		admin:  {Balance: (*hexutil.Big)(l1Funds)},
		sender: {Balance: (*hexutil.Big)(l1Funds)},
	}
	g.ExtraData = hexutil.Bytes{}
	g.GasLimit = hexutil.Uint64(g.Config.FeeConfig.GasLimit.Uint64())
	return json.Marshal(g)
}

// sleep waits d on clk or until ctx is done.
func sleep(ctx context.Context, clk clock.Clock, d time.Duration) error {
	t := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// l1RPCURL is the eth_* endpoint of chain on the node at nodeURL.
func l1RPCURL(nodeURL string, chain ids.ID) string {
	return nodeURL + "/ext/bc/" + chain.String() + "/rpc"
}
