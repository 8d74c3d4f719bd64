package l1params

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"
)

func TestCheckCompatible(t *testing.T) {
	t.Parallel()
	genesis := readTestdata(t, "genesis.json")
	parse := func(t *testing.T, upgrade string) *ChainConfig {
		t.Helper()
		g, err := ParseGenesis(genesis, []byte(upgrade), localNetworkID)
		require.NoError(t, err)
		return g.Config
	}
	const (
		disable  = `{"feeManagerConfig":{"blockTimestamp":1800000000,"disable":true}}`
		reenable = `{"feeManagerConfig":{"blockTimestamp":1800000100}}`
		state    = `{"blockTimestamp":1800000050,"accounts":{"0x0Fa8EA536Be85F32724D57A37758761B86416123":{"balanceChange":"0x64"}}}`
		durango0 = `"networkUpgradeOverrides":{"durangoTimestamp":0}`
	)
	base := `{` + durango0 + `,"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,` + reenable + `]}`
	tests := []struct {
		name string
		next string
		head uint64
		want string
	}{
		{"same", base, 1900000000, ""},
		{"future change allowed", `{` + durango0 + `,"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,{"feeManagerConfig":{"blockTimestamp":1800000200}}]}`, 1800000099, ""},
		{"missing", `{` + durango0 + `,"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `]}`, 1800000100, "missing PrecompileUpgrade[2]"},
		{"changed", `{` + durango0 + `,"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,{"feeManagerConfig":{"blockTimestamp":1800000100,"adminAddresses":["0x1000000000000000000000000000000000000001"]}}]}`, 1800000100, "PrecompileUpgrade[2]"},
		{"retroactive", `{` + durango0 + `,"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,` + reenable + `,{"txAllowListConfig":{"blockTimestamp":1800000200,"disable":true}}]}`, 1800000300, "cannot retroactively enable PrecompileUpgrade[1]"},
		{"state missing", `{` + durango0 + `,"precompileUpgrades":[` + disable + `,` + reenable + `]}`, 1800000050, "missing StateUpgrade[0]"},
		{"state retroactive", base[:len(base)-1] + `}`, 1800000049, ""},
		{"network moved", `{"networkUpgradeOverrides":{"durangoTimestamp":0,"graniteTimestamp":1700000000},"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,` + reenable + `]}`, 1650000000, "Granite fork block timestamp"},
		{"network moved in the future", `{"networkUpgradeOverrides":{"durangoTimestamp":0,"heliconTimestamp":253399622401},"stateUpgrades":[` + state + `],"precompileUpgrades":[` + disable + `,` + reenable + `]}`, 1900000000, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckCompatible(parse(t, base), parse(t, tt.next), tt.head)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			compat, ok := errors.AsType[*params.ConfigCompatError](err)
			require.True(t, ok, "%v", err)
			require.Equal(t, tt.want, compat.What)
		})
	}

	// The reverse of "state missing": a state upgrade added after its time.
	err := CheckCompatible(parse(t, `{`+durango0+`,"precompileUpgrades":[`+disable+`,`+reenable+`]}`), parse(t, base), 1800000050)
	require.ErrorAs(t, err, new(*params.ConfigCompatError))
	require.Contains(t, err.Error(), "cannot retroactively enable StateUpgrade[0]")
}
