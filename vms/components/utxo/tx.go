package utxo

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// BaseTx is the fields every tx kind of both chains starts with, in this encoding (§2.2): O and I
// are the chain's output and input types, OK and IK the Kinds that encode them. Each chain
// defines its BaseTx kind as a type with these fields (type BaseTx utxo.BaseTx[…]) and adds its
// type ID and visitor.
type BaseTx[O any, OK Kinds[O], I any, IK Kinds[I]] struct {
	NetworkID uint32
	// BlockchainID is the chain's ID (all zeros on the P-Chain; empty in an X-Chain genesis
	// asset).
	BlockchainID ids.ID
	Outs         []TransferableOutput[O, OK]
	Ins          []TransferableInput[I, IK]
	// Memo is kept as read; each chain checks its length (§4.2, §6.2).
	Memo []byte
}

// Marshal writes network ID, blockchain ID, outputs, inputs and memo.
func (tx *BaseTx[O, OK, I, IK]) Marshal(p *codec.Packer) {
	p.Uint32(tx.NetworkID)
	p.ID(tx.BlockchainID)
	union.WriteList(p, tx.Outs)
	union.WriteList(p, tx.Ins)
	p.VarBytes(tx.Memo)
}

// Unmarshal reads the fields written by Marshal.
func (tx *BaseTx[O, OK, I, IK]) Unmarshal(u *codec.Unpacker) {
	tx.NetworkID = u.Uint32()
	tx.BlockchainID = u.ID()
	tx.Outs = union.ReadList[TransferableOutput[O, OK]](u, MinTransferableOutputSize)
	tx.Ins = union.ReadList[TransferableInput[I, IK]](u, MinTransferableInputSize)
	tx.Memo = u.VarBytes()
}

// Import is what an ImportTx adds to its BaseTx on both chains (§4.3, §6.2): the chain whose
// shared memory holds the UTXOs it spends, and the inputs that spend them.
type Import[I any, K Kinds[I]] struct {
	// SourceChain is the chain that exported the UTXOs.
	SourceChain ids.ID
	// ImportedIns spend the atomic UTXOs; their credentials follow the BaseTx inputs'.
	ImportedIns []TransferableInput[I, K]
}

// Marshal writes the source chain and the imported inputs, after the BaseTx fields.
func (im *Import[I, K]) Marshal(p *codec.Packer) {
	p.ID(im.SourceChain)
	union.WriteList(p, im.ImportedIns)
}

// Unmarshal reads the fields written by Marshal.
func (im *Import[I, K]) Unmarshal(u *codec.Unpacker) {
	im.SourceChain = u.ID()
	im.ImportedIns = union.ReadList[TransferableInput[I, K]](u, MinTransferableInputSize)
}

// Export is what an ExportTx adds to its BaseTx on both chains (§4.3, §6.2): the chain that may
// import the outputs, and the outputs it exports.
type Export[O any, K Kinds[O]] struct {
	// DestinationChain is the chain that may import the outputs.
	DestinationChain ids.ID
	// ExportedOuts become atomic UTXOs of the destination chain, not UTXOs of the exporting one.
	ExportedOuts []TransferableOutput[O, K]
}

// Marshal writes the destination chain and the exported outputs, after the BaseTx fields.
func (ex *Export[O, K]) Marshal(p *codec.Packer) {
	p.ID(ex.DestinationChain)
	union.WriteList(p, ex.ExportedOuts)
}

// Unmarshal reads the fields written by Marshal.
func (ex *Export[O, K]) Unmarshal(u *codec.Unpacker) {
	ex.DestinationChain = u.ID()
	ex.ExportedOuts = union.ReadList[TransferableOutput[O, K]](u, MinTransferableOutputSize)
}

// ExportedUTXOs returns the UTXOs that the tx txID, with ownOuts outputs of its own, puts into the
// destination chain's shared memory: exported output i becomes UTXO (txID, ownOuts+i), its index
// continuing after the tx's own outputs (§4.3, §6.2).
func (ex *Export[O, K]) ExportedUTXOs(txID ids.ID, ownOuts int) []UTXO[O, K] {
	out := make([]UTXO[O, K], len(ex.ExportedOuts))
	for i := range ex.ExportedOuts {
		out[i] = UTXO[O, K]{
			UTXOID:  UTXOID{TxID: txID, OutputIndex: uint32(ownOuts + i)},
			AssetID: ex.ExportedOuts[i].AssetID,
			Out:     ex.ExportedOuts[i].Out,
		}
	}
	return out
}
