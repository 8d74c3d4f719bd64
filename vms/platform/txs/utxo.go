package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// UTXO is an unspent output: output OutputIndex of tx TxID (§2.2).
type UTXO struct {
	TxID        ids.ID
	OutputIndex uint32
	AssetID     ids.ID
	Out         Output
}

// InputID returns the UTXO's ID, sha256(uint64_be(OutputIndex) ‖ TxID): the key of getUTXOs and of
// the inputs that spend it (§2.2).
func (ux *UTXO) InputID() ids.ID {
	return ux.TxID.Prefix(uint64(ux.OutputIndex))
}

// Marshal writes tx ID, output index, asset ID, then the output's type ID and body. The UTXO itself
// has no type ID (§2.2).
func (ux *UTXO) Marshal(p *codec.Packer) {
	p.ID(ux.TxID)
	p.Uint32(ux.OutputIndex)
	p.ID(ux.AssetID)
	outputs.Write(p, ux.Out)
}

// Unmarshal reads the fields written by Marshal.
func (ux *UTXO) Unmarshal(u *codec.Unpacker) {
	ux.TxID = u.ID()
	ux.OutputIndex = u.Uint32()
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
