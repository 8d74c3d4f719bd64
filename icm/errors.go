package icm

import "errors"

var (
	// ErrUnknownContract is a name contracts.json does not hold.
	ErrUnknownContract = errors.New("icm: unknown contract")
	// ErrNotAMessage is a payload that is not abi.encode of a TeleporterMessage.
	ErrNotAMessage = errors.New("icm: not a Teleporter message")
	// ErrNotKeyless is a transaction that is not a keyless deployment.
	ErrNotKeyless = errors.New("not a keyless deployment transaction")
)
