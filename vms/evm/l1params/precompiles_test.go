package l1params

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/stretchr/testify/require"
)

var (
	addrA = common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	addrB = common.HexToAddress("0x0Fa8EA536Be85F32724D57A37758761B86416123")
	addrC = common.HexToAddress("0x1000000000000000000000000000000000000001")
)

// durangoAt returns a chain config whose Durango activates at ts.
func durangoAt(ts uint64) *ChainConfig {
	return &ChainConfig{ChainID: big.NewInt(1), FeeConfig: DefaultFeeConfig(), NetworkUpgrades: NetworkUpgrades{
		SubnetEVMTimestamp: ptr(uint64(0)), DurangoTimestamp: ptr(ts),
	}}
}

func TestAllowListVerify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		list    AllowListConfig
		ts      *uint64
		wantErr error
		want    string
	}{
		{"empty", AllowListConfig{}, ptr(uint64(0)), nil, ""},
		{"distinct", AllowListConfig{AdminAddresses: []common.Address{addrA}, EnabledAddresses: []common.Address{addrB}, ManagerAddresses: []common.Address{addrC}}, ptr(uint64(100)), nil, ""},
		{"duplicate enabled", AllowListConfig{EnabledAddresses: []common.Address{addrB, addrB}}, ptr(uint64(0)), ErrDuplicateEnabledAddress,
			"duplicate address in enabled list: 0x0Fa8EA536Be85F32724D57A37758761B86416123"},
		{"duplicate admin", AllowListConfig{AdminAddresses: []common.Address{addrA, addrA}}, ptr(uint64(0)), ErrDuplicateAdminAddress,
			"duplicate address in admin list: 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{"admin and enabled", AllowListConfig{AdminAddresses: []common.Address{addrA}, EnabledAddresses: []common.Address{addrA}}, ptr(uint64(0)), ErrAdminAndEnabledAddress,
			"cannot set address as both admin and enabled: 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{"duplicate manager", AllowListConfig{ManagerAddresses: []common.Address{addrC, addrC}}, ptr(uint64(100)), ErrDuplicateManagerAddress,
			"duplicate address in manager list: 0x1000000000000000000000000000000000000001"},
		{"admin and manager", AllowListConfig{AdminAddresses: []common.Address{addrC}, ManagerAddresses: []common.Address{addrC}}, ptr(uint64(100)), ErrAdminAndManagerAddress,
			"cannot set address as both admin and manager: 0x1000000000000000000000000000000000000001"},
		{"enabled and manager", AllowListConfig{EnabledAddresses: []common.Address{addrC}, ManagerAddresses: []common.Address{addrC}}, ptr(uint64(100)), ErrEnabledAndManagerAddress,
			"cannot set address as both enabled and manager: 0x1000000000000000000000000000000000000001"},
		{"managers before Durango", AllowListConfig{ManagerAddresses: []common.Address{addrC}}, ptr(uint64(99)), ErrCannotAddManagersBeforeDurango,
			"cannot add managers before Durango"},
		{"managers without timestamp", AllowListConfig{ManagerAddresses: []common.Address{addrC}}, nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Every allow-list precompile applies the same checks.
			for _, p := range []PrecompileConfig{
				&DeployerAllowListConfig{AllowListConfig: tt.list, Upgrade: Upgrade{BlockTimestamp: tt.ts}},
				&TxAllowListConfig{AllowListConfig: tt.list, Upgrade: Upgrade{BlockTimestamp: tt.ts}},
				&NativeMinterConfig{AllowListConfig: tt.list, Upgrade: Upgrade{BlockTimestamp: tt.ts}},
				&FeeManagerConfig{AllowListConfig: tt.list, Upgrade: Upgrade{BlockTimestamp: tt.ts}},
				&RewardManagerConfig{AllowListConfig: tt.list, Upgrade: Upgrade{BlockTimestamp: tt.ts}},
			} {
				err := p.Verify(durangoAt(100))
				if tt.wantErr == nil {
					require.NoError(t, err, p.Key())
					continue
				}
				require.ErrorIs(t, err, tt.wantErr, p.Key())
				require.EqualError(t, err, tt.want, p.Key())
			}
		})
	}
}

func TestPrecompileVerify(t *testing.T) {
	t.Parallel()
	badFee := DefaultFeeConfig()
	badFee.TargetGas = big.NewInt(0)
	tests := []struct {
		name    string
		cfg     PrecompileConfig
		wantErr error
		want    string
	}{
		{"mint ok", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(1)}}, nil, ""},
		{"mint nil", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(1), addrB: nil}}, ErrInitialMintNilAmount,
			"initial mint cannot contain nil amount for address 0x0Fa8EA536Be85F32724D57A37758761B86416123"},
		{"mint zero", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(0)}}, ErrInitialMintInvalidAmount,
			"initial mint cannot contain invalid amount: amount 0 for address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{"mint negative", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(-1)}}, ErrInitialMintInvalidAmount,
			"initial mint cannot contain invalid amount: amount -1 for address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{"fee manager initial ok", &FeeManagerConfig{InitialFeeConfig: ptr(DefaultFeeConfig())}, nil, ""},
		{"fee manager initial bad", &FeeManagerConfig{InitialFeeConfig: &badFee}, ErrTargetGasTooLow,
			"targetGas cannot be less than or equal to 0: targetGas = 0"},
		{"reward both", &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{AllowFeeRecipients: true, RewardAddress: addrA}}, ErrCannotEnableBothRewards,
			"cannot enable both fee recipients and reward address at the same time"},
		{"reward one", &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{RewardAddress: addrA}}, nil, ""},
		{"warp ok", &WarpConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(100))}, QuorumNumerator: 67}, nil, ""},
		{"warp default quorum", &WarpConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(100))}}, nil, ""},
		{"warp quorum 33", &WarpConfig{QuorumNumerator: 33}, nil, ""},
		{"warp quorum 100", &WarpConfig{QuorumNumerator: 100}, nil, ""},
		{"warp before Durango", &WarpConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(99))}}, ErrWarpBeforeDurango, "warp cannot be activated before Durango"},
		{"warp quorum low", &WarpConfig{QuorumNumerator: 32}, ErrInvalidQuorumRatio,
			"invalid warp quorum ratio: cannot specify quorum numerator (32) < min quorum numerator (33)"},
		{"warp quorum high", &WarpConfig{QuorumNumerator: 101}, ErrInvalidQuorumRatio,
			"invalid warp quorum ratio: cannot specify quorum numerator (101) > quorum denominator (100)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.cfg.Verify(durangoAt(100))
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestPrecompileEqual(t *testing.T) {
	t.Parallel()
	ts := func(v uint64) Upgrade { return Upgrade{BlockTimestamp: ptr(v)} }
	list := AllowListConfig{AdminAddresses: []common.Address{addrA}}
	fee := DefaultFeeConfig()
	tests := []struct {
		name string
		a, b PrecompileConfig
		want bool
	}{
		{"deployer same", &DeployerAllowListConfig{list, ts(1)}, &DeployerAllowListConfig{list, ts(1)}, true},
		{"deployer time", &DeployerAllowListConfig{list, ts(1)}, &DeployerAllowListConfig{list, ts(2)}, false},
		{"deployer list", &DeployerAllowListConfig{list, ts(1)}, &DeployerAllowListConfig{AllowListConfig{}, ts(1)}, false},
		{"kinds differ", &DeployerAllowListConfig{list, ts(1)}, &TxAllowListConfig{list, ts(1)}, false},
		{"nil other", &TxAllowListConfig{list, ts(1)}, nil, false},
		{"disable differs", &TxAllowListConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(1)), Disable: true}}, &TxAllowListConfig{Upgrade: ts(1)}, false},
		{"mint same", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(5)}},
			&NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(5)}}, true},
		{"mint amount", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(5)}},
			&NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(6)}}, false},
		{"mint address", &NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrA: math.NewHexOrDecimal256(5)}},
			&NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{addrB: math.NewHexOrDecimal256(5)}}, false},
		{"fee same", &FeeManagerConfig{InitialFeeConfig: &fee}, &FeeManagerConfig{InitialFeeConfig: ptr(DefaultFeeConfig())}, true},
		{"fee one nil", &FeeManagerConfig{InitialFeeConfig: &fee}, &FeeManagerConfig{}, false},
		{"fee both nil", &FeeManagerConfig{}, &FeeManagerConfig{}, true},
		{"reward same", &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{RewardAddress: addrA}}, &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{RewardAddress: addrA}}, true},
		{"reward differs", &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{RewardAddress: addrA}}, &RewardManagerConfig{InitialRewardConfig: &InitialRewardConfig{AllowFeeRecipients: true}}, false},
		{"warp same", &WarpConfig{Upgrade: ts(1), QuorumNumerator: 67}, &WarpConfig{Upgrade: ts(1), QuorumNumerator: 67}, true},
		{"warp quorum", &WarpConfig{Upgrade: ts(1), QuorumNumerator: 67}, &WarpConfig{Upgrade: ts(1)}, false},
		{"warp signers", &WarpConfig{Upgrade: ts(1)}, &WarpConfig{Upgrade: ts(1), RequirePrimaryNetworkSigners: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.a.Equal(tt.b))
		})
	}
}

func TestModules(t *testing.T) {
	t.Parallel()
	ms := Modules()
	require.Len(t, ms, 6)
	wantKeys := []string{DeployerAllowListKey, NativeMinterKey, TxAllowListKey, FeeManagerKey, RewardManagerKey, WarpKey}
	for i, m := range ms {
		require.Equal(t, wantKeys[i], m.Key)
		require.Equal(t, byte(i), m.Address[19], "address order")
		p, err := m.Decode(json.RawMessage(`{"blockTimestamp":5}`))
		require.NoError(t, err)
		require.Equal(t, m.Key, p.Key())
		require.Equal(t, m.Address, p.Address())
		require.Equal(t, uint64(5), *p.Timestamp())
		require.False(t, p.IsDisabled())
		byKey, ok := ModuleByKey(m.Key)
		require.True(t, ok)
		require.Equal(t, m.Address, byKey.Address)
		byAddr, ok := ModuleByAddress(m.Address)
		require.True(t, ok)
		require.Equal(t, m.Key, byAddr.Key)
	}
	ms[0].Key = "changed"
	require.Equal(t, DeployerAllowListKey, Modules()[0].Key, "the caller's copy")
	_, ok := ModuleByAddress(common.HexToAddress("0x0200000000000000000000000000000000000006"))
	require.False(t, ok, "the gas price manager is not registered")

	_, err := ParsePrecompileConfig("gasPriceManagerConfig", json.RawMessage(`{}`))
	require.ErrorIs(t, err, ErrUnknownPrecompileConfig)
	require.EqualError(t, err, "unknown precompile config: gasPriceManagerConfig")
	_, err = ParsePrecompileConfig(WarpKey, json.RawMessage(`{"quorumNumerator":"x"}`))
	require.Error(t, err)
	p, err := ParsePrecompileConfig(FeeManagerKey, json.RawMessage(`{"blockTimestamp":7,"disable":true}`))
	require.NoError(t, err)
	require.True(t, p.IsDisabled())
}

func TestPrecompileConfigJSON(t *testing.T) {
	t.Parallel()
	// Field order, omitted empties, lower-case addresses, hex mint amounts (l1-evm.md §1.3,
	// §4.6, §5.7).
	tests := []struct {
		name string
		cfg  PrecompileConfig
		want string
	}{
		{"allow list", &TxAllowListConfig{AllowListConfig: AllowListConfig{AdminAddresses: []common.Address{addrA}, EnabledAddresses: []common.Address{addrB}}, Upgrade: Upgrade{BlockTimestamp: ptr(uint64(0))}},
			`{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"enabledAddresses":["0x0fa8ea536be85f32724d57a37758761b86416123"],"blockTimestamp":0}`},
		{"disable", &FeeManagerConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(9)), Disable: true}}, `{"blockTimestamp":9,"disable":true}`},
		{"null timestamp", &DeployerAllowListConfig{}, `{"blockTimestamp":null}`},
		{"mint", &NativeMinterConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(0))}, InitialMint: map[common.Address]*math.HexOrDecimal256{addrB: math.NewHexOrDecimal256(1000)}},
			`{"blockTimestamp":0,"initialMint":{"0x0fa8ea536be85f32724d57a37758761b86416123":"0x3e8"}}`},
		{"reward", &RewardManagerConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(0))}, InitialRewardConfig: &InitialRewardConfig{AllowFeeRecipients: true}},
			`{"blockTimestamp":0,"initialRewardConfig":{"allowFeeRecipients":true,"rewardAddress":"0x0000000000000000000000000000000000000000"}}`},
		{"warp", &WarpConfig{Upgrade: Upgrade{BlockTimestamp: ptr(uint64(0))}, QuorumNumerator: 67},
			`{"blockTimestamp":0,"quorumNumerator":67,"requirePrimaryNetworkSigners":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.cfg)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(b))
			back, err := ParsePrecompileConfig(tt.cfg.Key(), b)
			require.NoError(t, err)
			require.True(t, tt.cfg.Equal(back))
		})
	}
}
