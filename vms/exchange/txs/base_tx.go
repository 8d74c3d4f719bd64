package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// baseFields is the BaseTx fields and their encoding, shared with the P-Chain.
type baseFields = utxo.BaseTx[*secp256k1fx.TransferOutput, transferOutputKind, *secp256k1fx.TransferInput, transferInputKind]

// BaseTx moves funds (type ID 0). Its fields start every other tx kind (§6.2): the network ID,
// the X-Chain's ID (empty in a genesis asset), the outputs, the inputs and a memo of at most 256
// bytes (checked by the chain, §6.2).
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
