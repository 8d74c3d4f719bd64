package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// ExportTx moves outputs to another chain of the Primary Network's shared memory (type ID 18,
// §4.3): its BaseTx, then the destination chain and the exported outputs, which become atomic
// UTXOs of the destination chain, not UTXOs of the P-Chain.
type ExportTx struct {
	BaseTx
	Export
}

// Export is what an ExportTx adds to its BaseTx: DestinationChain and ExportedOuts.
type Export = utxo.Export[Output, outputKinds]

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
// memory: exported output i becomes UTXO (txID, len(Outs)+i) (§4.3).
func (tx *ExportTx) ExportedUTXOs(txID ids.ID) []UTXO {
	return tx.Export.ExportedUTXOs(txID, len(tx.Outs))
}

// ExportTx: each exported output writes its UTXO into shared memory, as an output of the tx's
// own does (§4.8).
func (x complexity) ExportTx(tx *ExportTx) error {
	x.c[DBWrite] += outputDBWrite * uint64(len(tx.ExportedOuts))
	return nil
}

func (j *unsignedJSON) ExportTx(u *ExportTx) error {
	var err error
	j.out, err = j.f.forms().ExportTx(j.base, &u.Export)
	return err
}
