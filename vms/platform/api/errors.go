package api

import (
	"errors"
	"fmt"
)

// Texts of the params that fail to decode (reference/platform-exchange.md §5.1). The jsonrpc
// engine sends them as JSON-RPC code -32000 with the text as the message.
var (
	// errInvalidHeight refuses a getValidatorsAt height that is neither a uint64 below 2^64-1 nor
	// "proposed" (vms/platformvm/api/height.go, §5.1).
	errInvalidHeight = errors.New("invalid height")
)

// sampleSizeError refuses a sampleValidators size above 65535.
func sampleSizeError(size uint64) error {
	return fmt.Errorf("size %d is out of range [0, 65535]", size)
}
