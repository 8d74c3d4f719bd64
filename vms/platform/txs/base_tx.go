package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// BaseTx moves funds (type ID 34, valid since Durango). Its fields start every other tx kind
// (§4.2).
type BaseTx struct {
	NetworkID uint32
	// BlockchainID is the P-Chain's ID, all zeros.
	BlockchainID ids.ID
	Outs         []TransferableOutput
	Ins          []TransferableInput
	// Memo must be empty on the P-Chain since Durango; it is kept as read.
	Memo []byte
}

// Base returns tx itself; the kinds that embed BaseTx inherit it.
func (tx *BaseTx) Base() *BaseTx { return tx }

func (*BaseTx) isUnsignedTx() {}

// Visit calls v.BaseTx with tx.
func (tx *BaseTx) Visit(v Visitor) error { return v.BaseTx(tx) }

// Marshal writes network ID, blockchain ID, outputs, inputs and memo.
func (tx *BaseTx) Marshal(p *codec.Packer) {
	p.Uint32(tx.NetworkID)
	p.ID(tx.BlockchainID)
	union.WriteList(p, tx.Outs)
	union.WriteList(p, tx.Ins)
	p.VarBytes(tx.Memo)
}

// Unmarshal reads the fields written by Marshal.
func (tx *BaseTx) Unmarshal(u *codec.Unpacker) {
	tx.NetworkID = u.Uint32()
	tx.BlockchainID = u.ID()
	tx.Outs = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
	tx.Ins = union.ReadList[TransferableInput](u, minTransferableInputSize)
	tx.Memo = u.VarBytes()
}
