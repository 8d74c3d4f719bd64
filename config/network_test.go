package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseNetworkID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint32
		wantErr string
	}{
		{in: "mainnet", want: 1},
		{in: "MainNet", want: 1},
		{in: "cascade", want: 2},
		{in: "denali", want: 3},
		{in: "everest", want: 4},
		{in: "fuji", want: 5},
		{in: "testnet", want: 5},
		{in: "TESTNET", want: 5},
		{in: "testing", want: 10},
		{in: "local", want: 12345},
		{in: "12345", want: 12345},
		{in: "0007", want: 7},
		{in: "99", want: 99},
		{in: "4294967295", want: 4294967295},
		{in: "network-99", want: 99},
		{in: "Network-1", want: 1},
		{in: "network-4294967295", want: 4294967295},
		{in: "", wantErr: `failed to parse network name: ""`},
		{in: "foo", wantErr: `failed to parse network name: "foo"`},
		{in: "Foo", wantErr: `failed to parse network name: "Foo"`},
		{in: "network-", wantErr: `failed to parse network name: "network-"`},
		{in: "network-x", wantErr: `failed to parse network name: "network-x"`},
		{in: "4294967296", wantErr: `failed to parse network name: "4294967296"`},
		{in: "-1", wantErr: `failed to parse network name: "-1"`},
		{in: "+1", wantErr: `failed to parse network name: "+1"`},
		{in: " 1", wantErr: `failed to parse network name: " 1"`},
		{in: "0x10", wantErr: `failed to parse network name: "0x10"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseNetworkID(tt.in)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrParseNetworkName)
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestNetworkName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id   uint32
		want string
	}{
		{1, "mainnet"},
		{2, "cascade"},
		{3, "denali"},
		{4, "everest"},
		{5, "fuji"},
		{10, "testing"},
		{12345, "local"},
		{0, "network-0"},
		{6, "network-6"},
		{4294967295, "network-4294967295"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, NetworkName(tt.id))
		})
	}
}

func TestUptimeRequirementFor(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 0.8, UptimeRequirementFor(MainnetID, 0.5), 0)
	require.InDelta(t, 0.8, UptimeRequirementFor(FujiID, 0.5), 0)
	require.InDelta(t, 0.5, UptimeRequirementFor(LocalID, 0.5), 0)
	require.InDelta(t, 0.9, UptimeRequirementFor(99, 0.9), 0)
}

// FuzzParseNetworkID checks that parsing never panics and that every parsed ID prints as a name
// that parses back to it.
func FuzzParseNetworkID(f *testing.F) {
	for _, s := range []string{"mainnet", "testnet", "local", "12345", "network-7", "network-", "", "4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseNetworkID(s)
		if err != nil {
			require.ErrorIs(t, err, ErrParseNetworkName)
			return
		}
		back, err := ParseNetworkID(NetworkName(id))
		require.NoError(t, err)
		require.Equal(t, id, back)
	})
}

func TestLocalGenesisStake(t *testing.T) {
	t.Parallel()
	// platform-exchange.md §7.4: five stakers of 2e15 nAVAX each.
	require.Equal(t, uint64(5*2_000_000_000_000_000), LocalGenesisStake)
	require.Equal(t, uint64(10_000_000_000_000_000), LocalGenesisStake)
}
