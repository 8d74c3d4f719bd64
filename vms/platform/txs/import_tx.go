package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// ImportTx spends UTXOs that another chain of the Primary Network exported to the P-Chain through
// shared memory (type ID 17, §4.3): its BaseTx, then the source chain and the imported inputs.
type ImportTx struct {
	BaseTx
	Import
}

// Import is what an ImportTx adds to its BaseTx: SourceChain and ImportedIns.
type Import = utxo.Import[Input, inputKinds]

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

func (j *unsignedJSON) ImportTx(u *ImportTx) error {
	var err error
	j.out, err = j.f.forms().ImportTx(j.base, &u.Import)
	return err
}
