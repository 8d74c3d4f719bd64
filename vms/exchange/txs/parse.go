package txs

import "github.com/cornice-node/cornice/codec"

// newUnpacker returns an Unpacker over a copy of b, so parsed values may alias the copy but never
// the caller's buffer. Inputs over maxSize are not copied: the Unpacker fails at once.
func newUnpacker(b []byte, maxSize int) *codec.Unpacker {
	if len(b) <= maxSize {
		b = append(make([]byte, 0, len(b)), b...)
	}
	return codec.NewUnpacker(b, maxSize)
}
