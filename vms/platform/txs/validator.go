package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp/acp77"
)

// Validator is a staker's node, period and weight, as embedded in the staking txs (§4.3).
type Validator struct {
	NodeID ids.NodeID
	// Start and End are unix seconds. Since Durango the Start of a permissionless validator is
	// ignored (§4.9).
	Start  uint64
	End    uint64
	Weight uint64
}

// Marshal writes node ID, start, end and weight.
func (v *Validator) Marshal(p *codec.Packer) {
	p.NodeID(v.NodeID)
	p.Uint64(v.Start)
	p.Uint64(v.End)
	p.Uint64(v.Weight)
}

// Unmarshal reads the fields written by Marshal.
func (v *Validator) Unmarshal(u *codec.Unpacker) {
	v.NodeID = u.NodeID()
	v.Start = u.Uint64()
	v.End = u.Uint64()
	v.Weight = u.Uint64()
}

// PChainOwner owns an L1 validator's remaining balance or may disable it (§4.3): the warp
// messages' owner (RegisterL1Validator), one type for both.
type PChainOwner = acp77.PChainOwner
