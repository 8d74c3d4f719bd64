package secp256k1fx

import "github.com/cornice-node/cornice/codec"

// SignatureLen is the length of a recoverable secp256k1 signature: r[32] ‖ s[32] ‖ v[1] (§3.2).
const SignatureLen = 65

// Signature is a recoverable secp256k1 signature over sha256 of a tx's unsigned bytes (§3.2).
type Signature [SignatureLen]byte

// Credential holds the signatures for one input or authorization, in the order of its
// SigIndices (type ID 9 on both chains).
type Credential struct {
	Sigs []Signature
}

// Marshal writes the signatures.
func (c *Credential) Marshal(p *codec.Packer) {
	p.Count(len(c.Sigs))
	for i := range c.Sigs {
		p.Fixed(c.Sigs[i][:])
	}
}

// Unmarshal reads the fields written by Marshal.
func (c *Credential) Unmarshal(u *codec.Unpacker) {
	n := u.Count(SignatureLen)
	if u.Err() != nil {
		return
	}
	c.Sigs = make([]Signature, n)
	for i := range c.Sigs {
		u.Fixed(c.Sigs[i][:])
	}
}
