package secp256k1fx

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// OutputOwners says who may spend an output or authorize an action: any Threshold of Addrs, once
// Locktime (unix seconds) has passed. On the P-Chain it is also the owner of a subnet and of
// rewards (type ID 11 there).
type OutputOwners struct {
	Locktime  uint64
	Threshold uint32
	// Addrs are the owners' short addresses, strictly increasing by bytes.
	Addrs []ids.ShortID
}

// minOwnersSize is the encoded size of OutputOwners with no addresses.
const minOwnersSize = 8 + 4 + 4

// Marshal writes locktime, threshold and the addresses.
func (o *OutputOwners) Marshal(p *codec.Packer) {
	p.Uint64(o.Locktime)
	p.Uint32(o.Threshold)
	p.ShortIDs(o.Addrs)
}

// Unmarshal reads the fields written by Marshal.
func (o *OutputOwners) Unmarshal(u *codec.Unpacker) {
	o.Locktime = u.Uint64()
	o.Threshold = u.Uint32()
	o.Addrs = u.ShortIDs()
}

// Verify checks the rules of §3.1: threshold ≤ len(addrs), no addresses with threshold 0, and
// addresses sorted and unique.
func (o *OutputOwners) Verify() error {
	switch {
	case o == nil:
		return ErrNilOutput
	case int(o.Threshold) > len(o.Addrs):
		return ErrOutputUnspendable
	case o.Threshold == 0 && len(o.Addrs) > 0:
		return ErrOutputUnoptimized
	}
	for i := 1; i < len(o.Addrs); i++ {
		if o.Addrs[i-1].Compare(o.Addrs[i]) >= 0 {
			return ErrAddrsNotSortedUnique
		}
	}
	return nil
}
