package admin

import "errors"

// User-visible errors of the admin service, sent as JSON-RPC -32000 messages (node-api.md §1.2
// step 6). node-api.md gives no texts for this service; the "argument '…' not given" form is the
// one info.isBootstrapped uses (§3.2).
var (
	// ErrChainNotGiven is returned when "chain" is missing or empty.
	ErrChainNotGiven = errors.New("argument 'chain' not given")
	// ErrAliasNotGiven is returned when "alias" is missing or empty.
	ErrAliasNotGiven = errors.New("argument 'alias' not given")
	// ErrAliasTooLong is returned for an alias longer than MaxAliasLength bytes, the reference
	// admin service's limit and text.
	ErrAliasTooLong = errors.New("alias length is too long")
	// ErrAliasNotPathSegment is returned for an alias that cannot be one path segment of
	// /ext/bc/<alias>: it contains '/', or is "." or "..". (The reference accepts such aliases and
	// creates odd routes; cornice refuses them.)
	ErrAliasNotPathSegment = errors.New("alias must be a single path segment without '/'")
)
