package txs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComplexityVectors checks complexity and gas against the vectors of the tx kinds this VM
// executes (§4.8), the L1 kinds' warp messages included.
func TestComplexityVectors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	for _, name := range []string{"p_base_tx_transfer_avax", "p_create_subnet_tx", "p_create_chain_tx",
		"p_convert_subnet_to_l1_tx", "p_increase_l1_validator_balance_tx", "p_disable_l1_validator_tx",
		"p_register_l1_validator_tx", "p_set_l1_validator_weight_tx"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vec := v.Vectors.Named(t, name)
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
