package payload

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// MaxSize is the largest payload the payload codec reads: 24 KiB, as the reference's.
const MaxSize = 24 * 1024

// Type IDs of the payload codec.
const (
	typeHash          uint32 = 0
	typeAddressedCall uint32 = 1
)

// ErrWrongType is returned when a payload is not of the kind asked for.
var ErrWrongType = errors.New("wrong payload type")

// Payload is a Hash or an AddressedCall.
type Payload interface {
	// Bytes returns the encoding: codec version 0, type ID, fields.
	Bytes() []byte
	isPayload()
}

// Hash is a 32-byte hash, such as the ID of a block of the source chain.
type Hash struct {
	Hash ids.ID
}

func (*Hash) isPayload() {}

// Bytes returns version 0, type ID 0, the hash.
func (h *Hash) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, 2+4+ids.IDLen))
	p.Version()
	p.TypeID(typeHash)
	p.ID(h.Hash)
	b, _ := p.Bytes() // Cannot fail: fixed fields.
	return b
}

// AddressedCall is Payload sent by SourceAddress of the source chain; the P-Chain's own
// messages have an empty source address.
type AddressedCall struct {
	SourceAddress []byte
	Payload       []byte
}

func (*AddressedCall) isPayload() {}

// Bytes returns version 0, type ID 1, the source address and payload, each with its u32 length.
func (a *AddressedCall) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, 2+4+4+len(a.SourceAddress)+4+len(a.Payload)))
	p.Version()
	p.TypeID(typeAddressedCall)
	p.VarBytes(a.SourceAddress)
	p.VarBytes(a.Payload)
	b, _ := p.Bytes() // Cannot fail: no interface fields.
	return b
}

// Parse decodes a payload that fills b exactly.
func Parse(b []byte) (Payload, error) {
	u := codec.NewUnpackerCopy(b, MaxSize)
	u.Version()
	var p Payload
	switch typ := u.TypeID(); {
	case u.Err() != nil:
	case typ == typeHash:
		p = &Hash{Hash: u.ID()}
	case typ == typeAddressedCall:
		p = &AddressedCall{SourceAddress: u.VarBytes(), Payload: u.VarBytes()}
	default:
		u.Fail(codec.UnknownTypeIDError("warp payload", typ))
	}
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("parse warp payload: %w", err)
	}
	return p, nil
}

// ParseHash decodes a Hash payload.
func ParseHash(b []byte) (*Hash, error) {
	return parseAs[*Hash](b)
}

// ParseAddressedCall decodes an AddressedCall payload.
func ParseAddressedCall(b []byte) (*AddressedCall, error) {
	return parseAs[*AddressedCall](b)
}

func parseAs[T Payload](b []byte) (T, error) {
	var zero T
	p, err := Parse(b)
	if err != nil {
		return zero, err
	}
	t, ok := p.(T)
	if !ok {
		return zero, fmt.Errorf("%w: %T", ErrWrongType, p)
	}
	return t, nil
}
