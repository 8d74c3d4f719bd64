package acp118

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// RegistrationJustification is platformvm.L1ValidatorRegistrationJustification, the
// justification of a request for the P-Chain's L1ValidatorRegistration(false): one of the
// preimages of the validation ID — a conversion's subnet ID and validator index
// (SubnetIDIndex, field 1), or the RegisterL1Validator message bytes (field 2).
type RegistrationJustification struct {
	// SubnetID and Index are set when ConvertSubnetToL1 is true.
	ConvertSubnetToL1 bool
	SubnetID          []byte
	Index             uint32
	// RegisterL1ValidatorMessage is set otherwise.
	RegisterL1ValidatorMessage []byte
}

// Bytes returns the protobuf encoding.
func (j *RegistrationJustification) Bytes() []byte {
	if !j.ConvertSubnetToL1 {
		b := protowire.AppendTag(nil, 2, protowire.BytesType)
		return protowire.AppendBytes(b, j.RegisterL1ValidatorMessage)
	}
	var inner []byte
	if len(j.SubnetID) > 0 {
		inner = protowire.AppendTag(inner, 1, protowire.BytesType)
		inner = protowire.AppendBytes(inner, j.SubnetID)
	}
	if j.Index != 0 {
		inner = protowire.AppendTag(inner, 2, protowire.VarintType)
		inner = protowire.AppendVarint(inner, uint64(j.Index))
	}
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, inner)
}

// ParseRegistrationJustification decodes the justification; found is false when it holds
// neither preimage.
func ParseRegistrationJustification(b []byte) (j *RegistrationJustification, found bool, err error) {
	j = &RegistrationJustification{}
	err = walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case 1:
			found = true
			*j = RegistrationJustification{ConvertSubnetToL1: true}
			return walk(v, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
				switch {
				case num == 1 && typ == protowire.BytesType:
					j.SubnetID = v
				case num == 2 && typ == protowire.VarintType:
					j.Index = uint32(x)
				}
				return nil
			})
		case 2:
			found = true
			*j = RegistrationJustification{RegisterL1ValidatorMessage: v}
		}
		return nil
	})
	if err != nil {
		return nil, false, parseError("registration justification", err)
	}
	return j, found, nil
}

// walk calls fn with each field of b: its number and type, and its bytes (copied) for a
// length-delimited field or its value for a varint; other types are skipped.
func walk(b []byte, fn func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var (
			v []byte
			x uint64
		)
		switch typ {
		case protowire.BytesType:
			var raw []byte
			raw, n = protowire.ConsumeBytes(b)
			v = append([]byte{}, raw...)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}
