package acp77

import (
	"crypto/sha256"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
)

// ConversionData is what a ConvertSubnetToL1Tx converts a subnet to: its manager and initial
// validators, in the tx's order.
type ConversionData struct {
	SubnetID       ids.ID
	ManagerChainID ids.ID
	ManagerAddress []byte
	Validators     []ConversionValidator
}

// ConversionValidator is one initial validator of a conversion.
type ConversionValidator struct {
	// NodeID is written with a length prefix.
	NodeID       []byte
	BLSPublicKey [bls.PublicKeyLen]byte
	Weight       uint64
}

// Bytes returns the encoding: codec version 0, then the fields, with no type ID.
func (d *ConversionData) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, 2+2*ids.IDLen+4+len(d.ManagerAddress)+4+len(d.Validators)*(4+ids.NodeIDLen+bls.PublicKeyLen+8)))
	p.Version()
	p.ID(d.SubnetID)
	p.ID(d.ManagerChainID)
	p.VarBytes(d.ManagerAddress)
	p.Count(len(d.Validators))
	for i := range d.Validators {
		v := &d.Validators[i]
		p.VarBytes(v.NodeID)
		p.Fixed(v.BLSPublicKey[:])
		p.Uint64(v.Weight)
	}
	b, _ := p.Bytes() // Cannot fail: no interface fields; the tx's parser bounded the counts.
	return b
}

// ID returns the conversion ID: SHA-256 of Bytes, the ID a SubnetToL1Conversion carries.
func (d *ConversionData) ID() ids.ID { return sha256.Sum256(d.Bytes()) }
