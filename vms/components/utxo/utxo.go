package utxo

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// Kinds reads and writes one of a chain's interface fields (an output, an input), each value as
// its type ID and body. A chain passes a zero-size type whose methods call its own union of kinds
// (package vms/internal/union), so the type IDs and their bytes stay the chain's.
type Kinds[T any] interface {
	Write(p *codec.Packer, v T)
	Read(u *codec.Unpacker) T
}

// UTXO is an unspent output: output OutputIndex of tx TxID, of asset AssetID (§2.2). O is the
// chain's output type and C the Kinds that encode it; each chain names its instance UTXO.
type UTXO[O any, C Kinds[O]] struct {
	UTXOID
	AssetID ids.ID
	Out     O
}

// Marshal writes tx ID, output index, asset ID, then the output's type ID and body. The UTXO itself
// has no type ID (§2.2).
func (ux *UTXO[O, C]) Marshal(p *codec.Packer) {
	ux.UTXOID.Marshal(p)
	p.ID(ux.AssetID)
	var c C
	c.Write(p, ux.Out)
}

// Unmarshal reads the fields written by Marshal.
func (ux *UTXO[O, C]) Unmarshal(u *codec.Unpacker) {
	ux.UTXOID.Unmarshal(u)
	ux.AssetID = u.ID()
	var c C
	ux.Out = c.Read(u)
}

// Bytes returns the UTXO's wire bytes, as getUTXOs returns them: codec version, then the fields.
func (ux *UTXO[O, C]) Bytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 128))
	p.Version()
	ux.Marshal(p)
	return p.Bytes()
}

// Parse decodes UTXO bytes written by Bytes, at most codec.MaxSize long. It copies b.
func Parse[O any, C Kinds[O]](b []byte) (*UTXO[O, C], error) {
	u := codec.NewUnpackerCopy(b, codec.MaxSize)
	u.Version()
	ux := &UTXO[O, C]{}
	ux.Unmarshal(u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	return ux, nil
}
