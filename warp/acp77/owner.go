package acp77

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// PChainOwner owns an L1 validator's remaining balance or may disable it: any Threshold of
// Addresses. Unlike OutputOwners it has no locktime and is never behind a type ID
// (platform-exchange.md §4.3). The P-Chain's txs use this type too.
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
