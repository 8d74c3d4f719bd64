package precompile

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func TestRewardManager(t *testing.T) {
	t.Parallel()
	rewardTo := common.HexToAddress("0x0000000000000000000000000000000000007777")
	ev := func(name string) common.Hash { return RewardManagerABI().Events[name].ID }
	tests := []struct {
		name       string
		rules      Rules
		from       common.Address
		input      []byte
		used       uint64
		wantErr    string
		wantAddr   common.Address
		wantAllow  bool
		wantTopics []common.Hash
	}{
		{name: "allowFeeRecipients", rules: Rules{IsDurango: true}, from: enabled, input: pack(t, RewardManagerABI(), "allowFeeRecipients"), used: 26_125, wantAllow: true,
			wantTopics: []common.Hash{ev("FeeRecipientsAllowed"), common.BytesToHash(enabled.Bytes())}},
		{name: "allowFeeRecipients none", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, RewardManagerABI(), "allowFeeRecipients"), wantErr: "non-enabled cannot call allowFeeRecipients: " + nobody.Hex()},
		{name: "disableRewards", rules: Rules{IsDurango: true}, from: manager, input: pack(t, RewardManagerABI(), "disableRewards"), used: 26_125, wantAddr: BlackholeAddress,
			wantTopics: []common.Hash{ev("RewardsDisabled"), common.BytesToHash(manager.Bytes())}},
		{name: "disableRewards none", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, RewardManagerABI(), "disableRewards"), wantErr: "non-enabled cannot call disableRewards: " + nobody.Hex()},
		{name: "setRewardAddress", rules: Rules{IsDurango: true}, from: admin, input: pack(t, RewardManagerABI(), "setRewardAddress", rewardTo), used: 31_875, wantAddr: rewardTo,
			wantTopics: []common.Hash{ev("RewardAddressChanged"), common.BytesToHash(admin.Bytes()), common.BytesToHash(BlackholeAddress.Bytes()), common.BytesToHash(rewardTo.Bytes())}},
		{name: "setRewardAddress pre-durango", from: admin, input: pack(t, RewardManagerABI(), "setRewardAddress", rewardTo), used: 25_000, wantAddr: rewardTo},
		{name: "setRewardAddress strict length", from: admin, input: append(pack(t, RewardManagerABI(), "setRewardAddress", rewardTo), 0), wantErr: "abi: improperly formatted input: \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00ww\\x00\" - Bytes: [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 119 119 0]"},
		{name: "setRewardAddress zero", rules: Rules{IsDurango: true}, from: admin, input: pack(t, RewardManagerABI(), "setRewardAddress", common.Address{}), wantErr: "reward address cannot be empty"},
		{name: "setRewardAddress none", rules: Rules{IsDurango: true}, from: nobody, input: pack(t, RewardManagerABI(), "setRewardAddress", rewardTo), wantErr: "non-enabled cannot call setRewardAddress: " + nobody.Hex()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, allConfigs()[4])
			_, used, err := h.call(tt.from, l1params.RewardManagerAddress, tt.input, 100_000)
			addr, allow := RewardAddress(h.state)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.EqualValues(t, 100_000, used)
				require.Equal(t, BlackholeAddress, addr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.used, used)
			require.Equal(t, tt.wantAddr, addr)
			require.Equal(t, tt.wantAllow, allow)
			logs := h.state.Logs()
			if tt.wantTopics == nil {
				require.Empty(t, logs)
				return
			}
			require.Len(t, logs, 1)
			require.Equal(t, tt.wantTopics, logs[0].Topics)
			require.Empty(t, logs[0].Data)

			// The views agree with RewardAddress.
			ret, used, err := h.call(nobody, l1params.RewardManagerAddress, pack(t, RewardManagerABI(), "areFeeRecipientsAllowed"), 10_000)
			require.NoError(t, err)
			require.EqualValues(t, 5_000, used)
			want := word(0)
			if tt.wantAllow {
				want = word(1)
			}
			require.Equal(t, want, ret)
			ret, _, err = h.call(nobody, l1params.RewardManagerAddress, pack(t, RewardManagerABI(), "currentRewardAddress"), 10_000)
			require.NoError(t, err)
			require.Equal(t, common.BytesToHash(tt.wantAddr.Bytes()).Bytes(), ret)
		})
	}
}
