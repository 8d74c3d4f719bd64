package txs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// TestAtomicTxVectors parses the P-Chain ImportTx and ExportTx vectors of codec-vectors-2.json and
// checks their bytes, IDs, complexity and gas, JSON forms (platform.getTx json) and, for exports,
// the UTXOs they put into shared memory.
func TestAtomicTxVectors(t *testing.T) {
	t.Parallel()
	file := vectortest.Load2[struct {
		Vectors vectortest.Vectors `json:"vectors"`
	}](t)
	raw := vectortest.Load2[vectortest.RawFile](t)
	for _, name := range []string{"p_export_tx_to_x", "p_export_tx_to_c", "p_import_tx_from_x"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vec := file.Vectors.Named(t, name)
			tx := vectortest.CheckTxVector(t, vec, ParseTx)
			typeID, ok := unsignedTxs.ID(tx.Unsigned())
			require.True(t, ok)
			require.Equal(t, uint32(num(t, vec, "unsignedTxTypeID")), typeID)

			fee := vec["dynamicFee"].(map[string]any)
			var want Dimensions
			for i, x := range fee["complexity[bandwidth,dbRead,dbWrite,compute]"].([]any) {
				want[i] = uint64(x.(float64))
			}
			require.Equal(t, want, Complexity(tx))
			require.Equal(t, num(t, fee, "gas"), LocalFeeConfig.Weights.Gas(want))

			got, err := TxJSON(tx, "local")
			vectortest.CheckReply(t, vectortest.RawVector(t, raw.Vectors, name), "platform.getTx(json)", "tx", got, err)

			if export, isExport := tx.Unsigned().(*ExportTx); isExport {
				vectortest.CheckExportedUTXOs(t, vec["exportedUTXOs"].([]any), export.ExportedUTXOs(tx.ID()))
			}
		})
	}
}

// TestAtomicBlockVector checks the P-Chain block holding the ImportTx vector.
func TestAtomicBlockVector(t *testing.T) {
	t.Parallel()
	const name = "p_banff_standard_block_with_import_tx"
	vec := vectortest.RawVector(t, vectortest.Load2[vectortest.RawFile](t).Vectors, name)
	b := vectortest.Unhex(t, vectortest.RawString(t, vec, "bytesHex"))
	blk, err := ParseBlock(b)
	require.NoError(t, err)
	require.Equal(t, b, blk.Bytes())
	require.Equal(t, vectortest.RawString(t, vec, "blockID"), blk.ID().String())
	got, err := BlockJSON(blk, "local")
	vectortest.CheckReply(t, vec, "platform.getBlock(json)", "block", got, err)
}
