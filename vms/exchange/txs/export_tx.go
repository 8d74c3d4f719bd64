package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// ExportTx moves outputs to another chain's shared memory (type ID 4, §6.2): its BaseTx, then the
// destination chain and the exported outputs, which become atomic UTXOs of the destination chain,
// not UTXOs of the X-Chain.
type ExportTx struct {
	BaseTx
	Export
}

// Export is what an ExportTx adds to its BaseTx: DestinationChain and ExportedOuts.
type Export = utxo.Export[*secp256k1fx.TransferOutput, transferOutputKind]

func (*ExportTx) isUnsignedTx() {}

// Visit calls v.ExportTx with tx.
func (tx *ExportTx) Visit(v Visitor) error { return v.ExportTx(tx) }

// Marshal writes the BaseTx fields, the destination chain and the exported outputs.
func (tx *ExportTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Export.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ExportTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Export.Unmarshal(u)
}

// ExportedUTXOs returns the UTXOs that the tx txID puts into the destination chain's shared
// memory: exported output i becomes UTXO (txID, len(Outs)+i) (§6.2), as an X-Chain UTXO, whose
// output may be any of the chain's output kinds.
func (tx *ExportTx) ExportedUTXOs(txID ids.ID) []UTXO {
	exported := tx.Export.ExportedUTXOs(txID, len(tx.Outs))
	out := make([]UTXO, len(exported))
	for i, ux := range exported {
		out[i] = UTXO{UTXOID: ux.UTXOID, AssetID: ux.AssetID, Out: ux.Out}
	}
	return out
}
