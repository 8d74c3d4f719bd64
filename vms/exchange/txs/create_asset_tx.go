package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// CreateAssetTx creates an asset whose ID is the tx's ID (type ID 1, §6.2).
type CreateAssetTx struct {
	BaseTx
	// Name is 1–128 letters, digits and spaces; Symbol 1–4 uppercase letters (checked by the chain).
	Name   string
	Symbol string
	// Denomination is the number of decimal places, at most 32.
	Denomination uint8
	// States are the asset's initial outputs, one per fx, sorted by FxIndex.
	States []InitialState
}

func (*CreateAssetTx) isUnsignedTx() {}

// Visit calls v.CreateAssetTx with tx.
func (tx *CreateAssetTx) Visit(v Visitor) error { return v.CreateAssetTx(tx) }

// Marshal writes the BaseTx fields, name, symbol, denomination and initial states.
func (tx *CreateAssetTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.Str(tx.Name)
	p.Str(tx.Symbol)
	p.Uint8(tx.Denomination)
	union.WriteList(p, tx.States)
}

// Unmarshal reads the fields written by Marshal.
func (tx *CreateAssetTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Name = u.Str()
	tx.Symbol = u.Str()
	tx.Denomination = u.Uint8()
	tx.States = union.ReadList[InitialState](u, minInitialStateSize)
}

// minInitialStateSize is the encoded size of an InitialState with no outputs.
const minInitialStateSize = 4 + 4

// InitialState is the initial outputs of an asset under the fx at FxIndex in the chain's fx list
// (0 = secp256k1fx).
type InitialState struct {
	FxIndex uint32
	// Outs are TransferOutputs (a fixed supply) and MintOutputs (a variable one), sorted by their
	// encoding.
	Outs []Output
}

// Marshal writes the fx index, then each output's type ID and body.
func (s *InitialState) Marshal(p *codec.Packer) {
	p.Uint32(s.FxIndex)
	p.Count(len(s.Outs))
	for _, out := range s.Outs {
		outputs.Write(p, out)
	}
}

// Unmarshal reads the fields written by Marshal.
func (s *InitialState) Unmarshal(u *codec.Unpacker) {
	s.FxIndex = u.Uint32()
	n := u.Count(minOutputSize)
	if u.Err() != nil {
		return
	}
	s.Outs = make([]Output, n)
	for i := range s.Outs {
		s.Outs[i] = outputs.Read(u)
	}
}
