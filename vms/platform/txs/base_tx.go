package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// baseFields is the BaseTx fields and their encoding, shared with the X-Chain.
type baseFields = utxo.BaseTx[Output, outputKinds, Input, inputKinds]

// BaseTx moves funds (type ID 34, valid since Durango). Its fields start every other tx kind
// (§4.2): the network ID, the P-Chain's ID (all zeros), the outputs, the inputs and a memo, which
// must be empty on the P-Chain since Durango and is kept as read.
type BaseTx baseFields

// Base returns tx itself; the kinds that embed BaseTx inherit it.
func (tx *BaseTx) Base() *BaseTx { return tx }

func (*BaseTx) isUnsignedTx() {}

// Visit calls v.BaseTx with tx.
func (tx *BaseTx) Visit(v Visitor) error { return v.BaseTx(tx) }

// Marshal writes network ID, blockchain ID, outputs, inputs and memo.
func (tx *BaseTx) Marshal(p *codec.Packer) { (*baseFields)(tx).Marshal(p) }

// Unmarshal reads the fields written by Marshal.
func (tx *BaseTx) Unmarshal(u *codec.Unpacker) { (*baseFields)(tx).Unmarshal(u) }
