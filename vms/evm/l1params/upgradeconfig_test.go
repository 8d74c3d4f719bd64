package l1params

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseUpgradeConfig(t *testing.T) {
	t.Parallel()
	u, err := ParseUpgradeConfig(nil)
	require.NoError(t, err)
	require.True(t, u.IsEmpty())
	b, err := json.Marshal(u)
	require.NoError(t, err)
	require.Equal(t, `{}`, string(b))

	u, err = ParseUpgradeConfig(readTestdata(t, "upgrade.json"))
	require.NoError(t, err)
	require.False(t, u.IsEmpty())
	require.Len(t, u.PrecompileUpgrades, 2)
	require.True(t, u.PrecompileUpgrades[0].Config.IsDisabled())
	require.Equal(t, FeeManagerKey, u.PrecompileUpgrades[1].Config.Key())

	// Round trip: encode, decode, encode gives the same bytes.
	b, err = json.Marshal(u)
	require.NoError(t, err)
	u2, err := ParseUpgradeConfig(b)
	require.NoError(t, err)
	b2, err := json.Marshal(u2)
	require.NoError(t, err)
	require.Equal(t, string(b), string(b2))
	for i := range u.PrecompileUpgrades {
		require.True(t, u.PrecompileUpgrades[i].Config.Equal(u2.PrecompileUpgrades[i].Config))
	}
	for i := range u.StateUpgrades {
		require.True(t, u.StateUpgrades[i].Equal(&u2.StateUpgrades[i]))
	}
}

func TestPrecompileUpgradeJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr error
		want    string
	}{
		{"disable", `{"feeManagerConfig":{"blockTimestamp":5,"disable":true}}`, nil, `{"feeManagerConfig":{"blockTimestamp":5,"disable":true}}`},
		{"warp", `{"warpConfig":{"blockTimestamp":5}}`, nil, `{"warpConfig":{"blockTimestamp":5,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}}`},
		{"empty", `{}`, ErrPrecompileUpgradeEmpty, "PrecompileUpgrade cannot be empty"},
		{"two keys", `{"warpConfig":{},"txAllowListConfig":{}}`, ErrPrecompileUpgradeKeys, "PrecompileUpgrade must have exactly one key, got 2"},
		{"unknown", `{"gasPriceManagerConfig":{}}`, ErrUnknownPrecompileConfig, "unknown precompile config: gasPriceManagerConfig"},
		{"not an object", `[]`, nil, "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var u PrecompileUpgrade
			err := json.Unmarshal([]byte(tt.in), &u)
			if tt.wantErr == nil && u.Config != nil {
				require.NoError(t, err)
				b, err := json.Marshal(u)
				require.NoError(t, err)
				require.Equal(t, tt.want, string(b))
				return
			}
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			require.EqualError(t, err, tt.want)
		})
	}
	_, err := json.Marshal(PrecompileUpgrade{})
	require.ErrorIs(t, err, ErrPrecompileUpgradeEmpty)
}

func TestStateUpgradeEqual(t *testing.T) {
	t.Parallel()
	parse := func(s string) StateUpgrade {
		var u StateUpgrade
		require.NoError(t, json.Unmarshal([]byte(s), &u))
		return u
	}
	a := parse(`{"blockTimestamp":5,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"},"balanceChange":"0x10"}}}`)
	require.True(t, a.Equal(ptr(parse(`{"blockTimestamp":5,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"},"balanceChange":"16"}}}`))))
	require.False(t, a.Equal(ptr(parse(`{"blockTimestamp":6,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"},"balanceChange":"0x10"}}}`))))
	require.False(t, a.Equal(ptr(parse(`{"blockTimestamp":5,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x61","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"},"balanceChange":"0x10"}}}`))))
	require.False(t, a.Equal(ptr(parse(`{"blockTimestamp":5,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000003"},"balanceChange":"0x10"}}}`))))
	require.False(t, a.Equal(ptr(parse(`{"blockTimestamp":5,"accounts":{"0x0100000000000000000000000000000000000001":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"}}}}`))))
	require.False(t, a.Equal(ptr(parse(`{"blockTimestamp":5,"accounts":{"0x0200000000000000000000000000000000000002":{"code":"0x60","storage":{"0x0000000000000000000000000000000000000000000000000000000000000001":"0x0000000000000000000000000000000000000000000000000000000000000002"},"balanceChange":"0x10"}}}`))))
	require.False(t, a.Equal(nil))
}
