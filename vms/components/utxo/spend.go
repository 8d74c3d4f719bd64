package utxo

import (
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Signed is a signed tx as a spend check reads it: its credentials, and the address each
// signature recovers to over its unsigned bytes (signed.Tx remembers them). Signer answers what
// recovery answers; want, the address the check expects, and keys, the remembered keys, only
// make it cheaper (secp256k1fx.Signers).
type Signed interface {
	Creds() []secp256k1fx.Credential
	Signer(keys *secp256k1fx.Signers, cred, sig int, want ids.ShortID) (ids.ShortID, error)
}

// VerifySpend checks that the transfer input in, of asset assetID, may spend a UTXO of asset
// uxAsset whose output is out, with tx's credential cred at time now (unix seconds, §3.3): the
// assets match, out is a TransferOutput, the owners authorize (VerifyAuth) and the amounts match.
// keys are the chain's remembered signers, or nil.
func VerifySpend(keys *secp256k1fx.Signers, assetID ids.ID, in *secp256k1fx.TransferInput, uxAsset ids.ID, out any, tx Signed, cred int, now uint64) error {
	if assetID != uxAsset {
		return ErrAssetIDMismatch
	}
	to, ok := out.(*secp256k1fx.TransferOutput)
	if !ok {
		return ErrWrongUTXOType
	}
	if err := VerifyAuth(keys, &in.Input, &to.OutputOwners, tx, cred, now); err != nil {
		return err
	}
	if in.Amount != to.Amount {
		return ErrMismatchedAmounts
	}
	return nil
}

// VerifyAuth checks that tx's credential cred holds, for each of in's signature indices, the
// signature over tx's unsigned hash of the owner's address at that index, and that the owner is
// unlocked at now (§3.3). keys are the chain's remembered signers, or nil.
func VerifyAuth(keys *secp256k1fx.Signers, in *secp256k1fx.Input, owner *secp256k1fx.OutputOwners, tx Signed, cred int, now uint64) error {
	switch idx := in.SigIndices; {
	case owner.Locktime > now:
		return fmt.Errorf("%w: until %d", ErrTimelocked, owner.Locktime)
	case len(idx) < int(owner.Threshold):
		return ErrTooFewSigners
	case len(idx) > int(owner.Threshold):
		return ErrTooManySigners
	case len(idx) != len(tx.Creds()[cred].Sigs):
		return ErrSignersMismatch
	}
	for j, k := range in.SigIndices {
		if int(k) >= len(owner.Addrs) {
			return ErrIndexOutOfBounds
		}
		addr, err := tx.Signer(keys, cred, j, owner.Addrs[k])
		if err != nil {
			return err
		}
		if addr != owner.Addrs[k] {
			return ErrWrongSig
		}
	}
	return nil
}
