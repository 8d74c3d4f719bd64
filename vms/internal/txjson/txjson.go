// Package txjson holds the JSON forms of a signed tx and of the fields every tx kind starts with,
// which the X- and P-Chains' getTx and getBlock (json encoding) write key for key alike
// (reference/platform-exchange.md §5.0, §6.5). Each chain's txs package instantiates them with its
// own credential, output and input forms, which differ (X-Chain credentials carry the fxID).
// The pieces both write alike (the secp256k1fx ID, transfer outputs, addresses, signatures) are
// here too.
package txjson

import (
	"encoding/hex"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Tx is the JSON form of a signed tx; C is the chain's credential form.
type Tx[C any] struct {
	UnsignedTx  any    `json:"unsignedTx"`
	Credentials []C    `json:"credentials"`
	ID          ids.ID `json:"id"`
}

// BaseTx is the JSON form of a BaseTx's fields; O and I are the chain's output and input forms.
type BaseTx[O, I any] struct {
	NetworkID    uint32 `json:"networkID"`
	BlockchainID ids.ID `json:"blockchainID"`
	Outputs      []O    `json:"outputs"`
	Inputs       []I    `json:"inputs"`
	Memo         string `json:"memo"`
}

// Secp256k1fxID is the ID of the feature extension that every output and input of both chains
// names in its JSON form (§2.3).
var Secp256k1fxID = ids.FromName("secp256k1fx")

// TransferOutput is the JSON form of a secp256k1fx.TransferOutput. Its keys are in alphabetical
// order: the reference marshals OutputOwners through a map (§5.0, §6.5).
type TransferOutput struct {
	Addresses []string `json:"addresses"`
	Amount    uint64   `json:"amount"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

// Addresses formats addrs as the chain's addresses, `<chainAlias>-<hrp>1…`.
func Addresses(chainAlias, hrp string, addrs []ids.ShortID) ([]string, error) {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		s, err := address.Format(chainAlias, hrp, a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Signatures writes each signature as "0x" + hex, without checksum.
func Signatures(sigs []secp256k1fx.Signature) []string {
	out := make([]string, len(sigs))
	for i := range sigs {
		out[i] = "0x" + hex.EncodeToString(sigs[i][:])
	}
	return out
}
