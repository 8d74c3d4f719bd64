package txs

import "errors"

// ChainAlias is the P-Chain's primary alias, which its addresses start with (§2.4).
const ChainAlias = "P"

// Errors of the JSON forms: a value that no decoder produces has none. They reach a client only
// behind the service's "couldn't encode" text.
var (
	// ErrUnsupportedTx is returned for a tx kind, input, output or signer without a JSON form.
	ErrUnsupportedTx = errors.New("unsupported tx type")
	// ErrWrongBlockType is returned for a block type without a JSON form.
	ErrWrongBlockType = errors.New("only Banff standard blocks are built and accepted")
)
