package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// ImportTx spends UTXOs that another chain exported to the X-Chain through shared memory (type ID
// 3, §6.2): its BaseTx, then the source chain and the imported inputs.
type ImportTx struct {
	BaseTx
	Import
}

// Import is what an ImportTx adds to its BaseTx: SourceChain and ImportedIns.
type Import = utxo.Import[*secp256k1fx.TransferInput, transferInputKind]

func (*ImportTx) isUnsignedTx() {}

// Visit calls v.ImportTx with tx.
func (tx *ImportTx) Visit(v Visitor) error { return v.ImportTx(tx) }

// Marshal writes the BaseTx fields, the source chain and the imported inputs.
func (tx *ImportTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Import.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ImportTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Import.Unmarshal(u)
}
