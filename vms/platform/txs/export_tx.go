package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// ExportTx moves outputs to another chain of the Primary Network's shared memory (type ID 18,
// §4.3).
type ExportTx struct {
	BaseTx
	// DestinationChain is the chain that may import the outputs.
	DestinationChain ids.ID
	// ExportedOuts become atomic UTXOs of the destination chain, not UTXOs of the P-Chain.
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
// tx's own outputs (§4.3).
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

// ExportTx: each exported output writes its UTXO into shared memory, as an output of the tx's
// own does (§4.8).
func (x complexity) ExportTx(tx *ExportTx) error {
	x.c[DBWrite] += outputDBWrite * uint64(len(tx.ExportedOuts))
	return nil
}

type exportTxJSON struct {
	baseTxJSON
	DestinationChain ids.ID                   `json:"destinationChain"`
	ExportedOutputs  []transferableOutputJSON `json:"exportedOutputs"`
}

func (j *unsignedJSON) ExportTx(u *ExportTx) error {
	outs, err := j.f.outputs(u.ExportedOuts)
	if err != nil {
		return err
	}
	j.out = &exportTxJSON{baseTxJSON: *j.base, DestinationChain: u.DestinationChain, ExportedOutputs: outs}
	return nil
}
