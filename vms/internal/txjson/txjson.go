// Package txjson holds the JSON forms of a signed tx and of the fields every tx kind starts with,
// which the X- and P-Chains' getTx and getBlock (json encoding) write key for key alike
// (reference/platform-exchange.md §5.0, §6.5). Each chain's txs package instantiates them with its
// own credential, output and input forms, which differ (X-Chain credentials carry the fxID).
package txjson

import "github.com/cornice-node/cornice/ids"

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
