package l1params

import (
	"encoding/json"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const localNetworkID = 12345

// minimalGenesis is a genesis with only the chain ID in its config.
const minimalGenesis = `{"config":{"chainId":43214},"alloc":{},"gasLimit":"0x7A1200","difficulty":"0x0"}`

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := readFile(name)
	require.NoError(t, err)
	return b
}

func readFile(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }

// golden compares got with testdata/name byte for byte, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func parseFull(t *testing.T) *Genesis {
	t.Helper()
	g, err := ParseGenesis(readTestdata(t, "genesis.json"), readTestdata(t, "upgrade.json"), localNetworkID)
	require.NoError(t, err)
	return g
}

func TestGetChainConfigMainnetMinimal(t *testing.T) {
	t.Parallel()
	g, err := ParseGenesis([]byte(minimalGenesis), nil, MainnetID)
	require.NoError(t, err)
	b, err := json.Marshal(g.Config)
	require.NoError(t, err)
	// l1-evm.md §1.3's verified output, with eip150Hash added (the spec includes it).
	want := `{"berlinBlock":0,"byzantiumBlock":0,"cancunTime":1734368400,"chainId":43214,"constantinopleBlock":0,` +
		`"durangoTimestamp":1709740800,"eip150Block":0,"eip150Hash":"0x0000000000000000000000000000000000000000000000000000000000000000",` +
		`"eip155Block":0,"eip158Block":0,"etnaTimestamp":1734368400,` +
		`"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},` +
		`"graniteTimestamp":1763568000,"heliconTimestamp":253399622400,"homesteadBlock":0,` +
		`"istanbulBlock":0,"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":1709740800,` +
		`"subnetEVMTimestamp":0,"upgrades":{}}`
	require.Equal(t, want, string(b))
}

func TestParseGenesisFull(t *testing.T) {
	t.Parallel()
	g := parseFull(t)
	c := g.Config
	require.Equal(t, int64(99999), c.ChainID.Int64())
	require.Len(t, c.GenesisPrecompiles, 6)
	require.Equal(t, uint64(0), *c.DurangoTimestamp, "overridden by the upgrade file")
	require.Equal(t, UnscheduledActivation, *c.HeliconTimestamp)
	require.Equal(t, InitiallyActive, *c.EtnaTimestamp)
	require.Len(t, c.Upgrades.PrecompileUpgrades, 2)
	require.Len(t, c.Upgrades.StateUpgrades, 1)

	e := g.Eth
	require.Equal(t, uint64(15_000_000), e.GasLimit)
	require.Equal(t, uint64(0), e.Timestamp)
	require.Equal(t, int64(0), e.Difficulty.Int64())
	require.Len(t, e.Alloc, 2)
	acct := e.Alloc[addrB]
	require.Equal(t, "1000000000000000000", acct.Balance.String())
	require.Equal(t, []byte{0x60, 0x80}, acct.Code)
	require.Equal(t, uint64(1), acct.Nonce)
	require.Equal(t, common.HexToHash("0x02"), acct.Storage[common.HexToHash("0x01")])
	require.Equal(t, "50000000000000000000000000", e.Alloc[addrA].Balance.String())
	require.NotNil(t, e.Config)
	require.Equal(t, int64(99999), e.Config.ChainID.Int64())

	b, err := json.Marshal(c)
	require.NoError(t, err)
	golden(t, "getChainConfig-full.json", b)
}

func TestActiveRulesGolden(t *testing.T) {
	t.Parallel()
	g := parseFull(t)
	// The reference's harness ran with network defaults that let Helicon be scheduled; on our
	// networks its default is unscheduled, which an override cannot move earlier (§4.4).
	g.Config.HeliconTimestamp = ptr(uint64(1900000000))
	b, err := json.Marshal(g.Config.ActiveRulesAt(1900000000))
	require.NoError(t, err)
	// l1-evm.md §6's verified output, with avalancheRules named networkRules.
	want := `{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,"IsByzantium":true,` +
		`"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,"IsBerlin":true,"IsLondon":true,"IsMerge":true,` +
		`"IsShanghai":true,"IsCancun":true,"IsPrague":false,"IsVerkle":false},` +
		`"networkRules":{"IsSubnetEVM":true,"IsDurango":true,"IsEtna":true,"IsFortuna":false,"IsGranite":true,"IsHelicon":true},` +
		`"precompiles":{"contractDeployerAllowListConfig":{"timestamp":0},"contractNativeMinterConfig":{"timestamp":0},` +
		`"feeManagerConfig":{"timestamp":1800000100},"rewardManagerConfig":{"timestamp":0},"txAllowListConfig":{"timestamp":0},` +
		`"warpConfig":{"timestamp":0}}}`
	require.Equal(t, want, string(b))

	// While the fee manager is disabled it is absent.
	r := g.Config.ActiveRulesAt(1800000050)
	require.NotContains(t, r.Precompiles, FeeManagerKey)
	require.Len(t, r.Precompiles, 5)
	require.False(t, r.NetworkRules.IsHelicon)
}

func TestChainConfigRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  func(t *testing.T) *ChainConfig
	}{
		{"full", func(t *testing.T) *ChainConfig { return parseFull(t).Config }},
		{"minimal", func(t *testing.T) *ChainConfig {
			g, err := ParseGenesis([]byte(minimalGenesis), nil, FujiID)
			require.NoError(t, err)
			return g.Config
		}},
		{"extras", func(t *testing.T) *ChainConfig {
			g, err := ParseGenesis([]byte(`{"config":{"chainId":7,"allowFeeRecipients":true,"initialMinDelayMS":1500,"fortunaTimestamp":1750000000,"eip150Hash":"0x0101010101010101010101010101010101010101010101010101010101010101"},"alloc":{},"gasLimit":8000000,"difficulty":"0"}`), nil, MainnetID)
			require.NoError(t, err)
			return g.Config
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.cfg(t)
			b, err := json.Marshal(c)
			require.NoError(t, err)
			var back ChainConfig
			require.NoError(t, json.Unmarshal(b, &back))
			b2, err := json.Marshal(&back)
			require.NoError(t, err)
			require.Equal(t, string(b), string(b2))
			require.NoError(t, CheckCompatible(c, &back, 1<<62))
		})
	}
}

func TestChainConfigExtrasJSON(t *testing.T) {
	t.Parallel()
	g, err := ParseGenesis([]byte(`{"config":{"chainId":7,"allowFeeRecipients":true,"initialMinDelayMS":1500,"durangoTimestamp":1800000000,"etnaTimestamp":253399622400,"graniteTimestamp":253399622400},"alloc":{},"gasLimit":8000000,"difficulty":"0"}`), nil, MainnetID)
	require.NoError(t, err)
	b, err := json.Marshal(g.Config)
	require.NoError(t, err)
	s := string(b)
	require.Contains(t, s, `"allowFeeRecipients":true,`)
	require.Contains(t, s, `"initialMinDelayMS":1500,`)
	require.NotContains(t, s, `fortunaTimestamp`)
	require.Contains(t, s, `"shanghaiTime":1800000000,`)
	require.NotContains(t, s, `cancunTime`, "Etna unscheduled: no Cancun")
	require.Nil(t, g.Eth.Config.CancunTime)
	require.Equal(t, uint64(1800000000), *g.Eth.Config.ShanghaiTime)
	r := g.Config.ActiveRulesAt(1800000000)
	require.True(t, r.EthRules.IsShanghai)
	require.False(t, r.EthRules.IsCancun)
	require.False(t, g.Config.ActiveRulesAt(1799999999).EthRules.IsShanghai)
}

func TestParseGenesisDefaults(t *testing.T) {
	t.Parallel()
	// No config: the default chain config (§4.1), then the network's defaults fill nothing.
	g, err := ParseGenesis([]byte(`{"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), nil, localNetworkID)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultChainID), g.Config.ChainID.Int64())
	require.True(t, g.Config.FeeConfig.Equal(ptr(DefaultFeeConfig())))
	require.Equal(t, uint64(1709740800), *g.Config.DurangoTimestamp)

	// Config without timestamps on a local network: the local defaults.
	g, err = ParseGenesis([]byte(`{"config":{"chainId":5,"durangoTimestamp":0},"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), nil, localNetworkID)
	require.NoError(t, err)
	require.Equal(t, InitiallyActive, *g.Config.DurangoTimestamp, "0 means default")
	require.Equal(t, UnscheduledActivation, *g.Config.HeliconTimestamp)

	// Without chainId the key prints null, as in the reference (§4.2).
	g, err = ParseGenesis([]byte(`{"config":{},"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), nil, FujiID)
	require.NoError(t, err)
	b, err := json.Marshal(g.Config)
	require.NoError(t, err)
	require.Contains(t, string(b), `"chainId":null,`)
	require.Equal(t, int64(0), g.Eth.Config.ChainID.Int64())
}

func TestParseGenesisErrors(t *testing.T) {
	t.Parallel()
	gen := func(config string) string {
		return `{"config":` + config + `,"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`
	}
	fee := `"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}`
	tests := []struct {
		name      string
		genesis   string
		upgrade   string
		networkID uint32
		wantErr   error
		want      string // the whole text, or a prefix when it ends in "…"
	}{
		{"not json", `{`, "", localNetworkID, nil, "parse genesis: unexpected end of JSON input"},
		{"no alloc", `{"gasLimit":8000000,"difficulty":"0x0"}`, "", localNetworkID, nil, "parse genesis: missing required field 'alloc' for Genesis"},
		{"no difficulty", `{"alloc":{},"gasLimit":8000000}`, "", localNetworkID, nil, "parse genesis: missing required field 'difficulty' for Genesis"},
		{"no gasLimit", `{"alloc":{},"difficulty":"0x0"}`, "", localNetworkID, nil, "parse genesis: missing required field 'gasLimit' for Genesis"},
		{"alloc without balance", `{"alloc":{"0x01":{}},"gasLimit":8000000,"difficulty":"0x0"}`, "", localNetworkID, nil, "parse genesis: missing required field 'balance' for Account"},
		{"bad config", gen(`{"chainId":"x"}`), "", localNetworkID, nil, "parse genesis config: …"},
		{"gas limit mismatch", `{"config":{"chainId":1},"alloc":{},"gasLimit":"0x1","difficulty":"0x0"}`, "", localNetworkID, ErrGasLimitMismatch,
			"gas limit in fee config (8000000) does not match gas limit in header (1)"},
		{"partial fee config", gen(`{"chainId":1,"feeConfig":{"gasLimit":8000000}}`), "", localNetworkID, ErrMinBaseFeeNil,
			"invalid fee config: minBaseFee cannot be nil"},
		{"fee range", gen(`{"chainId":1,"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":1,"targetGas":0,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1,"blockGasCostStep":1}}`), "", localNetworkID, ErrTargetGasTooLow,
			"invalid fee config: targetGas cannot be less than or equal to 0: targetGas = 0"},
		{"warp before Durango", gen(`{"chainId":1,"warpConfig":{"blockTimestamp":0}}`), "", localNetworkID, ErrWarpBeforeDurango,
			"invalid precompile upgrades: warp cannot be activated before Durango"},
		{"managers before Durango", gen(`{"chainId":1,"txAllowListConfig":{"blockTimestamp":0,"managerAddresses":["0x1000000000000000000000000000000000000001"]}}`), "", localNetworkID, ErrCannotAddManagersBeforeDurango,
			"invalid precompile upgrades: cannot add managers before Durango"},
		{"managers after Durango override", gen(`{"chainId":1,"txAllowListConfig":{"blockTimestamp":0,"managerAddresses":["0x1000000000000000000000000000000000000001"]}}`), `{"networkUpgradeOverrides":{"durangoTimestamp":0}}`, localNetworkID, nil, ""},
		{"durango early on mainnet", gen(`{"chainId":1,"durangoTimestamp":5}`), "", MainnetID, ErrTimestampTooEarly,
			"invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 5, default timestamp 1709740800"},
		{"override 0 on mainnet", gen(`{"chainId":1}`), `{"networkUpgradeOverrides":{"graniteTimestamp":0}}`, MainnetID, ErrTimestampTooEarly,
			"invalid network upgrades: granite fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 0, default timestamp 1763568000"},
		{"fork order", gen(`{"chainId":1,"etnaTimestamp":1700000000}`), "", localNetworkID, ErrUnsupportedForkOrdering,
			"unsupported fork ordering: etnaTimestamp enabled at timestamp 1700000000, but graniteTimestamp enabled at timestamp 1607144400"},
		{"initialMinDelayMS", gen(`{"chainId":1,"initialMinDelayMS":2001}`), "", localNetworkID, ErrInitialMinDelayTooLarge,
			"initialMinDelayMS too large: 2001 exceeds 2000"},
		{"initialMinDelayMS max", gen(`{"chainId":1,"initialMinDelayMS":2000}`), "", localNetworkID, nil, ""},
		{"upgrade not json", gen(`{"chainId":1}`), `[`, localNetworkID, nil, "parse upgrade config: unexpected end of JSON input"},
		{"upgrade empty entry", gen(`{"chainId":1}`), `{"precompileUpgrades":[{}]}`, localNetworkID, ErrPrecompileUpgradeEmpty,
			"parse upgrade config: PrecompileUpgrade cannot be empty"},
		{"upgrade two keys", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"warpConfig":{},"feeManagerConfig":{}}]}`, localNetworkID, ErrPrecompileUpgradeKeys,
			"parse upgrade config: PrecompileUpgrade must have exactly one key, got 2"},
		{"upgrade unknown key", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"fooConfig":{}}]}`, localNetworkID, ErrUnknownPrecompileConfig,
			"parse upgrade config: unknown precompile config: fooConfig"},
		{"upgrade nil timestamp", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"feeManagerConfig":{}}]}`, localNetworkID, ErrPrecompileUpgradeNilTimestamp,
			"invalid precompile upgrades: precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (feeManagerConfig) at [0]"},
		{"upgrade disable first", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000000,"disable":true}}]}`, localNetworkID, ErrPrecompileUpgradeInvalidDisable,
			"invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [0], disable should be false"},
		{"upgrade enable twice", gen(`{"chainId":1,"feeManagerConfig":{"blockTimestamp":0}}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000000}}]}`, localNetworkID, ErrPrecompileUpgradeInvalidDisable,
			"invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [0], disable should be true"},
		{"upgrade decreasing", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000000}},{"txAllowListConfig":{"blockTimestamp":1700000000}}]}`, localNetworkID, ErrPrecompileUpgradeTimestampNotMonotonic,
			"invalid precompile upgrades: precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (txAllowListConfig) at [1] has timestamp 1700000000, previous timestamp 1800000000"},
		{"upgrade same key same time", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000000}},{"feeManagerConfig":{"blockTimestamp":1800000000,"disable":true}}]}`, localNetworkID, ErrPrecompileUpgradeSameKeyTimestampNotStrictly,
			"invalid precompile upgrades: precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (feeManagerConfig) at [1] has timestamp 1800000000, previous timestamp of same key 1800000000"},
		{"upgrade same time other keys", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1800000000}},{"txAllowListConfig":{"blockTimestamp":1800000000}}]}`, localNetworkID, nil, ""},
		{"upgrade config invalid", gen(`{"chainId":1}`), `{"precompileUpgrades":[{"warpConfig":{"blockTimestamp":1800000000,"quorumNumerator":5}}]}`, localNetworkID, ErrInvalidQuorumRatio,
			"invalid precompile upgrades: invalid warp quorum ratio: cannot specify quorum numerator (5) < min quorum numerator (33)"},
		{"genesis disabled then enabled", gen(`{"chainId":1,"feeManagerConfig":{"blockTimestamp":5}}`), `{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":3,"disable":true}}]}`, localNetworkID, ErrPrecompileUpgradeSameKeyTimestampNotStrictly,
			"invalid precompile upgrades: precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (feeManagerConfig) at [0] has timestamp 3, previous timestamp of same key 5"},
		{"state nil timestamp", gen(`{"chainId":1}`), `{"stateUpgrades":[{"accounts":{}}]}`, localNetworkID, ErrStateUpgradeNilTimestamp,
			"invalid state upgrades: state upgrade config block timestamp cannot be nil: StateUpgrade[0]"},
		{"state zero timestamp", gen(`{"chainId":1}`), `{"stateUpgrades":[{"blockTimestamp":0,"accounts":{}}]}`, localNetworkID, ErrStateUpgradeTimestampZero,
			"invalid state upgrades: state upgrade config block timestamp must be greater than 0: StateUpgrade[0] has timestamp 0"},
		{"state not increasing", gen(`{"chainId":1}`), `{"stateUpgrades":[{"blockTimestamp":5,"accounts":{}},{"blockTimestamp":5,"accounts":{}}]}`, localNetworkID, ErrStateUpgradeTimestampNotMonotonic,
			"invalid state upgrades: state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[1] has timestamp 5, previous timestamp 5"},
		{"fee first", gen(`{"chainId":1,"feeConfig":{"gasLimit":8000000},"warpConfig":{"blockTimestamp":0}}`), "", localNetworkID, ErrInvalidFeeConfig,
			"invalid fee config: minBaseFee cannot be nil"},
		{"valid with fee", gen(`{"chainId":1,` + fee + `}`), "", localNetworkID, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var up []byte
			if tt.upgrade != "" {
				up = []byte(tt.upgrade)
			}
			_, err := ParseGenesis([]byte(tt.genesis), up, tt.networkID)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			if prefix, ok := strings.CutSuffix(tt.want, "…"); ok {
				require.True(t, strings.HasPrefix(err.Error(), prefix), err.Error())
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestGenesisGasLimitHugeFeeConfig(t *testing.T) {
	t.Parallel()
	// A fee config gas limit beyond uint64 is reported, not truncated.
	g := &Genesis{Config: DefaultChainConfig(), Eth: &core.Genesis{}}
	g.Config.FeeConfig.GasLimit = new(big.Int).Lsh(big.NewInt(1), 64)
	err := g.Verify(MainnetID)
	require.EqualError(t, err, "gas limit in fee config (18446744073709551616) does not match gas limit in header (0)")
}
