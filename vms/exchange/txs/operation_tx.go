package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// OperationTx applies fx operations to UTXOs, such as minting more of an asset (type ID 2, §6.2).
type OperationTx struct {
	BaseTx
	Ops []Operation
}

func (*OperationTx) isUnsignedTx() {}

// Visit calls v.OperationTx with tx.
func (tx *OperationTx) Visit(v Visitor) error { return v.OperationTx(tx) }

// Marshal writes the BaseTx fields, then the operations.
func (tx *OperationTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	union.WriteList(p, tx.Ops)
}

// Unmarshal reads the fields written by Marshal.
func (tx *OperationTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Ops = union.ReadList[Operation](u, minOperationSize)
}

// minOperationSize is the encoded size of an Operation with no UTXOs and the smallest
// MintOperation: no signature indices and no addresses.
const minOperationSize = ids.IDLen + 4 + 4 + 4 + (8 + 4 + 4) + secp256k1fx.MinTransferOutputSize

// Operation spends the UTXOs UTXOIDs of AssetID with an fx operation. Only a secp256k1fx
// MintOperation (type ID 8) is read.
type Operation struct {
	AssetID ids.ID
	// UTXOIDs must be sorted and unique (checked by the chain).
	UTXOIDs []utxo.UTXOID
	Op      *secp256k1fx.MintOperation
}

// Marshal writes the asset ID, the UTXO references, then the operation's type ID and body.
func (op *Operation) Marshal(p *codec.Packer) {
	p.ID(op.AssetID)
	union.WriteList(p, op.UTXOIDs)
	if op.Op == nil {
		p.Fail(codec.UnregisteredTypeError("operation", nil))
		return
	}
	p.TypeID(TypeIDMintOperation)
	op.Op.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (op *Operation) Unmarshal(u *codec.Unpacker) {
	op.AssetID = u.ID()
	op.UTXOIDs = union.ReadList[utxo.UTXOID](u, utxo.IDSize)
	union.Expect(u, "operation", TypeIDMintOperation)
	op.Op = &secp256k1fx.MintOperation{}
	op.Op.Unmarshal(u)
}

// outputs returns the outputs the operation creates, in the order they become UTXOs: the new
// MintOutput, then the minted TransferOutput.
func (op *Operation) outputs() []Output {
	return []Output{&op.Op.MintOutput, &op.Op.TransferOutput}
}
