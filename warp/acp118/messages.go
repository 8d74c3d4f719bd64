package acp118

import (
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/cornice-node/cornice/crypto/bls"
)

// HandlerID is the AppRequest handler of signature requests: its uvarint prefixes the request's
// app bytes (network-consensus-warp.md §4.3).
const HandlerID = 2

// Request is sdk.SignatureRequest: the unsigned warp message to sign (field 1) and the
// justification that convinces the signer (field 2).
type Request struct {
	Message       []byte
	Justification []byte
}

// Bytes returns the request's protobuf encoding, fields in order, empty ones left out.
func (r *Request) Bytes() []byte {
	var b []byte
	if len(r.Message) > 0 {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, r.Message)
	}
	if len(r.Justification) > 0 {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, r.Justification)
	}
	return b
}

// AppBytes returns the request as an AppRequest carries it: uvarint(HandlerID), then Bytes.
func (r *Request) AppBytes() []byte {
	return append(binary.AppendUvarint(nil, HandlerID), r.Bytes()...)
}

// ParseRequest decodes sdk.SignatureRequest; unknown fields are skipped, as protobuf does.
func ParseRequest(b []byte) (*Request, error) {
	r := &Request{}
	err := eachField(b, func(num protowire.Number, v []byte) {
		switch num {
		case 1:
			r.Message = v
		case 2:
			r.Justification = v
		}
	})
	if err != nil {
		return nil, parseError("signature request", err)
	}
	return r, nil
}

// ResponseBytes returns sdk.SignatureResponse{signature (field 1)}.
func ResponseBytes(sig *bls.Signature) []byte {
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, sig.Compress())
}

// ParseResponse decodes sdk.SignatureResponse and its signature.
func ParseResponse(b []byte) (*bls.Signature, error) {
	var raw []byte
	if err := eachField(b, func(num protowire.Number, v []byte) {
		if num == 1 {
			raw = v
		}
	}); err != nil {
		return nil, parseError("signature response", err)
	}
	sig, err := bls.SignatureFromBytes(raw)
	if err != nil {
		return nil, parseError("signature response", err)
	}
	return sig, nil
}

// eachField calls fn with each length-delimited field of b (copied); the others are skipped.
func eachField(b []byte, fn func(num protowire.Number, v []byte)) error {
	return walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ == protowire.BytesType {
			fn(num, v)
		}
		return nil
	})
}

// SplitAppBytes returns the handler ID an AppRequest's app bytes start with and the rest.
func SplitAppBytes(b []byte) (uint64, []byte, error) {
	id, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, fmt.Errorf("%w: app bytes without a handler ID", ErrParse)
	}
	return id, b[n:], nil
}
