package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// ImportTx spends UTXOs that another chain exported to the X-Chain through shared memory (type ID
// 3, §6.2).
type ImportTx struct {
	BaseTx
	// SourceChain is the chain that exported the UTXOs.
	SourceChain ids.ID
	// ImportedIns spend the atomic UTXOs.
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
