package utxo

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// IDSize is the encoded size of a UTXOID: a tx ID and an output index.
const IDSize = ids.IDLen + 4

// UTXOID names output OutputIndex of tx TxID (§2.2). Inputs and UTXOs of both chains start with
// it, in this encoding.
type UTXOID struct {
	TxID        ids.ID
	OutputIndex uint32
}

// InputID returns the UTXO's ID, sha256(uint64_be(OutputIndex) ‖ TxID): the key of getUTXOs and of
// the inputs that spend it (§2.2).
func (id *UTXOID) InputID() ids.ID {
	return id.TxID.Prefix(uint64(id.OutputIndex))
}

// Marshal writes the tx ID, then the output index.
func (id *UTXOID) Marshal(p *codec.Packer) {
	p.ID(id.TxID)
	p.Uint32(id.OutputIndex)
}

// Unmarshal reads the fields written by Marshal.
func (id *UTXOID) Unmarshal(u *codec.Unpacker) {
	id.TxID = u.ID()
	id.OutputIndex = u.Uint32()
}

// Compare orders UTXO references by tx ID bytes, then output index: the order a tx's inputs must
// be in (§3.3).
func Compare(a, b *UTXOID) int {
	if c := a.TxID.Compare(b.TxID); c != 0 {
		return c
	}
	switch {
	case a.OutputIndex < b.OutputIndex:
		return -1
	case a.OutputIndex > b.OutputIndex:
		return 1
	}
	return 0
}
