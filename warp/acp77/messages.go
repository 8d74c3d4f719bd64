package acp77

import (
	"crypto/sha256"
	"fmt"
	"math"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
)

// MaxSize is the largest message the ACP-77 codec reads: 24 KiB, the payload codec's limit.
const MaxSize = 24 * 1024

// Type IDs of the message codec (platform-exchange.md §4.5).
const (
	typeSubnetToL1Conversion    uint32 = 0
	typeRegisterL1Validator     uint32 = 1
	typeL1ValidatorRegistration uint32 = 2
	typeL1ValidatorWeight       uint32 = 3
)

// Message is one of the four ACP-77 messages.
type Message interface {
	// Bytes returns the encoding: codec version 0, type ID, fields.
	Bytes() []byte
	typeID() uint32
	marshal(p *codec.Packer)
}

// encode writes version, m's type ID and fields.
func encode(m Message) []byte {
	p := codec.NewPacker(make([]byte, 0, 64))
	p.Version()
	p.TypeID(m.typeID())
	m.marshal(p)
	b, _ := p.Bytes() // Cannot fail: no interface fields.
	return b
}

// SubnetToL1Conversion says that a subnet was converted, naming the conversion by its ID.
type SubnetToL1Conversion struct {
	ID ids.ID
}

func (*SubnetToL1Conversion) typeID() uint32            { return typeSubnetToL1Conversion }
func (m *SubnetToL1Conversion) marshal(p *codec.Packer) { p.ID(m.ID) }

// Bytes returns the encoding of m.
func (m *SubnetToL1Conversion) Bytes() []byte { return encode(m) }

// RegisterL1Validator asks the P-Chain to add a validator to an L1 until Expiry.
type RegisterL1Validator struct {
	SubnetID ids.ID
	// NodeID is written with a length prefix.
	NodeID                []byte
	BLSPublicKey          [bls.PublicKeyLen]byte
	Expiry                uint64
	RemainingBalanceOwner PChainOwner
	DisableOwner          PChainOwner
	Weight                uint64
}

func (*RegisterL1Validator) typeID() uint32 { return typeRegisterL1Validator }
func (m *RegisterL1Validator) marshal(p *codec.Packer) {
	p.ID(m.SubnetID)
	p.VarBytes(m.NodeID)
	p.Fixed(m.BLSPublicKey[:])
	p.Uint64(m.Expiry)
	m.RemainingBalanceOwner.Marshal(p)
	m.DisableOwner.Marshal(p)
	p.Uint64(m.Weight)
}

// Bytes returns the encoding of m.
func (m *RegisterL1Validator) Bytes() []byte { return encode(m) }

// ValidationID returns the ID of the validation m registers: SHA-256 of its bytes.
func (m *RegisterL1Validator) ValidationID() ids.ID { return sha256.Sum256(m.Bytes()) }

// Verify checks what the reference's Verify does: not the Primary Network, a positive weight,
// a 20-byte node ID that is not all zeros. The owners are the P-Chain's to check, with its own
// rules for owners.
func (m *RegisterL1Validator) Verify() error {
	switch {
	case m.SubnetID == ids.Empty:
		return ErrInvalidSubnetID
	case m.Weight == 0:
		return ErrInvalidWeight
	case len(m.NodeID) != ids.NodeIDLen || isZero(m.NodeID):
		return ErrInvalidNodeID
	}
	return nil
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// L1ValidatorRegistration says whether a validation is registered (true) or never can be
// again (false).
type L1ValidatorRegistration struct {
	ValidationID ids.ID
	Registered   bool
}

func (*L1ValidatorRegistration) typeID() uint32 { return typeL1ValidatorRegistration }
func (m *L1ValidatorRegistration) marshal(p *codec.Packer) {
	p.ID(m.ValidationID)
	p.Bool(m.Registered)
}

// Bytes returns the encoding of m.
func (m *L1ValidatorRegistration) Bytes() []byte { return encode(m) }

// L1ValidatorWeight sets a validation's weight (0 removes it); nonces order the updates.
type L1ValidatorWeight struct {
	ValidationID ids.ID
	Nonce        uint64
	Weight       uint64
}

func (*L1ValidatorWeight) typeID() uint32 { return typeL1ValidatorWeight }
func (m *L1ValidatorWeight) marshal(p *codec.Packer) {
	p.ID(m.ValidationID)
	p.Uint64(m.Nonce)
	p.Uint64(m.Weight)
}

// Bytes returns the encoding of m.
func (m *L1ValidatorWeight) Bytes() []byte { return encode(m) }

// Verify refuses nonce 2⁶⁴−1 with a weight other than 0: that nonce is kept for removal.
func (m *L1ValidatorWeight) Verify() error {
	if m.Nonce == math.MaxUint64 && m.Weight != 0 {
		return ErrNonceReservedForRemoval
	}
	return nil
}

// Parse decodes an ACP-77 message that fills b exactly.
func Parse(b []byte) (Message, error) {
	u := codec.NewUnpackerCopy(b, MaxSize)
	u.Version()
	var m Message
	switch typ := u.TypeID(); {
	case u.Err() != nil:
	case typ == typeSubnetToL1Conversion:
		m = &SubnetToL1Conversion{ID: u.ID()}
	case typ == typeRegisterL1Validator:
		r := &RegisterL1Validator{SubnetID: u.ID(), NodeID: u.VarBytes()}
		u.Fixed(r.BLSPublicKey[:])
		r.Expiry = u.Uint64()
		r.RemainingBalanceOwner.Unmarshal(u)
		r.DisableOwner.Unmarshal(u)
		r.Weight = u.Uint64()
		m = r
	case typ == typeL1ValidatorRegistration:
		m = &L1ValidatorRegistration{ValidationID: u.ID(), Registered: u.Bool()}
	case typ == typeL1ValidatorWeight:
		m = &L1ValidatorWeight{ValidationID: u.ID(), Nonce: u.Uint64(), Weight: u.Uint64()}
	default:
		u.Fail(codec.UnknownTypeIDError("L1 message", typ))
	}
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("parse L1 message: %w", err)
	}
	return m, nil
}

// ParseSubnetToL1Conversion decodes a SubnetToL1Conversion.
func ParseSubnetToL1Conversion(b []byte) (*SubnetToL1Conversion, error) {
	return parseAs[*SubnetToL1Conversion](b)
}

// ParseRegisterL1Validator decodes a RegisterL1Validator.
func ParseRegisterL1Validator(b []byte) (*RegisterL1Validator, error) {
	return parseAs[*RegisterL1Validator](b)
}

// ParseL1ValidatorRegistration decodes an L1ValidatorRegistration.
func ParseL1ValidatorRegistration(b []byte) (*L1ValidatorRegistration, error) {
	return parseAs[*L1ValidatorRegistration](b)
}

// ParseL1ValidatorWeight decodes an L1ValidatorWeight.
func ParseL1ValidatorWeight(b []byte) (*L1ValidatorWeight, error) {
	return parseAs[*L1ValidatorWeight](b)
}

func parseAs[T Message](b []byte) (T, error) {
	var zero T
	m, err := Parse(b)
	if err != nil {
		return zero, err
	}
	t, ok := m.(T)
	if !ok {
		return zero, fmt.Errorf("%w: %T", ErrWrongType, m)
	}
	return t, nil
}
