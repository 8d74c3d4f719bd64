package l1params

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDefaultNetworkUpgrades(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                            string
		networkID                       uint32
		durango, etna, granite, helicon uint64
	}{
		{"mainnet", MainnetID, 1709740800, 1734368400, 1763568000, UnscheduledActivation},
		{"fuji", FujiID, 1707840000, 1732550400, 1761750000, UnscheduledActivation},
		{"local", 12345, InitiallyActive, InitiallyActive, InitiallyActive, UnscheduledActivation},
		{"other", 99, InitiallyActive, InitiallyActive, InitiallyActive, UnscheduledActivation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := DefaultNetworkUpgrades(tt.networkID)
			require.Equal(t, NetworkUpgrades{
				SubnetEVMTimestamp: ptr(uint64(0)),
				DurangoTimestamp:   ptr(tt.durango),
				EtnaTimestamp:      ptr(tt.etna),
				GraniteTimestamp:   ptr(tt.granite),
				HeliconTimestamp:   ptr(tt.helicon),
			}, d)
			require.Nil(t, d.FortunaTimestamp)
			require.NoError(t, d.VerifyWithDefaults(tt.networkID))
			require.NoError(t, d.CheckForkOrder())
		})
	}
	require.Equal(t, uint64(253399622400), UnscheduledActivation)
}

func TestSetDefaultsAndOverride(t *testing.T) {
	t.Parallel()
	n := NetworkUpgrades{
		SubnetEVMTimestamp: ptr(uint64(0)),
		DurangoTimestamp:   ptr(uint64(0)), // 0 means "default" here (§4.3 step 3)
		EtnaTimestamp:      ptr(uint64(1800000000)),
		FortunaTimestamp:   ptr(uint64(1800000001)),
	}
	n.SetDefaults(MainnetID)
	require.Equal(t, uint64(0), *n.SubnetEVMTimestamp)
	require.Equal(t, uint64(1709740800), *n.DurangoTimestamp)
	require.Equal(t, uint64(1800000000), *n.EtnaTimestamp)
	require.Equal(t, uint64(1800000001), *n.FortunaTimestamp)
	require.Equal(t, uint64(1763568000), *n.GraniteTimestamp)
	require.Equal(t, UnscheduledActivation, *n.HeliconTimestamp)

	n.Override(&NetworkUpgrades{GraniteTimestamp: ptr(uint64(1900000000)), DurangoTimestamp: ptr(uint64(0))})
	require.Equal(t, uint64(1900000000), *n.GraniteTimestamp)
	require.Equal(t, uint64(0), *n.DurangoTimestamp, "an override of 0 stays 0")
	n.Override(nil)
	c := n.Copy()
	require.True(t, c.Equal(&n))
	*c.GraniteTimestamp = 1
	require.False(t, c.Equal(&n))
	require.Equal(t, uint64(1900000000), *n.GraniteTimestamp, "copy is deep")
}

func TestNetworkUpgradesIs(t *testing.T) {
	t.Parallel()
	n := NetworkUpgrades{SubnetEVMTimestamp: ptr(uint64(0)), DurangoTimestamp: ptr(uint64(10))}
	require.True(t, n.IsSubnetEVM(0))
	require.False(t, n.IsDurango(9))
	require.True(t, n.IsDurango(10), "inclusive")
	require.False(t, n.IsEtna(1<<62), "nil is never")
	require.False(t, n.IsFortuna(1<<62))
	require.False(t, n.IsGranite(1<<62))
	require.False(t, n.IsHelicon(1<<62))
	require.Equal(t, NetworkRules{IsSubnetEVM: true, IsDurango: true}, n.Rules(10))
}

func TestVerifyWithDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		networkID uint32
		edit      func(n *NetworkUpgrades)
		wantErr   error
		want      string
	}{
		{"defaults", MainnetID, func(*NetworkUpgrades) {}, nil, ""},
		{"later than default", MainnetID, func(n *NetworkUpgrades) { n.GraniteTimestamp = ptr(uint64(1800000000)) }, nil, ""},
		{"earlier than default", MainnetID, func(n *NetworkUpgrades) { n.DurangoTimestamp = ptr(uint64(1709740799)) }, ErrTimestampTooEarly,
			"durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 1709740799, default timestamp 1709740800"},
		{"0 on mainnet", MainnetID, func(n *NetworkUpgrades) { n.EtnaTimestamp = ptr(uint64(0)) }, ErrTimestampTooEarly,
			"etna fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 0, default timestamp 1734368400"},
		{"0 when initially active", 12345, func(n *NetworkUpgrades) { n.GraniteTimestamp = ptr(uint64(0)) }, nil, ""},
		{"nil scheduled", FujiID, func(n *NetworkUpgrades) { n.GraniteTimestamp = nil }, ErrTimestampCannotBeNil,
			"granite fork block timestamp is invalid: timestamp cannot be nil"},
		{"nil subnetEVM", FujiID, func(n *NetworkUpgrades) { n.SubnetEVMTimestamp = nil }, ErrTimestampCannotBeNil,
			"subnetEVM fork block timestamp is invalid: timestamp cannot be nil"},
		{"nil unscheduled", FujiID, func(n *NetworkUpgrades) { n.HeliconTimestamp = nil }, nil, ""},
		{"helicon early", FujiID, func(n *NetworkUpgrades) { n.HeliconTimestamp = ptr(uint64(5)) }, ErrTimestampTooEarly,
			"helicon fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 5, default timestamp 253399622400"},
		{"fortuna has no default", MainnetID, func(n *NetworkUpgrades) { n.FortunaTimestamp = ptr(uint64(1)) }, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := DefaultNetworkUpgrades(tt.networkID)
			tt.edit(&n)
			err := n.VerifyWithDefaults(tt.networkID)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestCheckForkOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(n *NetworkUpgrades)
		want string
	}{
		{"defaults", func(*NetworkUpgrades) {}, ""},
		{"equal", func(n *NetworkUpgrades) { n.EtnaTimestamp = n.DurangoTimestamp }, ""},
		{"fortuna optional", func(n *NetworkUpgrades) { n.FortunaTimestamp = nil }, ""},
		{"fortuna in order", func(n *NetworkUpgrades) { n.FortunaTimestamp = ptr(uint64(1750000000)) }, ""},
		{"fortuna after granite", func(n *NetworkUpgrades) { n.FortunaTimestamp = ptr(uint64(1763568001)) },
			"unsupported fork ordering: fortunaTimestamp enabled at timestamp 1763568001, but graniteTimestamp enabled at timestamp 1763568000"},
		{"etna before durango", func(n *NetworkUpgrades) { n.EtnaTimestamp = ptr(uint64(1)) },
			"unsupported fork ordering: durangoTimestamp enabled at timestamp 1709740800, but etnaTimestamp enabled at timestamp 1"},
		{"gap", func(n *NetworkUpgrades) { n.EtnaTimestamp = nil },
			"unsupported fork ordering: etnaTimestamp not enabled, but graniteTimestamp enabled at timestamp 1763568000"},
		{"trailing nil", func(n *NetworkUpgrades) { n.HeliconTimestamp = nil }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := DefaultNetworkUpgrades(MainnetID)
			tt.edit(&n)
			err := n.CheckForkOrder()
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrUnsupportedForkOrdering)
			require.EqualError(t, err, tt.want)
		})
	}
}
