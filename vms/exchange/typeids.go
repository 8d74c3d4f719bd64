package exchange

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// X-Chain type IDs (reference/platform-exchange.md §1.3): the five tx kinds, then each fx's types
// in fx order (secp256k1fx 5–9, nftfx 10–14, propertyfx 15–19), then the standard block. The txs,
// block and genesis codecs share this numbering.
const (
	TypeIDBaseTx         uint32 = 0
	TypeIDCreateAssetTx  uint32 = 1
	TypeIDOperationTx    uint32 = 2
	TypeIDImportTx       uint32 = 3
	TypeIDExportTx       uint32 = 4
	TypeIDTransferInput  uint32 = 5
	TypeIDMintOutput     uint32 = 6
	TypeIDTransferOutput uint32 = 7
	TypeIDMintOperation  uint32 = 8
	TypeIDCredential     uint32 = 9
	TypeIDStandardBlock  uint32 = 20
)

// newUnsignedTx returns an empty tx of the kind with type ID id, or nil if id is not a tx kind.
func newUnsignedTx(id uint32) UnsignedTx {
	switch id {
	case TypeIDBaseTx:
		return &BaseTx{}
	case TypeIDCreateAssetTx:
		return &CreateAssetTx{}
	case TypeIDOperationTx:
		return &OperationTx{}
	case TypeIDImportTx:
		return &ImportTx{}
	case TypeIDExportTx:
		return &ExportTx{}
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

// marshalOutput writes out's type ID and body: a TransferOutput (7) or a MintOutput (6).
func marshalOutput(p *codec.Packer, out Output) {
	switch out := out.(type) {
	case *secp256k1fx.TransferOutput:
		if out != nil {
			p.TypeID(TypeIDTransferOutput)
			out.Marshal(p)
			return
		}
	case *secp256k1fx.MintOutput:
		if out != nil {
			p.TypeID(TypeIDMintOutput)
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
	case id == TypeIDMintOutput:
		out := &secp256k1fx.MintOutput{}
		out.Unmarshal(u)
		return out
	default:
		u.Fail(codec.UnknownTypeIDError("output", id))
		return nil
	}
}

// expectTypeID reads a type ID and fails unless it is want: for fields whose interface only one
// registered type implements (a transferable input or output, an operation, a credential).
func expectTypeID(u *codec.Unpacker, field string, want uint32) {
	if id := u.TypeID(); u.Err() == nil && id != want {
		u.Fail(codec.UnknownTypeIDError(field, id))
	}
}
