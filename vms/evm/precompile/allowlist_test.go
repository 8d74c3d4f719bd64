package precompile

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func TestRoleCanModify(t *testing.T) {
	t.Parallel()
	all := []Role{RoleNone, RoleEnabled, RoleAdmin, RoleManager}
	for _, caller := range all {
		for _, from := range all {
			for _, to := range all {
				want := caller == RoleAdmin ||
					caller == RoleManager && (from == RoleNone || from == RoleEnabled) && (to == RoleNone || to == RoleEnabled)
				require.Equal(t, want, caller.CanModify(from, to), "%s %s→%s", caller, from, to)
			}
		}
	}
	require.Equal(t, "NoRole", RoleNone.String())
	require.Equal(t, "EnabledRole", RoleEnabled.String())
	require.Equal(t, "AdminRole", RoleAdmin.String())
	require.Equal(t, "ManagerRole", RoleManager.String())
	require.Equal(t, "UnknownRole", Role(9).String())
	require.False(t, RoleNone.IsEnabled())
	require.True(t, RoleManager.IsEnabled())
}

// TestAllowListSetters runs every setter, from every role, on targets with and without a
// role, on every allow-list precompile, through a real EVM.
func TestAllowListSetters(t *testing.T) {
	t.Parallel()
	setters := map[string]Role{"setAdmin": RoleAdmin, "setEnabled": RoleEnabled, "setManager": RoleManager, "setNone": RoleNone}
	callers := map[string]common.Address{"admin": admin, "manager": manager, "enabled": enabled, "none": nobody}
	targets := map[string]common.Address{"none": other, "enabled": enabled, "admin": admin}
	for _, pc := range allConfigs()[:5] {
		addr, _, _ := configInfo(pc)
		for fn, role := range setters {
			for cname, caller := range callers {
				for tname, target := range targets {
					t.Run(pc.Key()+"/"+fn+"/"+cname+"/"+tname, func(t *testing.T) {
						t.Parallel()
						h := newHarness(t, Rules{IsDurango: true}, pc)
						callerRole, current := RoleOf(h.state, addr, caller), RoleOf(h.state, addr, target)
						input := pack(t, AllowListABI(), fn, target)
						ret, used, err := h.call(caller, addr, input, 100_000)
						if !callerRole.CanModify(current, role) {
							require.ErrorIs(t, err, ErrCannotModifyAllowList)
							require.EqualError(t, err, "cannot modify allow list: modify address: "+caller.Hex()+", from role: "+current.String()+", to role: "+role.String())
							require.EqualValues(t, 100_000, used)
							require.Equal(t, current, RoleOf(h.state, addr, target))
							require.Empty(t, h.state.Logs())
							return
						}
						require.NoError(t, err)
						require.Empty(t, ret)
						require.EqualValues(t, 22_131, used)
						require.Equal(t, role, RoleOf(h.state, addr, target))
						logs := h.state.Logs()
						require.Len(t, logs, 1)
						require.Equal(t, addr, logs[0].Address)
						require.Equal(t, []common.Hash{
							AllowListABI().Events["RoleSet"].ID,
							common.BytesToHash(word(uint64(role))),
							common.BytesToHash(target.Bytes()),
							common.BytesToHash(caller.Bytes()),
						}, logs[0].Topics)
						require.Equal(t, word(uint64(current)), logs[0].Data)
						require.EqualValues(t, 7, logs[0].BlockNumber)
					})
				}
			}
		}
	}
}

func TestAllowListReadAndPreDurango(t *testing.T) {
	t.Parallel()
	cfg := allConfigs()[0]
	addr := l1params.DeployerAllowListAddress
	tests := []struct {
		name    string
		rules   Rules
		from    common.Address
		input   []byte
		gas     uint64
		wantErr string
		wantRet []byte
		used    uint64
	}{
		{name: "read admin", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, AllowListABI(), "readAllowList", admin), gas: 10_000, wantRet: word(2), used: 5_000},
		{name: "read manager", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, AllowListABI(), "readAllowList", manager), gas: 10_000, wantRet: word(3), used: 5_000},
		{name: "read padded durango", rules: Rules{IsDurango: true}, from: nobody, input: append(pack(t, AllowListABI(), "readAllowList", enabled), 0, 0, 0), gas: 10_000, wantRet: word(1), used: 5_000},
		{name: "read padded strict", from: nobody, input: append(pack(t, AllowListABI(), "readAllowList", enabled), 0), gas: 10_000, wantErr: "invalid input length for read allow list: 33", used: 10_000},
		{name: "set padded strict", from: admin, input: append(pack(t, AllowListABI(), "setEnabled", other), 0), gas: 30_000, wantErr: "invalid input length for modifying allow list: 33", used: 30_000},
		{name: "set pre-durango no event", from: admin, input: pack(t, AllowListABI(), "setEnabled", other), gas: 30_000, wantRet: []byte{}, used: 20_000},
		{name: "setManager pre-durango", from: admin, input: pack(t, AllowListABI(), "setManager", other), gas: 30_000, wantErr: "invalid non-activated function selector: 0xd0ebdbe7", used: 30_000},
		{name: "empty input", from: admin, input: nil, gas: 30_000, wantErr: "missing function selector to precompile - input length (0)", used: 30_000},
		{name: "short input", from: admin, input: []byte{1, 2, 3}, gas: 30_000, wantErr: "missing function selector to precompile - input length (3)", used: 30_000},
		{name: "unknown selector", from: admin, input: []byte{1, 2, 3, 4, 5}, gas: 30_000, wantErr: "invalid function selector: 0x01020304", used: 30_000},
		{name: "mint selector on deployer list", from: admin, input: pack(t, NativeMinterABI(), "mintNativeCoin", other, common.Big1), gas: 50_000, wantErr: "invalid function selector: 0x4f5aaaba", used: 50_000},
		{name: "out of gas at base", rules: Rules{IsDurango: true}, from: admin, input: pack(t, AllowListABI(), "setEnabled", other), gas: 19_999, wantErr: vm.ErrOutOfGas.Error(), used: 19_999},
		{name: "out of gas at event", rules: Rules{IsDurango: true}, from: admin, input: pack(t, AllowListABI(), "setEnabled", other), gas: 22_130, wantErr: vm.ErrOutOfGas.Error(), used: 22_130},
		{name: "permission before event gas", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, AllowListABI(), "setEnabled", other), gas: 20_001, wantErr: "cannot modify allow list: modify address: " + nobody.Hex() + ", from role: NoRole, to role: EnabledRole", used: 20_001},
		{name: "short argument durango", rules: Rules{IsDurango: true}, from: admin, input: pack(t, AllowListABI(), "setEnabled", other)[:20], gas: 30_000, wantErr: "abi: cannot marshal in to go type: length insufficient 16 require 32", used: 30_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, cfg)
			ret, used, err := h.call(tt.from, addr, tt.input, tt.gas)
			require.Equal(t, tt.used, used)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantRet, ret)
			require.Empty(t, h.state.Logs())
		})
	}
}

func TestTxAllowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[2])
	for _, a := range []common.Address{admin, manager, enabled} {
		require.True(t, TxAllowed(h.state, a))
		require.NoError(t, CheckTxAllowed(h.state, a))
	}
	require.False(t, TxAllowed(h.state, nobody))
	err := CheckTxAllowed(h.state, nobody)
	require.ErrorIs(t, err, ErrSenderNotAllowListed)
	require.EqualError(t, err, "cannot issue transaction from non-allow listed address: "+nobody.Hex())
}
