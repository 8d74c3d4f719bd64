package l1params

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

func keysOf(ps []PrecompileConfig) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		s := p.Key()
		if p.IsDisabled() {
			s += "-"
		}
		out = append(out, s)
	}
	return out
}

func TestPrecompileActivations(t *testing.T) {
	t.Parallel()
	c := parseFull(t).Config
	tests := []struct {
		name   string
		parent *uint64
		child  uint64
		want   []string
	}{
		{"genesis", nil, 0, []string{DeployerAllowListKey, NativeMinterKey, TxAllowListKey, FeeManagerKey, RewardManagerKey, WarpKey}},
		{"genesis later, address order then time", nil, 1800000100, []string{DeployerAllowListKey, NativeMinterKey, TxAllowListKey, FeeManagerKey, FeeManagerKey + "-", FeeManagerKey, RewardManagerKey, WarpKey}},
		{"nothing", ptr(uint64(0)), 1799999999, []string{}},
		{"disable, inclusive", ptr(uint64(1799999999)), 1800000000, []string{FeeManagerKey + "-"}},
		{"parent exclusive", ptr(uint64(1800000000)), 1800000099, []string{}},
		{"both in one block", ptr(uint64(1799999999)), 1800000100, []string{FeeManagerKey + "-", FeeManagerKey}},
		{"re-enable", ptr(uint64(1800000099)), 1800000100, []string{FeeManagerKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, keysOf(c.PrecompileActivations(tt.parent, tt.child)))
		})
	}
}

func TestStateUpgradesBetween(t *testing.T) {
	t.Parallel()
	c := parseFull(t).Config
	require.Empty(t, c.StateUpgradesBetween(0, 1800000049))
	ups := c.StateUpgradesBetween(1800000049, 1800000050)
	require.Len(t, ups, 1)
	require.Equal(t, uint64(1800000050), *ups[0].BlockTimestamp)
	acct := ups[0].Accounts[addrB]
	require.Equal(t, []byte{0x60, 0x01}, []byte(acct.Code))
	require.Equal(t, int64(100), (*big.Int)(acct.BalanceChange).Int64())
	require.Empty(t, c.StateUpgradesBetween(1800000050, 1900000000))
}

func TestActiveConfig(t *testing.T) {
	t.Parallel()
	c := parseFull(t).Config
	tests := []struct {
		ts      uint64
		enabled bool
		initFee bool
	}{
		{0, true, false},
		{1799999999, true, false},
		{1800000000, false, false},
		{1800000099, false, false},
		{1800000100, true, true},
	}
	for _, tt := range tests {
		p, ok := c.ActiveConfig(FeeManagerKey, tt.ts)
		require.Equal(t, tt.enabled, ok, tt.ts)
		require.Equal(t, tt.enabled, c.IsPrecompileEnabled(FeeManagerAddress, tt.ts), tt.ts)
		if ok {
			require.Equal(t, tt.initFee, p.(*FeeManagerConfig).InitialFeeConfig != nil, tt.ts)
		}
	}
	_, ok := c.ActiveConfig("nope", 0)
	require.False(t, ok)
	require.False(t, c.IsPrecompileEnabled(common.HexToAddress("0x0200000000000000000000000000000000000006"), 0))

	// A genesis config scheduled later is not active before its time.
	g, err := ParseGenesis([]byte(`{"config":{"chainId":1,"txAllowListConfig":{"blockTimestamp":50}},"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), nil, localNetworkID)
	require.NoError(t, err)
	require.False(t, g.Config.IsPrecompileEnabled(TxAllowListAddress, 49))
	require.True(t, g.Config.IsPrecompileEnabled(TxAllowListAddress, 50))
	require.Empty(t, g.Config.PrecompileActivations(nil, 0))
}

func TestActivePrecompilesAt(t *testing.T) {
	t.Parallel()
	// The shape of l1-evm.md §1.4's example: the config in force, struct field order, keys sorted.
	g, err := ParseGenesis([]byte(`{"config":{"chainId":1,"warpConfig":{"blockTimestamp":0,"quorumNumerator":67}},"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`),
		[]byte(`{"networkUpgradeOverrides":{"durangoTimestamp":0},"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000100,"adminAddresses":["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"],"initialFeeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}}}]}`),
		localNetworkID)
	require.NoError(t, err)
	b, err := json.Marshal(g.Config.ActivePrecompilesAt(1800000100))
	require.NoError(t, err)
	require.Equal(t, `{"feeManagerConfig":{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":1800000100,`+
		`"initialFeeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}},`+
		`"warpConfig":{"blockTimestamp":0,"quorumNumerator":67,"requirePrimaryNetworkSigners":false}}`, string(b))

	b, err = json.Marshal(g.Config.ActivePrecompilesAt(1800000099))
	require.NoError(t, err)
	require.Equal(t, `{"warpConfig":{"blockTimestamp":0,"quorumNumerator":67,"requirePrimaryNetworkSigners":false}}`, string(b))

	empty, err := ParseGenesis([]byte(minimalGenesis), nil, MainnetID)
	require.NoError(t, err)
	b, err = json.Marshal(empty.Config.ActivePrecompilesAt(0))
	require.NoError(t, err)
	require.Equal(t, `{}`, string(b))
	b, err = json.Marshal(Precompiles(nil))
	require.NoError(t, err)
	require.Equal(t, `{}`, string(b))
	b, err = json.Marshal(empty.Config.ActiveRulesAt(0))
	require.NoError(t, err)
	require.Contains(t, string(b), `"precompiles":{}}`)
	require.Contains(t, string(b), `"IsShanghai":false,"IsCancun":false`)
}

func TestEthConfig(t *testing.T) {
	t.Parallel()
	g, err := ParseGenesis([]byte(minimalGenesis), nil, MainnetID)
	require.NoError(t, err)
	e := g.Config.EthConfig()
	require.Equal(t, int64(43214), e.ChainID.Int64())
	for _, b := range []*big.Int{e.HomesteadBlock, e.EIP150Block, e.EIP155Block, e.EIP158Block, e.ByzantiumBlock,
		e.ConstantinopleBlock, e.PetersburgBlock, e.IstanbulBlock, e.MuirGlacierBlock, e.BerlinBlock, e.LondonBlock,
		e.TerminalTotalDifficulty} {
		require.NotNil(t, b)
		require.Zero(t, b.Sign())
	}
	require.Equal(t, uint64(1709740800), *e.ShanghaiTime)
	require.Equal(t, uint64(1734368400), *e.CancunTime)
	require.Nil(t, e.PragueTime)
	require.Nil(t, e.OsakaTime)
	require.NotNil(t, e.BlobScheduleConfig)
	require.NotNil(t, e.BlobScheduleConfig.Cancun)
	require.NoError(t, e.CheckConfigForkOrder())
	e.ChainID.SetInt64(1)
	require.Equal(t, int64(43214), g.Config.ChainID.Int64(), "the result is the caller's")
}
