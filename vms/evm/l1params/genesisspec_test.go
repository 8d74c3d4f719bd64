package l1params

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

// TestGenesisSpec writes a genesis with two precompiles and reads it back with ParseGenesis.
func TestGenesisSpec(t *testing.T) {
	t.Parallel()
	admin, user := common.Address{1}, common.Address{2}
	zero := uint64(0)
	allow := &TxAllowListConfig{
		AllowListConfig: AllowListConfig{AdminAddresses: []common.Address{admin}, EnabledAddresses: []common.Address{user}},
		Upgrade:         Upgrade{BlockTimestamp: &zero},
	}
	minter := &NativeMinterConfig{
		AllowListConfig: AllowListConfig{AdminAddresses: []common.Address{admin}},
		Upgrade:         Upgrade{BlockTimestamp: &zero},
	}
	spec := GenesisSpec{
		ChainID:     4321,
		FeeConfig:   DefaultFeeConfig(),
		Precompiles: []PrecompileConfig{allow, minter},
		Alloc:       map[common.Address]*big.Int{admin: big.NewInt(7), user: big.NewInt(9)},
	}
	b, err := spec.JSON()
	require.NoError(t, err)
	g, err := ParseGenesis(b, nil, 12345)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(4321), g.Config.ChainID)
	want := DefaultFeeConfig()
	require.True(t, want.Equal(&g.Config.FeeConfig))
	require.True(t, allow.Equal(g.Config.GenesisPrecompiles[TxAllowListKey]))
	require.True(t, minter.Equal(g.Config.GenesisPrecompiles[NativeMinterKey]))
	require.Len(t, g.Config.GenesisPrecompiles, 2)
	require.Equal(t, uint64(8_000_000), g.Eth.GasLimit)
	require.Equal(t, big.NewInt(7), g.Eth.Alloc[admin].Balance)
	require.Equal(t, big.NewInt(9), g.Eth.Alloc[user].Balance)

	bad := spec
	bad.FeeConfig.GasLimit = nil
	_, err = bad.JSON()
	require.ErrorContains(t, err, "gasLimit cannot be nil")
}
