package txs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// atomicVectors are the X-Chain vectors of codec-vectors-2.json (issue #14).
type atomicVectors struct {
	Vectors vectortest.Vectors `json:"vectors"`
}

// TestAtomicTxVectors parses the X-Chain ImportTx and ExportTx vectors and checks their bytes,
// IDs, JSON forms (avm.getTx json) and, for exports, the UTXOs they put into shared memory.
func TestAtomicTxVectors(t *testing.T) {
	t.Parallel()
	v := vectortest.Load2[atomicVectors](t)
	for _, name := range []string{"x_export_tx_to_p", "x_export_tx_to_c", "x_import_tx_from_p"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vec := v.Vectors.Named(t, name)
			tx := vectortest.CheckTxVector(t, vec, ParseTx)
			require.Equal(t, uint32(num(t, vec, "unsignedTxTypeID")), typeIDOf(t, tx.Unsigned()))

			raw := vectortest.RawVector(t, vectortest.Load2[vectortest.RawFile](t).Vectors, name)
			got, err := TxJSON(tx, "X", "local")
			vectortest.CheckReply(t, raw, "avm.getTx(json)", "tx", got, err)

			exported, _ := vec["exportedUTXOs"].([]any)
			export, isExport := tx.Unsigned().(*ExportTx)
			require.Equal(t, isExport, len(exported) > 0)
			if isExport {
				vectortest.CheckExportedUTXOs(t, exported, export.ExportedUTXOs(tx.ID()))
			}
		})
	}
}

// TestAtomicBlockVector checks the X-Chain block holding the ImportTx vector.
func TestAtomicBlockVector(t *testing.T) {
	t.Parallel()
	vec := vectortest.Load2[atomicVectors](t).Vectors.Named(t, "x_standard_block_with_import_tx")
	b := unhex(t, str(t, vec, "bytesHex"))
	blk, err := ParseBlock(b)
	require.NoError(t, err)
	require.Equal(t, b, blk.Bytes())
	require.Equal(t, cb58(t, str(t, vec, "blockID")), blk.ID())
	raw := vectortest.RawVector(t, vectortest.Load2[vectortest.RawFile](t).Vectors, "x_standard_block_with_import_tx")
	got, err := BlockJSON(blk, "X", "local")
	vectortest.CheckReply(t, raw, "avm.getBlock(json)", "block", got, err)
}

func typeIDOf(t *testing.T, u UnsignedTx) uint32 {
	t.Helper()
	id, ok := unsignedTxs.ID(u)
	require.True(t, ok)
	return id
}
