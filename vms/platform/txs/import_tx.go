package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// ImportTx spends UTXOs that another chain of the Primary Network exported to the P-Chain through
// shared memory (type ID 17, §4.3).
type ImportTx struct {
	BaseTx
	// SourceChain is the chain that exported the UTXOs.
	SourceChain ids.ID
	// ImportedIns spend the atomic UTXOs; their credentials follow the BaseTx inputs'.
	ImportedIns []TransferableInput
}

func (*ImportTx) isUnsignedTx() {}

// Visit calls v.ImportTx with tx.
func (tx *ImportTx) Visit(v Visitor) error { return v.ImportTx(tx) }

// Marshal writes the BaseTx fields, the source chain and the imported inputs.
func (tx *ImportTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.SourceChain)
	union.WriteList(p, tx.ImportedIns)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ImportTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.SourceChain = u.ID()
	tx.ImportedIns = union.ReadList[TransferableInput](u, minTransferableInputSize)
}

// ImportTx: each imported input reads and removes its UTXO from shared memory and has its
// signatures recovered, as an input of the tx's own does (§4.8).
func (x complexity) ImportTx(tx *ImportTx) error {
	for i := range tx.ImportedIns {
		x.c[DBRead] += inputDBRead
		x.c[DBWrite] += inputDBWrite
		x.c[Compute] += signatureCompute * uint64(len(sigIndices(tx.ImportedIns[i].In)))
	}
	return nil
}

type importTxJSON struct {
	baseTxJSON
	SourceChain    ids.ID                  `json:"sourceChain"`
	ImportedInputs []transferableInputJSON `json:"importedInputs"`
}

func (j *unsignedJSON) ImportTx(u *ImportTx) error {
	ins, err := inputsJSON(u.ImportedIns)
	if err != nil {
		return err
	}
	j.out = &importTxJSON{baseTxJSON: *j.base, SourceChain: u.SourceChain, ImportedInputs: ins}
	return nil
}
