package precompile

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func TestWarp(t *testing.T) {
	t.Parallel()
	for _, granite := range []bool{false, true} {
		h := newHarness(t, Rules{IsDurango: true, IsGranite: granite}, allConfigs()[5])
		ret, used, err := h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getBlockchainID"), 10_000)
		require.NoError(t, err)
		require.Equal(t, h.env.BlockchainID.Bytes(), ret)
		wantGas, verifiedGas := uint64(2), uint64(2)
		if granite {
			wantGas, verifiedGas = 200, 750
		}
		require.Equal(t, wantGas, used)

		for _, fn := range []string{"getVerifiedWarpMessage", "getVerifiedWarpBlockHash"} {
			ret, used, err = h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), fn, uint32(0)), 10_000)
			require.NoError(t, err)
			require.Equal(t, verifiedGas, used)
			vals, err := WarpABI().Methods[fn].Outputs.Unpack(ret)
			require.NoError(t, err)
			require.Equal(t, false, vals[1])
		}

		_, used, err = h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "sendWarpMessage", []byte("hi")), 100_000)
		require.ErrorIs(t, err, ErrWarpNotSupported)
		require.EqualValues(t, 100_000, used)
	}
}
