package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

var proxy = common.HexToAddress("0x000000000000000000000000000000000000c0de")

// TestFrames checks what a precompile learns about its frame through contracts.
func TestFrames(t *testing.T) {
	t.Parallel()
	minter := l1params.NativeMinterAddress
	mint := func(t *testing.T) []byte { return pack(t, NativeMinterABI(), "mintNativeCoin", other, common.Big1) }
	tests := []struct {
		name       string
		op         vm.OpCode
		rules      Rules
		time       uint64
		proxyRole  Role
		innerErr   string // the precompile frame's error ("" for success)
		minted     bool
		invalid    bool
		innerTaken bool // the precompile frame consumed all its gas
	}{
		{name: "call: caller is the contract, allowed", op: vm.CALL, rules: Rules{IsDurango: true}, proxyRole: RoleEnabled, minted: true},
		{name: "call: caller is the contract, denied", op: vm.CALL, rules: Rules{IsDurango: true}, innerErr: "non-enabled cannot mint: " + proxy.Hex(), innerTaken: true},
		{name: "staticcall: write protection", op: vm.STATICCALL, rules: Rules{IsDurango: true}, proxyRole: RoleAdmin, innerErr: "write protection", innerTaken: true},
		{name: "delegatecall from granite: revert, no gas left", op: vm.DELEGATECALL, rules: Rules{IsDurango: true, IsGranite: true}, proxyRole: RoleAdmin, innerErr: "execution reverted", innerTaken: true},
		{name: "callcode from granite: revert, no gas left", op: vm.CALLCODE, rules: Rules{IsDurango: true, IsGranite: true}, proxyRole: RoleAdmin, innerErr: "execution reverted", innerTaken: true},
		{name: "delegatecall before granite: invalid", op: vm.DELEGATECALL, rules: Rules{IsDurango: true}, proxyRole: RoleAdmin, innerErr: ErrDelegateCallInvalidated.Error(), invalid: true, innerTaken: true},
		{name: "delegatecall before 2025-08-02: semantic caller", op: vm.DELEGATECALL, rules: Rules{IsDurango: true}, time: 1_700_000_000, minted: true},
		{name: "callcode before 2025-08-02: caller is the contract", op: vm.CALLCODE, rules: Rules{IsDurango: true}, time: 1_700_000_000, proxyRole: RoleEnabled, minted: true},
		{name: "callcode before 2025-08-02: contract denied", op: vm.CALLCODE, rules: Rules{IsDurango: true}, time: 1_700_000_000, innerErr: "non-enabled cannot mint: " + proxy.Hex(), innerTaken: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, allConfigs()[1])
			var rec exitRecorder
			h.user = rec.hooks()
			if tt.time != 0 {
				h.time = tt.time
			}
			h.reset()
			h.deploy(proxy, proxyCode(tt.op, minter))
			SetRole(h.state, minter, proxy, tt.proxyRole)
			before := h.state.GetBalance(other).Uint64()
			// The EOA caller is enabled: only the DELEGATECALL case before 2025-08-02
			// lets the precompile see it.
			_, _, err := h.call(enabled, proxy, mint(t), 200_000)
			require.Equal(t, tt.invalid, h.rt.Invalidated())
			if tt.innerErr == "" {
				require.NoError(t, err)
				require.NoError(t, rec.errs[1])
			} else {
				require.ErrorIs(t, err, vm.ErrExecutionReverted)
				require.EqualError(t, rec.errs[1], tt.innerErr)
			}
			if tt.minted {
				require.Equal(t, before+1, h.state.GetBalance(other).Uint64())
			} else {
				require.Equal(t, before, h.state.GetBalance(other).Uint64())
			}
			if tt.innerTaken {
				// The frame got all but 1/64 of what was left; all of it is gone.
				require.Greater(t, rec.used[1], uint64(150_000))
			}
		})
	}
}

// TestColdAccess checks that stateful precompile addresses are not pre-warmed: a
// contract's first CALL pays 2,600 and a second one 100.
func TestColdAccess(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[0])
	read := pack(t, AllowListABI(), "readAllowList", admin)
	h.deploy(proxy, proxyCode(vm.STATICCALL, l1params.DeployerAllowListAddress))
	res := h.apply(nobody, &proxy, read, 100_000)
	require.NoError(t, res.Err)
	require.Equal(t, word(2), res.ReturnData)

	// Same transaction with the precompile in the access list: 2,500 cheaper, minus the
	// list's own 2,400.
	h2 := newHarness(t, Rules{IsDurango: true}, allConfigs()[0])
	h2.deploy(proxy, proxyCode(vm.STATICCALL, l1params.DeployerAllowListAddress))
	msgWarm := h2.applyWithAccessList(nobody, &proxy, read, 100_000, l1params.DeployerAllowListAddress)
	require.NoError(t, msgWarm.Err)
	require.Equal(t, res.UsedGas-2_500+2_400, msgWarm.UsedGas)
}

// TestHooksChained checks that the user's tracer sees every frame and that an EVM without
// active precompiles is left as it is.
func TestHooksChained(t *testing.T) {
	t.Parallel()
	var enters, exits int
	user := &tracing.Hooks{
		OnEnter: func(int, byte, common.Address, common.Address, []byte, uint64, *big.Int) { enters++ },
		OnExit:  func(int, []byte, uint64, error, bool) { exits++ },
	}
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[1])
	h.user = user
	h.reset()
	h.deploy(proxy, proxyCode(vm.CALL, l1params.NativeMinterAddress))
	_, _, err := h.call(admin, proxy, pack(t, AllowListABI(), "readAllowList", admin), 100_000)
	require.NoError(t, err)
	require.Equal(t, 2, enters)
	require.Equal(t, 2, exits)

	empty := New(Env{})
	require.False(t, empty.Enabled())
	require.Same(t, user, empty.Hooks(user))
	require.Nil(t, empty.Hooks(nil))
	require.Same(t, h.state, empty.WrapState(h.state))
}

// TestNoFrame checks that a precompile refuses to run without the frame tracker.
func TestNoFrame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[1])
	evm := vm.NewEVM(h.evm.Context, h.state, testChainConfig(), vm.Config{})
	h.rt.Install(evm, nil)
	evm.SetTxContext(vm.TxContext{Origin: admin})
	_, left, err := evm.Call(admin, l1params.NativeMinterAddress, pack(t, AllowListABI(), "readAllowList", admin), vm.NewGasBudget(50_000, 0), new(uint256.Int))
	require.ErrorIs(t, err, errNoFrame)
	require.Zero(t, left.ExecutionGas)
}

// TestInstall checks the installed set: standard precompiles, P256 from Granite, the
// active stateful ones only.
func TestInstall(t *testing.T) {
	t.Parallel()
	p256 := common.BytesToAddress([]byte{1, 0})
	for _, granite := range []bool{false, true} {
		h := newHarness(t, Rules{IsDurango: true, IsGranite: granite}, allConfigs()[1])
		_, _, err := h.call(admin, p256, make([]byte, 160), 10_000)
		if granite {
			require.NoError(t, err) // an invalid signature is an empty output
		}
		require.True(t, h.rt.IsActive(l1params.NativeMinterAddress))
		require.False(t, h.rt.IsActive(l1params.FeeManagerAddress))
		_, _, err = h.call(admin, l1params.FeeManagerAddress, pack(t, FeeManagerABI(), "getFeeConfig"), 100_000)
		require.NoError(t, err) // a plain account: no code, nothing runs
	}
	// A disabling config is not active.
	zero := uint64(0)
	rt := New(Env{Active: []l1params.PrecompileConfig{&l1params.TxAllowListConfig{Upgrade: l1params.Upgrade{BlockTimestamp: &zero, Disable: true}}, nil}})
	require.False(t, rt.Enabled())
}
