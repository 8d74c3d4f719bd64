package secp256k1fx

import "github.com/cornice-node/cornice/codec"

// Input names the owner addresses that sign, by index into OutputOwners.Addrs. On the P-Chain it is
// also the subnet and disable authorization (type ID 10 there).
type Input struct {
	// SigIndices are strictly increasing indices into the owners' addresses; credential signature
	// i belongs to address SigIndices[i].
	SigIndices []uint32
}

// Marshal writes the signature indices.
func (in *Input) Marshal(p *codec.Packer) { p.Uint32s(in.SigIndices) }

// Unmarshal reads the fields written by Marshal.
func (in *Input) Unmarshal(u *codec.Unpacker) { in.SigIndices = u.Uint32s() }

// Verify checks that the indices are sorted and unique (§3.1).
func (in *Input) Verify() error {
	for i := 1; i < len(in.SigIndices); i++ {
		if in.SigIndices[i-1] >= in.SigIndices[i] {
			return ErrInputIndicesNotSortedUnique
		}
	}
	return nil
}
