package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/warp/acp77"
)

// ConvertSubnetToL1Tx turns a subnet into an L1 managed by the contract at Address on chain ChainID
// (type ID 35). Validator i gets the validation ID SubnetID.Append(i) (§2.3, §4.4).
type ConvertSubnetToL1Tx struct {
	BaseTx
	SubnetID ids.ID
	// ChainID is the manager chain.
	ChainID ids.ID
	// Address is the manager address, at most 4096 bytes.
	Address []byte
	// Validators must be non-empty, sorted by NodeID bytes and unique.
	Validators []ConvertSubnetToL1Validator
	// SubnetAuth names the subnet owner's signers; written with type ID 10.
	SubnetAuth secp256k1fx.Input
}

func (*ConvertSubnetToL1Tx) isUnsignedTx() {}

// Visit calls v.ConvertSubnetToL1Tx with tx.
func (tx *ConvertSubnetToL1Tx) Visit(v Visitor) error { return v.ConvertSubnetToL1Tx(tx) }

// ValidationID returns the validation ID of the validator at index i (§2.3).
func (tx *ConvertSubnetToL1Tx) ValidationID(i uint32) ids.ID {
	return tx.SubnetID.Append(i)
}

// Marshal writes the BaseTx fields, subnet ID, chain ID, address, validators and authorization.
func (tx *ConvertSubnetToL1Tx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.SubnetID)
	p.ID(tx.ChainID)
	p.VarBytes(tx.Address)
	union.WriteList(p, tx.Validators)
	marshalAuth(p, &tx.SubnetAuth)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ConvertSubnetToL1Tx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.SubnetID = u.ID()
	tx.ChainID = u.ID()
	tx.Address = u.VarBytes()
	tx.Validators = union.ReadList[ConvertSubnetToL1Validator](u, minConvertValidatorSize)
	unmarshalAuth(u, "subnet authorization", &tx.SubnetAuth)
}

// minConvertValidatorSize is the encoded size of a ConvertSubnetToL1Validator with an empty node ID
// and owners without addresses.
const minConvertValidatorSize = 4 + 8 + 8 + BLSPublicKeyLen + BLSSignatureLen + 2*(4+4)

// ConvertSubnetToL1Validator is an initial L1 validator (§4.3). It has no type ID.
type ConvertSubnetToL1Validator struct {
	// NodeID is written with a length prefix; the chain requires 20 bytes.
	NodeID []byte
	// Weight must be positive.
	Weight uint64
	// Balance pays the continuous fee (§4.7); 0 makes the validator inactive from the start.
	Balance uint64
	// Signer is written inline, without a type ID.
	Signer                ProofOfPossession
	RemainingBalanceOwner PChainOwner
	DeactivationOwner     PChainOwner
}

// Marshal writes node ID, weight, balance, signer and both owners.
func (v *ConvertSubnetToL1Validator) Marshal(p *codec.Packer) {
	p.VarBytes(v.NodeID)
	p.Uint64(v.Weight)
	p.Uint64(v.Balance)
	v.Signer.Marshal(p)
	v.RemainingBalanceOwner.Marshal(p)
	v.DeactivationOwner.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (v *ConvertSubnetToL1Validator) Unmarshal(u *codec.Unpacker) {
	v.NodeID = u.VarBytes()
	v.Weight = u.Uint64()
	v.Balance = u.Uint64()
	v.Signer.Unmarshal(u)
	v.RemainingBalanceOwner.Unmarshal(u)
	v.DeactivationOwner.Unmarshal(u)
}

// ConversionID returns the ID of tx's SubnetToL1ConversionData (§2.3): the manager and each
// validator's node ID, compressed BLS key and weight, hashed by package acp77, the one
// implementation the P-Chain and the warp messages share.
func ConversionID(tx *ConvertSubnetToL1Tx) ids.ID {
	d := acp77.ConversionData{
		SubnetID:       tx.SubnetID,
		ManagerChainID: tx.ChainID,
		ManagerAddress: tx.Address,
		Validators:     make([]acp77.ConversionValidator, len(tx.Validators)),
	}
	for i := range tx.Validators {
		v := &tx.Validators[i]
		d.Validators[i] = acp77.ConversionValidator{NodeID: v.NodeID, BLSPublicKey: v.Signer.PublicKey, Weight: v.Weight}
	}
	return d.ID()
}
