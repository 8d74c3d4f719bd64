package txs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComplexityVectors checks complexity and gas against the vectors of the tx kinds this VM
// executes (§4.8).
func TestComplexityVectors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	for _, name := range []string{"p_base_tx_transfer_avax", "p_create_subnet_tx", "p_create_chain_tx"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vec := v.vector(t, name)
			tx, err := ParseTx(unhex(t, str(t, vec, "signedBytesHex")))
			require.NoError(t, err)
			fee := vec["dynamicFee"].(map[string]any)
			var want Dimensions
			for i, x := range fee["complexity[bandwidth,dbRead,dbWrite,compute]"].([]any) {
				want[i] = uint64(x.(float64))
			}
			c := Complexity(tx)
			require.Equal(t, want, c)
			require.Equal(t, num(t, fee, "gas"), LocalFeeConfig.Weights.Gas(c))
		})
	}
}
