package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func TestMintNativeCoin(t *testing.T) {
	t.Parallel()
	fresh := common.HexToAddress("0x00000000000000000000000000000000000f4e54")
	amount := big.NewInt(1_000_000)
	tests := []struct {
		name    string
		rules   Rules
		from    common.Address
		input   []byte
		gas     uint64
		used    uint64
		wantErr string
		event   bool
	}{
		{name: "admin", rules: Rules{IsDurango: true}, from: admin, used: 31_756, event: true},
		{name: "manager", rules: Rules{IsDurango: true}, from: manager, used: 31_756, event: true},
		{name: "enabled", rules: Rules{IsDurango: true}, from: enabled, used: 31_756, event: true},
		{name: "none", rules: Rules{IsDurango: true}, from: nobody, wantErr: "non-enabled cannot mint: " + nobody.Hex()},
		{name: "enabled pre-durango", from: enabled, used: 30_000},
		{name: "strict length", from: enabled, input: append(pack(t, NativeMinterABI(), "mintNativeCoin", fresh, amount), 0), wantErr: "invalid input length for minting: 65"},
		{name: "padding from durango", rules: Rules{IsDurango: true}, from: enabled, input: append(pack(t, NativeMinterABI(), "mintNativeCoin", fresh, amount), 0), used: 31_756, event: true},
		{name: "short input", rules: Rules{IsDurango: true}, from: enabled, input: pack(t, NativeMinterABI(), "mintNativeCoin", fresh, amount)[:40], wantErr: "failed to unpack input: abi: cannot marshal in to go type: length insufficient 36 require 64"},
		{name: "out of gas at event", rules: Rules{IsDurango: true}, from: enabled, gas: 31_755, wantErr: "out of gas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, allConfigs()[1])
			input := tt.input
			if input == nil {
				input = pack(t, NativeMinterABI(), "mintNativeCoin", fresh, amount)
			}
			gas := tt.gas
			if gas == 0 {
				gas = 100_000
			}
			_, used, err := h.call(tt.from, l1params.NativeMinterAddress, input, gas)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.Equal(t, gas, used)
				require.False(t, h.state.Exist(fresh))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.used, used)
			require.Equal(t, amount.Uint64(), h.state.GetBalance(fresh).Uint64())
			logs := h.state.Logs()
			if !tt.event {
				require.Empty(t, logs)
				return
			}
			require.Len(t, logs, 1)
			require.Equal(t, []common.Hash{
				NativeMinterABI().Events["NativeCoinMinted"].ID,
				common.BytesToHash(tt.from.Bytes()),
				common.BytesToHash(fresh.Bytes()),
			}, logs[0].Topics)
			require.Equal(t, common.BigToHash(amount).Bytes(), logs[0].Data)
		})
	}
}

func TestMintReadOnlyBeforeDecode(t *testing.T) {
	t.Parallel()
	// The read-only check comes before decoding: a STATICCALL with garbage input fails
	// with write protection.
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[1])
	var rec exitRecorder
	h.user = rec.hooks()
	h.reset()
	h.deploy(proxy, proxyCode(0xfa, l1params.NativeMinterAddress))
	_, _, err := h.call(admin, proxy, append(NativeMinterABI().Methods["mintNativeCoin"].ID, 1), 100_000)
	require.Error(t, err)
	require.EqualError(t, rec.errs[1], "write protection")
}
