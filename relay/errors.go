package relay

import "errors"

var (
	// errNotFunded is a relayer that cannot pay for a delivery and no one to top it up.
	errNotFunded = errors.New("the relayer has no funds on the destination chain")
	// errNotAllowed is a relayer left out of the destination's transaction allow list, with
	// no one to enable it.
	errNotAllowed = errors.New("the relayer is not on the destination's transaction allow list")
	// errNoMessenger is a destination without a messenger at the source messenger's address.
	errNoMessenger = errors.New("no messenger")
)
