package precompile

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

var factory = common.HexToAddress("0x000000000000000000000000000000000000fac7")

// initCode deploys a one-byte contract (STOP).
var initCode = []byte{byte(vm.PUSH1), 0x00, byte(vm.PUSH0), byte(vm.MSTORE8), byte(vm.PUSH1), 1, byte(vm.PUSH0), byte(vm.RETURN)}

func TestDeployerTopLevel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		origin  common.Address
		allowed bool
	}{
		{"admin", admin, true},
		{"manager", manager, true},
		{"enabled", enabled, true},
		{"none", nobody, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Rules{IsDurango: true}, allConfigs()[0])
			nonce := h.state.GetNonce(tt.origin)
			res := h.apply(tt.origin, nil, initCode, 200_000)
			require.Equal(t, nonce+1, h.state.GetNonce(tt.origin))
			require.Equal(t, tt.allowed, CanDeploy(h.state, tt.origin))
			created := crypto.CreateAddress(tt.origin, nonce)
			if tt.allowed {
				require.NoError(t, res.Err)
				require.NoError(t, h.rt.ExecutionError(res.Err))
				require.Equal(t, []byte{0}, h.state.GetCode(created))
				return
			}
			require.EqualValues(t, 200_000, res.UsedGas)
			err := h.rt.ExecutionError(res.Err)
			require.ErrorIs(t, err, ErrNotAuthorizedToDeploy)
			require.EqualError(t, err, "tx.origin "+tt.origin.Hex()+" is not authorized to deploy a contract")
			require.Empty(t, h.state.GetCode(created))
			require.Zero(t, h.state.GetNonce(created))
		})
	}
}

// TestDeployerNested: a factory's CREATE fails when tx.origin lacks a role, even though
// the factory itself is an admin; it succeeds for an allowed origin through a factory
// without a role.
func TestDeployerNested(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		origin      common.Address
		factoryRole Role
		allowed     bool
	}{
		{"enabled origin, factory without role", enabled, RoleNone, true},
		{"origin without role, admin factory", nobody, RoleAdmin, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Rules{IsDurango: true}, allConfigs()[0])
			var rec exitRecorder
			h.user = rec.hooks()
			h.reset()
			h.deploy(factory, factoryCode())
			SetRole(h.state, allConfigs()[0].Address(), factory, tt.factoryRole)
			res := h.apply(tt.origin, &factory, nil, 500_000)
			require.NoError(t, res.Err)
			require.NoError(t, h.rt.ExecutionError(res.Err))
			require.Equal(t, uint64(2), h.state.GetNonce(factory), "the creator's nonce is bumped either way")
			created := crypto.CreateAddress(factory, 1)
			if tt.allowed {
				require.Equal(t, common.BytesToHash(created.Bytes()).Bytes(), res.ReturnData)
				require.Equal(t, uint64(1), h.state.GetNonce(created))
				return
			}
			require.Equal(t, make([]byte, 32), res.ReturnData)
			require.ErrorIs(t, rec.errs[1], vm.ErrContractAddressCollision)
			require.Greater(t, rec.used[1], uint64(400_000), "the create frame's gas is gone")
			require.Zero(t, h.state.GetNonce(created))
		})
	}
}

// TestDeployerInactive: without the deployer allow list, anyone deploys.
func TestDeployerInactive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[1])
	res := h.apply(nobody, nil, initCode, 200_000)
	require.NoError(t, res.Err)
}
