package precompile

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

// TestSelectors pins the selectors to l1-evm.md §5.
func TestSelectors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		abi  string
		name string
		want string
	}{
		{"allowList", "readAllowList", "0xeb54dae1"},
		{"allowList", "setAdmin", "0x704b6c02"},
		{"allowList", "setEnabled", "0x0aaf7043"},
		{"allowList", "setManager", "0xd0ebdbe7"},
		{"allowList", "setNone", "0x8c6bfb3b"},
		{"nativeMinter", "mintNativeCoin", "0x4f5aaaba"},
		{"feeManager", "setFeeConfig", "0x8f10b586"},
		{"feeManager", "getFeeConfig", "0x5fbbc0d2"},
		{"feeManager", "getFeeConfigLastChangedAt", "0x9e05549a"},
		{"rewardManager", "allowFeeRecipients", "0x0329099f"},
		{"rewardManager", "disableRewards", "0xbc178628"},
		{"rewardManager", "setRewardAddress", "0x5e00e679"},
		{"rewardManager", "areFeeRecipientsAllowed", "0xf6542b2e"},
		{"rewardManager", "currentRewardAddress", "0xe915608b"},
		{"warp", "getBlockchainID", "0x4213cf78"},
		{"warp", "getVerifiedWarpMessage", "0x6f825350"},
		{"warp", "getVerifiedWarpBlockHash", "0xce7f5929"},
		{"warp", "sendWarpMessage", "0xee5b48eb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := map[string]func() []byte{
				"allowList":     func() []byte { return AllowListABI().Methods[tt.name].ID },
				"nativeMinter":  func() []byte { return NativeMinterABI().Methods[tt.name].ID },
				"feeManager":    func() []byte { return FeeManagerABI().Methods[tt.name].ID },
				"rewardManager": func() []byte { return RewardManagerABI().Methods[tt.name].ID },
				"warp":          func() []byte { return WarpABI().Methods[tt.name].ID },
			}[tt.abi]()
			require.Equal(t, tt.want, hexutil.Encode(a))
		})
	}
}

// TestEventTopics pins the event topics to l1-evm.md §5.
func TestEventTopics(t *testing.T) {
	t.Parallel()
	require.Equal(t, "0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e", AllowListABI().Events["RoleSet"].ID.Hex())

	minted := hexutil.Encode(crypto.Keccak256([]byte("NativeCoinMinted(address,address,uint256)")))
	require.True(t, strings.HasPrefix(minted, "0x400cd392"), minted)
	require.True(t, strings.HasSuffix(minted, "50930ee"), minted)
	require.Equal(t, minted, NativeMinterABI().Events["NativeCoinMinted"].ID.Hex())

	fee := FeeManagerABI().Events["FeeConfigChanged"].ID.Hex()
	require.True(t, strings.HasPrefix(fee, "0x4c98e43a"), fee)
	require.True(t, strings.HasSuffix(fee, "7cd044fc"), fee)

	for name, prefix := range map[string]string{
		"FeeRecipientsAllowed": "0xabb1949b",
		"RewardAddressChanged": "0xc2a9e07c",
		"RewardsDisabled":      "0xeb121f03",
	} {
		require.True(t, strings.HasPrefix(RewardManagerABI().Events[name].ID.Hex(), prefix), name)
	}
	require.True(t, strings.HasPrefix(WarpABI().Events["SendWarpMessage"].ID.Hex(), "0x56600c56"))
}

// TestEventGas pins the event costs to l1-evm.md §5.
func TestEventGas(t *testing.T) {
	t.Parallel()
	require.EqualValues(t, 2_131, allowListEventGas)
	require.EqualValues(t, 1_756, mintEventGas)
	require.EqualValues(t, 45_221, feeConfigEventGas)
	require.EqualValues(t, 1_125, rewardSenderEventGas)
	require.EqualValues(t, 6_875, rewardAddressEventGas)
	require.EqualValues(t, 41_500, warpSendBaseGas)
	require.EqualValues(t, 180_000, setFeeConfigGas)
	require.EqualValues(t, 25_000, rewardSetterGas)
}
