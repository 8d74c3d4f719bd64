package txs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestTransferToSpendUTXO: TransferTo pays addr alone at once; SpendUTXO spends all of the UTXO
// such an output becomes with the first owner's signature.
func TestTransferToSpendUTXO(t *testing.T) {
	t.Parallel()
	out := TransferTo(ids.ID{1}, 42, ids.ShortID{2})
	require.Equal(t, TransferableOutput{AssetID: ids.ID{1}, Out: &secp256k1fx.TransferOutput{
		Amount: 42, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{{2}}},
	}}, out)
	ux := &UTXO{UTXOID: utxo.UTXOID{TxID: ids.ID{3}, OutputIndex: 4}, AssetID: out.AssetID, Out: out.Out}
	require.Equal(t, TransferableInput{UTXOID: ux.UTXOID, AssetID: ids.ID{1}, In: &secp256k1fx.TransferInput{
		Amount: 42, Input: secp256k1fx.Input{SigIndices: []uint32{0}},
	}}, SpendUTXO(ux))
}
