package main

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

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

// l1Genesis returns the Subnet-EVM genesis of the soak's L1: the default fee config, the tx
// allow list (l1-evm.md §5.3) with admin as Admin and sender Enabled, the native minter (§5.4)
// with admin as Admin, both active from genesis, and admin and sender funded with l1Funds.
func l1Genesis(admin, sender common.Address) ([]byte, error) {
	zero := uint64(0)
	return l1params.GenesisSpec{
		ChainID:   l1ChainID,
		FeeConfig: l1params.DefaultFeeConfig(),
		Precompiles: []l1params.PrecompileConfig{
			&l1params.TxAllowListConfig{
				AllowListConfig: l1params.AllowListConfig{
					AdminAddresses:   []common.Address{admin},
					EnabledAddresses: []common.Address{sender},
				},
				Upgrade: l1params.Upgrade{BlockTimestamp: &zero},
			},
			&l1params.NativeMinterConfig{
				AllowListConfig: l1params.AllowListConfig{AdminAddresses: []common.Address{admin}},
				Upgrade:         l1params.Upgrade{BlockTimestamp: &zero},
			},
		},
		Alloc: map[common.Address]*big.Int{admin: l1Funds, sender: l1Funds},
	}.JSON()
}

// l1RPCURL is the eth_* endpoint of chain on the node at nodeURL.
func l1RPCURL(nodeURL string, chain ids.ID) string {
	return nodeURL + "/ext/bc/" + chain.String() + "/rpc"
}
