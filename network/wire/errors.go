package wire

import (
	"errors"
	"fmt"
)

var (
	// ErrParse is wrapped by every failure to decode a message.
	ErrParse = errors.New("malformed p2p message")
	// ErrTooLarge is wrapped when a frame or a decompressed message exceeds its limit.
	ErrTooLarge = errors.New("p2p message too large")
)

func parseError(err error) error {
	return fmt.Errorf("%w: %w", ErrParse, err)
}
