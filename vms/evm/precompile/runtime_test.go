package precompile

import (
	"math/big"
	"slices"
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

// p256Probe is runtime code that CALLs P256VERIFY's address with no gas and returns the
// gas the CALL cost plus 19 (the pushes around it): 119 when the address is warm, 2619
// when it is cold.
var p256Probe = []byte{
	byte(vm.GAS),
	byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.PUSH0),
	byte(vm.PUSH2), 0x01, 0x00, byte(vm.PUSH0), byte(vm.CALL), byte(vm.POP),
	byte(vm.GAS), byte(vm.SWAP1), byte(vm.SUB),
	byte(vm.PUSH0), byte(vm.MSTORE), byte(vm.PUSH1), 32, byte(vm.PUSH0), byte(vm.RETURN),
}

// TestP256Warm checks that P256VERIFY is a precompile from Granite only, and warm at a
// transaction's start from then on (l1-evm.md §5.8), with or without stateful precompiles.
func TestP256Warm(t *testing.T) {
	t.Parallel()
	cancun := slices.Clone(vm.PrecompiledAddressesCancun)
	tests := []struct {
		name       string
		rules      Rules
		cfgs       []l1params.PrecompileConfig
		accessList bool
		wantCost   uint64 // the probe's answer
		wantRun    uint64 // gas a direct call with a 160-byte input uses
	}{
		{name: "granite, no stateful precompile: warm", rules: Rules{IsDurango: true, IsGranite: true}, wantCost: 119, wantRun: 6900},
		{name: "granite, deployer allow list: warm", rules: Rules{IsDurango: true, IsGranite: true}, cfgs: allConfigs()[:1], wantCost: 119, wantRun: 6900},
		{name: "granite, in the access list too: warm", rules: Rules{IsDurango: true, IsGranite: true}, accessList: true, wantCost: 119, wantRun: 6900},
		{name: "before granite: cold, no precompile", rules: Rules{IsDurango: true}, wantCost: 2619, wantRun: 0},
		{name: "before granite, deployer allow list: cold, no precompile", rules: Rules{IsDurango: true}, cfgs: allConfigs()[:1], wantCost: 2619, wantRun: 0},
	}
	probe := common.HexToAddress("0x000000000000000000000000000000000000b0b0")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, tt.cfgs...)
			h.deploy(probe, p256Probe)
			var list []common.Address
			if tt.accessList {
				list = append(list, P256VerifyAddress)
			}
			res := h.applyWithAccessList(admin, &probe, nil, 100_000, list...)
			require.NoError(t, res.Err)
			require.Equal(t, tt.wantCost, new(big.Int).SetBytes(res.Return()).Uint64())
			_, used, err := h.call(admin, P256VerifyAddress, make([]byte, 160), 10_000)
			require.NoError(t, err)
			require.Equal(t, tt.wantRun, used)
		})
	}
	require.Equal(t, cancun, vm.PrecompiledAddressesCancun, "go-ethereum's table is unchanged")
}

// TestStandardPrecompiles checks the standard set and its warm addresses around Granite.
func TestStandardPrecompiles(t *testing.T) {
	t.Parallel()
	rules := testChainConfig().Rules(big.NewInt(1), true, durangoTime)
	for _, granite := range []bool{false, true} {
		set := StandardPrecompiles(rules, Rules{IsGranite: granite})
		warm := WarmPrecompiles(rules, Rules{IsGranite: granite})
		_, ok := set[P256VerifyAddress]
		require.Equal(t, granite, ok)
		require.Equal(t, granite, slices.Contains(warm, P256VerifyAddress))
		require.Len(t, warm, len(set))
		for _, a := range warm {
			require.Contains(t, set, a)
		}
	}
}
