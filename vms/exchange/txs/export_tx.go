package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// ExportTx moves outputs to another chain's shared memory (type ID 4, §6.2).
type ExportTx struct {
	BaseTx
	// DestinationChain is the chain that may import the outputs.
	DestinationChain ids.ID
	// ExportedOuts become atomic UTXOs of the destination chain, not UTXOs of the X-Chain.
	ExportedOuts []TransferableOutput
}

func (*ExportTx) isUnsignedTx() {}

// Visit calls v.ExportTx with tx.
func (tx *ExportTx) Visit(v Visitor) error { return v.ExportTx(tx) }

// Marshal writes the BaseTx fields, the destination chain and the exported outputs.
func (tx *ExportTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.DestinationChain)
	union.WriteList(p, tx.ExportedOuts)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ExportTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.DestinationChain = u.ID()
	tx.ExportedOuts = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
}

// ExportedUTXOs returns the UTXOs that the tx txID puts into the destination chain's shared
// memory: exported output i becomes UTXO (txID, len(Outs)+i), its index continuing after the
// tx's own outputs (§6.2).
func (tx *ExportTx) ExportedUTXOs(txID ids.ID) []UTXO {
	out := make([]UTXO, len(tx.ExportedOuts))
	for i := range tx.ExportedOuts {
		out[i] = UTXO{
			UTXOID:  utxo.UTXOID{TxID: txID, OutputIndex: uint32(len(tx.Outs) + i)},
			AssetID: tx.ExportedOuts[i].AssetID,
			Out:     tx.ExportedOuts[i].Out,
		}
	}
	return out
}
