package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

// FuzzRun feeds arbitrary input to every precompile, from every role, with and without
// Durango and Granite, through a real EVM: decoding never panics, and a failure consumes
// all the call's gas.
func FuzzRun(f *testing.F) {
	seeds := [][]byte{
		nil, {1}, {1, 2, 3, 4},
		pack(f, AllowListABI(), "readAllowList", admin),
		pack(f, AllowListABI(), "setAdmin", other),
		pack(f, AllowListABI(), "setEnabled", other),
		pack(f, AllowListABI(), "setManager", other),
		pack(f, AllowListABI(), "setNone", admin),
		pack(f, NativeMinterABI(), "mintNativeCoin", other, big.NewInt(5)),
		packFee(f, "setFeeConfig", testFeeConfig()),
		pack(f, FeeManagerABI(), "getFeeConfig"),
		pack(f, FeeManagerABI(), "getFeeConfigLastChangedAt"),
		pack(f, RewardManagerABI(), "allowFeeRecipients"),
		pack(f, RewardManagerABI(), "disableRewards"),
		pack(f, RewardManagerABI(), "setRewardAddress", other),
		pack(f, RewardManagerABI(), "areFeeRecipientsAllowed"),
		pack(f, RewardManagerABI(), "currentRewardAddress"),
		pack(f, WarpABI(), "getBlockchainID"),
		pack(f, WarpABI(), "getVerifiedWarpMessage", uint32(1)),
		pack(f, WarpABI(), "getVerifiedWarpBlockHash", uint32(1)),
		pack(f, WarpABI(), "sendWarpMessage", []byte("x")),
	}
	for i, s := range seeds {
		f.Add(uint8(i), uint8(i), s, i%2 == 0, i%3 == 0)
		// Truncated and padded variants.
		if len(s) > 5 {
			f.Add(uint8(i), uint8(i+1), s[:len(s)-5], true, false)
			f.Add(uint8(i), uint8(i+2), append(append([]byte{}, s...), 0xff), false, false)
		}
	}
	callers := []common.Address{admin, manager, enabled, nobody}
	f.Fuzz(func(t *testing.T, which, from uint8, input []byte, durango, granite bool) {
		cfgs := allConfigs()
		h := newHarness(t, Rules{IsDurango: durango, IsGranite: granite}, cfgs...)
		addr := cfgs[int(which)%len(cfgs)].Address()
		const gas = 1_000_000
		_, used, err := h.call(callers[int(from)%len(callers)], addr, input, gas)
		if err != nil {
			require.EqualValues(t, gas, used)
		} else {
			require.Less(t, used, uint64(gas))
		}
	})
}

// FuzzRoleFromHash: any stored value decodes to a role whose String never panics.
func FuzzRoleFromHash(f *testing.F) {
	f.Add(word(2))
	f.Add(make([]byte, 32))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := roleFromHash(common.BytesToHash(b))
		_ = r.String()
		if r <= RoleManager {
			require.Equal(t, common.BytesToHash(b), common.BigToHash(new(big.Int).SetUint64(uint64(r))))
		}
	})
}
