package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// LockOut is an output that cannot be spent, only staked, before Locktime (unix seconds); type ID
// 22 (§3.1). The genesis wraps allocations that unlock after the genesis time in it (§4.6).
type LockOut struct {
	Locktime uint64
	// Out is the locked output. The reference accepts any registered output here; cornice reads
	// only a TransferOutput (type ID 7), the only one that can pass verification.
	Out *secp256k1fx.TransferOutput
}

// Marshal writes the locktime, then the inner output's type ID and body.
func (o *LockOut) Marshal(p *codec.Packer) {
	p.Uint64(o.Locktime)
	union.WriteOne(p, "locked output", TypeIDTransferOutput, o.Out)
}

// Unmarshal reads the fields written by Marshal.
func (o *LockOut) Unmarshal(u *codec.Unpacker) {
	o.Locktime = u.Uint64()
	o.Out = union.ReadOne[secp256k1fx.TransferOutput](u, "locked output", TypeIDTransferOutput)
}

// LockIn spends a LockOut; type ID 21 (§3.1).
type LockIn struct {
	Locktime uint64
	// In is the locked input; like LockOut.Out, only a TransferInput (type ID 5) is read.
	In *secp256k1fx.TransferInput
}

// Marshal writes the locktime, then the inner input's type ID and body.
func (in *LockIn) Marshal(p *codec.Packer) {
	p.Uint64(in.Locktime)
	union.WriteOne(p, "locked input", TypeIDTransferInput, in.In)
}

// Unmarshal reads the fields written by Marshal.
func (in *LockIn) Unmarshal(u *codec.Unpacker) {
	in.Locktime = u.Uint64()
	in.In = union.ReadOne[secp256k1fx.TransferInput](u, "locked input", TypeIDTransferInput)
}
