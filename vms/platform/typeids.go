package platform

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// P-Chain type IDs (reference/platform-exchange.md §1.3). The txs and block codecs share one
// numbering, including the gaps the reference keeps for the X-Chain's types (6, 8).
const (
	TypeIDApricotCommitBlock           uint32 = 2
	TypeIDTransferInput                uint32 = 5
	TypeIDTransferOutput               uint32 = 7
	TypeIDCredential                   uint32 = 9
	TypeIDInput                        uint32 = 10
	TypeIDOutputOwners                 uint32 = 11
	TypeIDAddSubnetValidatorTx         uint32 = 13
	TypeIDCreateChainTx                uint32 = 15
	TypeIDCreateSubnetTx               uint32 = 16
	TypeIDLockIn                       uint32 = 21
	TypeIDLockOut                      uint32 = 22
	TypeIDAddPermissionlessValidatorTx uint32 = 25
	TypeIDEmptySigner                  uint32 = 27
	TypeIDProofOfPossession            uint32 = 28
	TypeIDBanffAbortBlock              uint32 = 30
	TypeIDBanffCommitBlock             uint32 = 31
	TypeIDBanffStandardBlock           uint32 = 32
	TypeIDBaseTx                       uint32 = 34
	TypeIDConvertSubnetToL1Tx          uint32 = 35
	TypeIDRegisterL1ValidatorTx        uint32 = 36
	TypeIDSetL1ValidatorWeightTx       uint32 = 37
	TypeIDIncreaseL1ValidatorBalanceTx uint32 = 38
	TypeIDDisableL1ValidatorTx         uint32 = 39
)

// newUnsignedTx returns an empty tx of the kind with type ID id, or nil if id is not a tx kind.
func newUnsignedTx(id uint32) UnsignedTx {
	switch id {
	case TypeIDBaseTx:
		return &BaseTx{}
	case TypeIDCreateSubnetTx:
		return &CreateSubnetTx{}
	case TypeIDCreateChainTx:
		return &CreateChainTx{}
	case TypeIDAddSubnetValidatorTx:
		return &AddSubnetValidatorTx{}
	case TypeIDAddPermissionlessValidatorTx:
		return &AddPermissionlessValidatorTx{}
	case TypeIDConvertSubnetToL1Tx:
		return &ConvertSubnetToL1Tx{}
	case TypeIDRegisterL1ValidatorTx:
		return &RegisterL1ValidatorTx{}
	case TypeIDSetL1ValidatorWeightTx:
		return &SetL1ValidatorWeightTx{}
	case TypeIDIncreaseL1ValidatorBalanceTx:
		return &IncreaseL1ValidatorBalanceTx{}
	case TypeIDDisableL1ValidatorTx:
		return &DisableL1ValidatorTx{}
	}
	return nil
}

// marshalUnsignedTx writes tx's type ID and body.
func marshalUnsignedTx(p *codec.Packer, tx UnsignedTx) {
	if tx == nil {
		p.Fail(codec.UnregisteredTypeError("unsigned tx", nil))
		return
	}
	p.TypeID(tx.typeID())
	tx.Marshal(p)
}

// unmarshalUnsignedTx reads a type ID and the tx body it announces.
func unmarshalUnsignedTx(u *codec.Unpacker) UnsignedTx {
	id := u.TypeID()
	if u.Err() != nil {
		return nil
	}
	tx := newUnsignedTx(id)
	if tx == nil {
		u.Fail(codec.UnknownTypeIDError("unsigned tx", id))
		return nil
	}
	tx.Unmarshal(u)
	return tx
}

// marshalInput writes in's type ID and body: a TransferInput (5) or a LockIn (21).
func marshalInput(p *codec.Packer, in Input) {
	switch in := in.(type) {
	case *secp256k1fx.TransferInput:
		if in != nil {
			p.TypeID(TypeIDTransferInput)
			in.Marshal(p)
			return
		}
	case *LockIn:
		if in != nil {
			p.TypeID(TypeIDLockIn)
			in.Marshal(p)
			return
		}
	default:
		if in != nil {
			p.Fail(codec.UnregisteredTypeError("input", in))
			return
		}
	}
	p.Fail(codec.UnregisteredTypeError("input", nil))
}

// unmarshalInput reads an input's type ID and body.
func unmarshalInput(u *codec.Unpacker) Input {
	switch id := u.TypeID(); {
	case u.Err() != nil:
		return nil
	case id == TypeIDTransferInput:
		in := &secp256k1fx.TransferInput{}
		in.Unmarshal(u)
		return in
	case id == TypeIDLockIn:
		in := &LockIn{}
		in.Unmarshal(u)
		return in
	default:
		u.Fail(codec.UnknownTypeIDError("input", id))
		return nil
	}
}

// marshalOutput writes out's type ID and body: a TransferOutput (7) or a LockOut (22).
func marshalOutput(p *codec.Packer, out Output) {
	switch out := out.(type) {
	case *secp256k1fx.TransferOutput:
		if out != nil {
			p.TypeID(TypeIDTransferOutput)
			out.Marshal(p)
			return
		}
	case *LockOut:
		if out != nil {
			p.TypeID(TypeIDLockOut)
			out.Marshal(p)
			return
		}
	default:
		if out != nil {
			p.Fail(codec.UnregisteredTypeError("output", out))
			return
		}
	}
	p.Fail(codec.UnregisteredTypeError("output", nil))
}

// unmarshalOutput reads an output's type ID and body.
func unmarshalOutput(u *codec.Unpacker) Output {
	switch id := u.TypeID(); {
	case u.Err() != nil:
		return nil
	case id == TypeIDTransferOutput:
		out := &secp256k1fx.TransferOutput{}
		out.Unmarshal(u)
		return out
	case id == TypeIDLockOut:
		out := &LockOut{}
		out.Unmarshal(u)
		return out
	default:
		u.Fail(codec.UnknownTypeIDError("output", id))
		return nil
	}
}

// marshalSigner writes s's type ID and body: EmptySigner (27) or ProofOfPossession (28).
func marshalSigner(p *codec.Packer, s Signer) {
	switch s := s.(type) {
	case *EmptySigner:
		if s != nil {
			p.TypeID(TypeIDEmptySigner)
			return
		}
	case *ProofOfPossession:
		if s != nil {
			p.TypeID(TypeIDProofOfPossession)
			s.Marshal(p)
			return
		}
	}
	p.Fail(codec.UnregisteredTypeError("signer", nil))
}

// unmarshalSigner reads a signer's type ID and body.
func unmarshalSigner(u *codec.Unpacker) Signer {
	switch id := u.TypeID(); {
	case u.Err() != nil:
		return nil
	case id == TypeIDEmptySigner:
		return &EmptySigner{}
	case id == TypeIDProofOfPossession:
		s := &ProofOfPossession{}
		s.Unmarshal(u)
		return s
	default:
		u.Fail(codec.UnknownTypeIDError("signer", id))
		return nil
	}
}

// marshalOwner writes an owner field: always an OutputOwners (11), the only owner type the P-Chain
// registers.
func marshalOwner(p *codec.Packer, o *secp256k1fx.OutputOwners) {
	p.TypeID(TypeIDOutputOwners)
	o.Marshal(p)
}

// unmarshalOwner reads an owner field written by marshalOwner.
func unmarshalOwner(u *codec.Unpacker, field string, o *secp256k1fx.OutputOwners) {
	if id := u.TypeID(); u.Err() == nil && id != TypeIDOutputOwners {
		u.Fail(codec.UnknownTypeIDError(field, id))
		return
	}
	o.Unmarshal(u)
}

// marshalAuth writes an authorization field (SubnetAuth, DisableAuth): always an Input (10).
func marshalAuth(p *codec.Packer, in *secp256k1fx.Input) {
	p.TypeID(TypeIDInput)
	in.Marshal(p)
}

// unmarshalAuth reads an authorization field written by marshalAuth.
func unmarshalAuth(u *codec.Unpacker, field string, in *secp256k1fx.Input) {
	if id := u.TypeID(); u.Err() == nil && id != TypeIDInput {
		u.Fail(codec.UnknownTypeIDError(field, id))
		return
	}
	in.Unmarshal(u)
}
