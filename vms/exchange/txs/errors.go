package txs

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/codec"
)

// Encoding errors. Decoding errors are the codec's sentinels (codec.ErrTruncated,
// codec.ErrUnknownTypeID, ...); none of these texts reaches an API client verbatim
// (reference/platform-exchange.md §1.1).
var (
	// ErrNilTx is returned when a block or a genesis is asked to encode a nil tx.
	ErrNilTx = fmt.Errorf("%w: tx", codec.ErrNilValue)
	// ErrUnsupportedTx is returned for a value without a JSON form (no decoder produces one).
	ErrUnsupportedTx = errors.New("unsupported tx type")
)
