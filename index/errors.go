package index

import (
	"errors"
	"fmt"
	"strconv"
)

// Texts a client can see. Every handler error goes out as JSON-RPC code -32000 with err.Error() as
// the message (node-api.md §1.2 step 6, §1.7): the jsonrpc engine applies that mapping to any error
// that is not a *jsonrpc.Error, so the Index service declares no codes of its own. Handlers return
// these values unwrapped; an internal cause is logged and answered with errInternal.
var (
	// errNoContainers answers getLastAccepted and getContainerRange on an empty index
	// (node-api.md §5.5).
	errNoContainers = errors.New("no containers have been accepted")
	// errNotFound answers getContainerByID and getIndex for an ID that is not in the index
	// (node-api.md §5.5).
	errNotFound = errors.New("not found")
	// errUnsupportedEncoding answers a request for the json encoding, which cannot render raw
	// bytes (node-api.md §5.5, §6; the text of the reference's formatting package).
	errUnsupportedEncoding = errors.New("unsupported encoding in method")
	// errInternal answers a call that failed for a reason the client cannot act on (a database
	// error, a damaged entry, a database closed during shutdown). The reference passes the database's
	// own text on; the text is ours and matches what the jsonrpc engine sends for a panic.
	errInternal = errors.New("internal error")
)

// errNoContainerAt answers getContainerByIndex for an index past the last one, or on an empty index:
// `no container at index <n>` (node-api.md §5.5).
func errNoContainerAt(index uint64) error {
	return errors.New("no container at index " + strconv.FormatUint(index, 10))
}

// errNumToFetch answers getContainerRange with numToFetch above MaxFetch. The reference's text is
// `numToFetch must be in [1,1024] but is <n>` (node-api.md §5.5), but our spec allows 0
// (reference/README.md, "Precedence" 1), so the interval says [0,1024].
func errNumToFetch(n uint64) error {
	return fmt.Errorf("numToFetch must be in [0,%d] but is %d", MaxFetch, n)
}

// errStartIndex answers getContainerRange when startIndex is past the last index: `start index (<s>)
// > last accepted index (<l>)`, the '>' going out as \u003e (node-api.md §5.5, §1.3).
func errStartIndex(start, last uint64) error {
	return fmt.Errorf("start index (%d) > last accepted index (%d)", start, last)
}

// Start-up refusals (node-api.md §5.7). Check returns them unwrapped; the node adds the chain's name
// and prints the result on stderr before exiting non-zero (reference/README.md, "Precedence" 3).
var (
	// ErrWouldBecomeIncomplete refuses a start with indexing disabled on a chain that was indexed
	// before, unless incomplete indexes are allowed (the reference's FATAL log text).
	ErrWouldBecomeIncomplete = errors.New("running would cause index to become incomplete but incomplete indices are disabled")
	// ErrIncomplete refuses a start with indexing enabled on a chain whose index misses containers
	// (the node ran without indexing on this database), unless incomplete indexes are allowed. The
	// reference logs this text followed by ". Shutting down".
	ErrIncomplete = errors.New("index is incomplete but incomplete indices are disabled")
)

// Errors only the node's code or its operator sees.
var (
	// ErrInvalidConfig is wrapped by New when a dependency is missing.
	ErrInvalidConfig = errors.New("index: invalid config")
	// ErrRegistered is wrapped by Register when the chain was registered before.
	ErrRegistered = errors.New("index: chain already registered")
	// ErrInvalidKind is wrapped by Register for an unknown or repeated Kind.
	ErrInvalidKind = errors.New("index: invalid kind")
	// errCorrupt is wrapped when a stored entry cannot be read: the database was damaged or
	// written by something else.
	errCorrupt = errors.New("index: corrupt entry")
	// errTooLarge is wrapped by Accept for a container of 4 GiB or more, which the stored form
	// cannot hold (impossible for a real block).
	errTooLarge = errors.New("index: container too large")
)
