package l1params

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func FuzzParseGenesis(f *testing.F) {
	f.Add([]byte(minimalGenesis), []byte(nil), uint32(MainnetID))
	genesis, err := readFile("genesis.json")
	require.NoError(f, err)
	upgrade, err := readFile("upgrade.json")
	require.NoError(f, err)
	f.Add(genesis, upgrade, uint32(localNetworkID))
	f.Add(genesis, []byte(`{"precompileUpgrades":[{}]}`), uint32(FujiID))
	f.Add([]byte(`{"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), []byte(`{"networkUpgradeOverrides":{"durangoTimestamp":0}}`), uint32(localNetworkID))
	f.Add([]byte(`{"config":{"chainId":1,"feeConfig":{"gasLimit":8000000}},"alloc":{},"gasLimit":8000000,"difficulty":"0x0"}`), []byte(`{}`), uint32(2))
	f.Add([]byte(`{"config":null,"alloc":null,"gasLimit":"0x0","difficulty":"0x0"}`), []byte(`null`), uint32(0))
	f.Fuzz(func(t *testing.T, genesisJSON, upgradeJSON []byte, networkID uint32) {
		g, err := ParseGenesis(genesisJSON, upgradeJSON, networkID)
		if err != nil {
			return
		}
		// A parsed genesis renders, and its chain config decodes back to the same bytes.
		b, err := json.Marshal(g.Config)
		require.NoError(t, err)
		var back ChainConfig
		require.NoError(t, json.Unmarshal(b, &back))
		b2, err := json.Marshal(&back)
		require.NoError(t, err)
		require.Equal(t, string(b), string(b2))
		require.NoError(t, back.Verify(networkID))
		_, err = json.Marshal(g.Config.ActiveRulesAt(1 << 40))
		require.NoError(t, err)
		_, err = json.Marshal(g.Config.ActivePrecompilesAt(1 << 40))
		require.NoError(t, err)
		_ = g.Config.PrecompileActivations(nil, 1<<40)
		require.NotNil(t, g.Config.EthConfig())
	})
}

func FuzzParseUpgradeConfig(f *testing.F) {
	upgrade, err := readFile("upgrade.json")
	require.NoError(f, err)
	f.Add(upgrade)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"precompileUpgrades":[{"warpConfig":{"blockTimestamp":1},"feeManagerConfig":{}}]}`))
	f.Add([]byte(`{"precompileUpgrades":[{"contractNativeMinterConfig":{"blockTimestamp":1,"initialMint":{"0x0100000000000000000000000000000000000001":"0x10"}}}]}`))
	f.Add([]byte(`{"stateUpgrades":[{"blockTimestamp":1,"accounts":{}}],"networkUpgradeOverrides":{"etnaTimestamp":5}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := ParseUpgradeConfig(b)
		if err != nil {
			return
		}
		// Encoding then decoding is stable.
		out, err := json.Marshal(u)
		if err != nil {
			// Only an entry decoded from JSON null has no config to encode.
			require.ErrorIs(t, err, ErrPrecompileUpgradeEmpty)
			return
		}
		u2, err := ParseUpgradeConfig(out)
		require.NoError(t, err)
		out2, err := json.Marshal(u2)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
	})
}
