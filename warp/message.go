package warp

import (
	"crypto/sha256"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// MaxMessageSize is the largest encoded message the warp codec reads: 256 KiB, as the
// reference's warp codec.
const MaxMessageSize = 256 * 1024

// signatureTypeBitSet is the type ID of BitSetSignature, the only Signature kind (§4.1).
const signatureTypeBitSet uint32 = 0

// minUnsignedSize is the encoding of an unsigned message with an empty payload: version,
// network ID, source chain ID, payload length.
const minUnsignedSize = 2 + 4 + ids.IDLen + 4

// UnsignedMessage is what validators sign: the network, the chain that sent it and an opaque
// payload (network-consensus-warp.md §4.1).
type UnsignedMessage struct {
	NetworkID     uint32
	SourceChainID ids.ID
	Payload       []byte
}

// NewUnsignedMessage returns the message of payload from chain sourceChainID of network
// networkID. payload is copied.
func NewUnsignedMessage(networkID uint32, sourceChainID ids.ID, payload []byte) *UnsignedMessage {
	return &UnsignedMessage{NetworkID: networkID, SourceChainID: sourceChainID, Payload: append([]byte{}, payload...)}
}

// marshal writes the fields after the codec version.
func (m *UnsignedMessage) marshal(p *codec.Packer) {
	p.Uint32(m.NetworkID)
	p.ID(m.SourceChainID)
	p.VarBytes(m.Payload)
}

// unmarshal reads the fields marshal writes.
func (m *UnsignedMessage) unmarshal(u *codec.Unpacker) {
	m.NetworkID = u.Uint32()
	m.SourceChainID = u.ID()
	m.Payload = u.VarBytes()
}

// Bytes returns the encoding: codec version 0, network ID, source chain ID, payload with its
// u32 length. These are the bytes signed.
func (m *UnsignedMessage) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, minUnsignedSize+len(m.Payload)))
	p.Version()
	m.marshal(p)
	b, _ := p.Bytes() // Cannot fail: no interface fields; a payload over 2³¹ bytes is not a message.
	return b
}

// ID returns the message ID: SHA-256 of Bytes.
func (m *UnsignedMessage) ID() ids.ID {
	return sha256.Sum256(m.Bytes())
}

// ParseUnsignedMessage decodes an unsigned message that fills b exactly.
func ParseUnsignedMessage(b []byte) (*UnsignedMessage, error) {
	u := codec.NewUnpackerCopy(b, MaxMessageSize)
	u.Version()
	m := new(UnsignedMessage)
	m.unmarshal(u)
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("parse unsigned warp message: %w", err)
	}
	return m, nil
}

// Message is a signed message: the unsigned fields, then the signature (§4.1).
type Message struct {
	UnsignedMessage
	Signature BitSetSignature
}

// Bytes returns the encoding: version 0, the unsigned fields, signature type ID 0, the signer
// bitset with its u32 length, and the 96-byte aggregate signature.
func (m *Message) Bytes() []byte {
	p := codec.NewPacker(make([]byte, 0, minUnsignedSize+len(m.Payload)+4+4+len(m.Signature.Signers)+len(m.Signature.Signature)))
	p.Version()
	m.UnsignedMessage.marshal(p)
	p.TypeID(signatureTypeBitSet)
	p.VarBytes(m.Signature.Signers)
	p.Fixed(m.Signature.Signature[:])
	b, _ := p.Bytes() // Cannot fail, as for UnsignedMessage.Bytes.
	return b
}

// ID returns the ID of the unsigned message: signatures do not change it.
func (m *Message) ID() ids.ID { return m.UnsignedMessage.ID() }

// ParseMessage decodes a signed message that fills b exactly. The signature is not checked
// here: see [BitSetSignature.Verify].
func ParseMessage(b []byte) (*Message, error) {
	u := codec.NewUnpackerCopy(b, MaxMessageSize)
	u.Version()
	m := new(Message)
	m.UnsignedMessage.unmarshal(u)
	if typ := u.TypeID(); u.Err() == nil && typ != signatureTypeBitSet {
		u.Fail(fmt.Errorf("%w %d", ErrUnknownSignatureType, typ))
	}
	m.Signature.Signers = u.VarBytes()
	u.Fixed(m.Signature.Signature[:])
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("parse warp message: %w", err)
	}
	return m, nil
}
