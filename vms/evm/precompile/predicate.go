package precompile

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// predicateDelimiter ends a predicate's bytes before the zero padding (l1-evm.md §5.7).
const predicateDelimiter = 0xff

// PackPredicate returns b as access-list storage keys: b, the delimiter 0xff, then zeros to
// a multiple of 32 bytes, cut into 32-byte chunks (l1-evm.md §5.7).
func PackPredicate(b []byte) []common.Hash {
	padded := append(append(make([]byte, 0, len(b)+common.HashLength), b...), predicateDelimiter)
	for len(padded)%common.HashLength != 0 {
		padded = append(padded, 0)
	}
	keys := make([]common.Hash, len(padded)/common.HashLength)
	for i := range keys {
		keys[i] = common.Hash(padded[i*common.HashLength:])
	}
	return keys
}

// UnpackPredicate returns the bytes PackPredicate packed into keys.
func UnpackPredicate(keys []common.Hash) ([]byte, error) {
	b := make([]byte, 0, len(keys)*common.HashLength)
	for _, k := range keys {
		b = append(b, k[:]...)
	}
	end := len(b) - 1
	for end >= 0 && b[end] == 0 {
		end--
	}
	switch {
	case end < 0:
		return nil, ErrPredicateAllZero
	case len(b)-end > common.HashLength:
		return nil, ErrPredicateInvalidPadding
	case b[end] != predicateDelimiter:
		return nil, ErrPredicateInvalidDelimiter
	}
	return b[:end], nil
}

// WarpPredicate is one warp predicate of a transaction's access list: its storage keys, and
// whether its message verified when the block was built.
type WarpPredicate struct {
	Keys  []common.Hash
	Valid bool
}

// WarpPredicateKeys returns the storage keys of every warp tuple of list, in order: index i
// of getVerifiedWarpMessage is the i-th (l1-evm.md §5.7).
func WarpPredicateKeys(list types.AccessList) [][]common.Hash {
	var out [][]common.Hash
	for _, t := range list {
		if t.Address == l1params.WarpAddress {
			out = append(out, t.StorageKeys)
		}
	}
	return out
}
