package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
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

// PChainOwner owns an L1 validator's remaining balance or may disable it: any Threshold of
// Addresses. Unlike OutputOwners it has no locktime and is never behind a type ID (§4.3).
type PChainOwner struct {
	Threshold uint32
	Addresses []ids.ShortID
}

// Marshal writes the threshold, then the addresses.
func (o *PChainOwner) Marshal(p *codec.Packer) {
	p.Uint32(o.Threshold)
	p.ShortIDs(o.Addresses)
}

// Unmarshal reads the fields written by Marshal.
func (o *PChainOwner) Unmarshal(u *codec.Unpacker) {
	o.Threshold = u.Uint32()
	o.Addresses = u.ShortIDs()
}

// Bytes returns the owner as the P-Chain stores it: codec version, then the fields (§4.3).
func (o *PChainOwner) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, 2+4+4+ids.ShortIDLen*len(o.Addresses)))
	p.Version()
	o.Marshal(p)
	b, _ := p.Bytes() // Cannot fail: no interface fields, and the count fits in a uint32.
	return b
}
