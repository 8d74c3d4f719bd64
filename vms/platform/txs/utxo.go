package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// UTXO is an unspent output: output OutputIndex of tx TxID (§2.2).
type UTXO struct {
	utxo.UTXOID
	AssetID ids.ID
	Out     Output
}

// Marshal writes tx ID, output index, asset ID, then the output's type ID and body. The UTXO itself
// has no type ID (§2.2).
func (ux *UTXO) Marshal(p *codec.Packer) {
	ux.UTXOID.Marshal(p)
	p.ID(ux.AssetID)
	outputs.Write(p, ux.Out)
}

// Unmarshal reads the fields written by Marshal.
func (ux *UTXO) Unmarshal(u *codec.Unpacker) {
	ux.UTXOID.Unmarshal(u)
	ux.AssetID = u.ID()
	ux.Out = outputs.Read(u)
}

// Bytes returns the UTXO's wire bytes, as getUTXOs returns them: codec version, then the fields.
func (ux *UTXO) Bytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 128))
	p.Version()
	ux.Marshal(p)
	return p.Bytes()
}

// ParseUTXO decodes UTXO bytes written by Bytes. It copies b.
func ParseUTXO(b []byte) (*UTXO, error) {
	u := newUnpacker(b, codec.MaxSize)
	u.Version()
	ux := &UTXO{}
	ux.Unmarshal(u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	return ux, nil
}
