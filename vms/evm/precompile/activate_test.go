package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func newState(t *testing.T) *state.StateDB {
	st, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	require.NoError(t, err)
	return st
}

func TestActivateEnable(t *testing.T) {
	t.Parallel()
	st := newState(t)
	for _, c := range allConfigs() {
		require.NoError(t, Activate(st, c, 0, testFeeConfig(), false))
		require.EqualValues(t, 1, st.GetNonce(c.Address()), c.Key())
		require.Equal(t, []byte{0x01}, st.GetCode(c.Address()), c.Key())
	}
	for _, c := range allConfigs()[:5] {
		require.Equal(t, RoleAdmin, RoleOf(st, c.Address(), admin))
		require.Equal(t, RoleManager, RoleOf(st, c.Address(), manager))
		require.Equal(t, RoleEnabled, RoleOf(st, c.Address(), enabled))
		require.Equal(t, RoleNone, RoleOf(st, c.Address(), nobody))
	}
	addr, allow := RewardAddress(st)
	require.Equal(t, BlackholeAddress, addr)
	require.False(t, allow)
	fc, at, err := StoredFeeConfig(st)
	require.NoError(t, err)
	require.Equal(t, feeBytes(testFeeConfig()), feeBytes(fc))
	require.Zero(t, at.Sign())
}

// TestActivateOrder: an address in two lists ends with the role written last (enabled,
// admin, manager), as the reference's Configure does.
func TestActivateOrder(t *testing.T) {
	t.Parallel()
	st := newState(t)
	cfg := &l1params.TxAllowListConfig{AllowListConfig: l1params.AllowListConfig{
		EnabledAddresses: []common.Address{other}, AdminAddresses: []common.Address{other},
	}}
	require.NoError(t, Activate(st, cfg, 0, testFeeConfig(), false))
	require.Equal(t, RoleAdmin, RoleOf(st, l1params.TxAllowListAddress, other))
}

func TestActivateConfigs(t *testing.T) {
	t.Parallel()
	initial := testFeeConfig()
	initial.TargetGas = big.NewInt(20_000_000)
	rewardTo := common.HexToAddress("0x0000000000000000000000000000000000007777")
	tests := []struct {
		name       string
		cfg        l1params.PrecompileConfig
		genesisFR  bool
		wantReward common.Address
		wantAllow  bool
	}{
		{name: "reward: genesis allowFeeRecipients", cfg: &l1params.RewardManagerConfig{}, genesisFR: true, wantAllow: true},
		{name: "reward: genesis blackhole", cfg: &l1params.RewardManagerConfig{}, wantReward: BlackholeAddress},
		{name: "reward: initial allow", cfg: &l1params.RewardManagerConfig{InitialRewardConfig: &l1params.InitialRewardConfig{AllowFeeRecipients: true}}, wantAllow: true},
		{name: "reward: initial address", cfg: &l1params.RewardManagerConfig{InitialRewardConfig: &l1params.InitialRewardConfig{RewardAddress: rewardTo}}, genesisFR: true, wantReward: rewardTo},
		{name: "reward: initial zero address", cfg: &l1params.RewardManagerConfig{InitialRewardConfig: &l1params.InitialRewardConfig{}}, genesisFR: true, wantReward: BlackholeAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := newState(t)
			require.NoError(t, Activate(st, tt.cfg, 3, testFeeConfig(), tt.genesisFR))
			addr, allow := RewardAddress(st)
			require.Equal(t, tt.wantReward, addr)
			require.Equal(t, tt.wantAllow, allow)
		})
	}

	t.Run("fee manager initial config", func(t *testing.T) {
		t.Parallel()
		st := newState(t)
		require.NoError(t, Activate(st, &l1params.FeeManagerConfig{InitialFeeConfig: &initial}, 12, testFeeConfig(), false))
		fc, at, err := StoredFeeConfig(st)
		require.NoError(t, err)
		require.Equal(t, feeBytes(initial), feeBytes(fc))
		require.EqualValues(t, 12, at.Uint64())
	})
	t.Run("fee manager invalid config", func(t *testing.T) {
		t.Parallel()
		bad := testFeeConfig()
		bad.TargetGas = nil
		err := Activate(newState(t), &l1params.FeeManagerConfig{InitialFeeConfig: &bad}, 12, testFeeConfig(), false)
		require.ErrorIs(t, err, ErrCannotVerifyFeeConfig)
	})
	t.Run("native minter initial mint", func(t *testing.T) {
		t.Parallel()
		st := newState(t)
		cfg := &l1params.NativeMinterConfig{InitialMint: map[common.Address]*math.HexOrDecimal256{other: (*math.HexOrDecimal256)(big.NewInt(500))}}
		require.NoError(t, Activate(st, cfg, 0, testFeeConfig(), false))
		require.EqualValues(t, 500, st.GetBalance(other).Uint64())
		cfg.InitialMint[other] = (*math.HexOrDecimal256)(big.NewInt(0))
		require.Error(t, Activate(st, cfg, 0, testFeeConfig(), false))
	})
	t.Run("unknown config", func(t *testing.T) {
		t.Parallel()
		require.Error(t, Activate(newState(t), nil, 0, testFeeConfig(), false))
	})
}

// TestActivateDisableReenable: a disable wipes the account and its storage, in the same
// block and after a commit; a re-enable starts fresh.
func TestActivateDisableReenable(t *testing.T) {
	t.Parallel()
	for _, commit := range []bool{false, true} {
		st := newState(t)
		enable := &l1params.TxAllowListConfig{AllowListConfig: roles()}
		require.NoError(t, Activate(st, enable, 0, testFeeConfig(), false))
		SetRole(st, l1params.TxAllowListAddress, other, RoleEnabled)
		if commit {
			root, err := st.Commit(params.Rules{IsEIP158: true}, 0)
			require.NoError(t, err)
			st, err = state.New(root, st.Database())
			require.NoError(t, err)
		}
		require.True(t, TxAllowed(st, other))

		disable := &l1params.TxAllowListConfig{Upgrade: l1params.Upgrade{Disable: true}}
		require.NoError(t, Activate(st, disable, 1, testFeeConfig(), false))
		require.False(t, st.Exist(l1params.TxAllowListAddress))
		require.False(t, TxAllowed(st, other))
		require.False(t, TxAllowed(st, admin))

		reenable := &l1params.TxAllowListConfig{AllowListConfig: l1params.AllowListConfig{EnabledAddresses: []common.Address{nobody}}}
		require.NoError(t, Activate(st, reenable, 1, testFeeConfig(), false))
		require.True(t, TxAllowed(st, nobody))
		require.False(t, TxAllowed(st, other), "storage from before the disable is gone")
		require.False(t, TxAllowed(st, admin))
		require.Equal(t, []byte{0x01}, st.GetCode(l1params.TxAllowListAddress))

		root, err := st.Commit(params.Rules{IsEIP158: true}, 1)
		require.NoError(t, err)
		st2, err := state.New(root, st.Database())
		require.NoError(t, err)
		require.True(t, TxAllowed(st2, nobody))
		require.False(t, TxAllowed(st2, other), "after commit too")
	}
}
