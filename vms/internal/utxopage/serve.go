package utxopage

import (
	"context"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/internal/chainapi"
)

// getUTXOs limits (§5.1).
const (
	// MaxAddresses is the most addresses one getUTXOs call may name.
	MaxAddresses = 1024
	// MaxPageSize is the most UTXOs one getUTXOs call returns, and the page in which the chains
	// read an address's UTXO IDs for their balances.
	MaxPageSize = 1024
)

// Chain is what Serve needs of a chain's service. Its errors are returned unchanged, so a chain
// answers with its own texts.
type Chain interface {
	// IsThisChain reports whether alias names the chain: its alias, its VM's name or its ID.
	IsThisChain(alias string) bool
	// ParseAddress parses one of the chain's addresses, answering with the client's text.
	ParseAddress(s string) (ids.ShortID, error)
	// FormatAddress formats one of the chain's addresses.
	FormatAddress(addr ids.ShortID) (string, error)
	// UTXOIDs returns at most n IDs of the UTXOs addr owns, in ID order, after start.
	UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error)
	// UTXOBytes returns the UTXO's bytes, or found false if it is spent.
	UTXOBytes(id ids.ID) (b []byte, found bool, err error)
	// EncodeError answers a call asking for a UTXO in an encoding that cannot render it.
	EncodeError(enc ids.Encoding, err error) error
	// Internal logs an internal failure of getUTXOs and returns the client's text.
	Internal(err error) error
}

// Serve answers getUTXOs on c (§5.1): a page of the UTXOs the addresses own, addresses in byte
// order, each one's UTXOs in ID order, from after startIndex, each UTXO once, at most limit
// (MaxPageSize when 0 or more). endIndex is where the next page starts.
func Serve(ctx context.Context, c Chain, args *chainapi.GetUTXOsArgs) (*chainapi.GetUTXOsReply, error) {
	switch n := len(args.Addresses); {
	case n == 0:
		return nil, ErrNoAddresses
	case n > MaxAddresses:
		return nil, tooManyAddressesError(n)
	}
	if args.SourceChain != "" && !c.IsThisChain(args.SourceChain) {
		return nil, errSharedMemory
	}
	addrs, err := ParseAddresses(c.ParseAddress, args.Addresses)
	if err != nil {
		return nil, err
	}
	var (
		startAddr ids.ShortID
		startUTXO ids.ID
	)
	if args.StartIndex.Address != "" || args.StartIndex.UTXO != "" {
		if startAddr, err = c.ParseAddress(args.StartIndex.Address); err != nil {
			return nil, startIndexError(err)
		}
		if startUTXO, err = ids.FromString(args.StartIndex.UTXO); err != nil {
			return nil, startIndexError(err)
		}
	}
	limit := int(args.Limit)
	if limit <= 0 || limit > MaxPageSize {
		limit = MaxPageSize
	}
	page, err := Walk(ctx, encodedStore{c, args.Encoding}, addrs, startAddr, startUTXO, limit)
	if err != nil {
		return nil, err
	}
	endAddr, err := c.FormatAddress(page.LastAddr)
	if err != nil {
		return nil, c.Internal(err)
	}
	return &chainapi.GetUTXOsReply{
		NumFetched: jsonrpc.Uint64(len(page.UTXOs)),
		UTXOs:      page.UTXOs,
		EndIndex:   chainapi.Index{Address: endAddr, UTXO: page.LastUTXO.String()},
		Encoding:   args.Encoding,
	}, nil
}

// ParseAddresses parses strs with parse, then sorts and deduplicates them. parse's error is
// returned unchanged.
func ParseAddresses(parse func(string) (ids.ShortID, error), strs []string) ([]ids.ShortID, error) {
	addrs := make([]ids.ShortID, 0, len(strs))
	for _, str := range strs {
		addr, err := parse(str)
		if err != nil {
			return nil, err
		}
		addrs = append(addrs, addr)
	}
	slices.SortFunc(addrs, ids.ShortID.Compare)
	return slices.Compact(addrs), nil
}

// encodedStore is the Store of a Chain's UTXO index, each UTXO rendered in enc.
type encodedStore struct {
	c   Chain
	enc ids.Encoding
}

// UTXOIDs implements Store: the chain's index, its failures answered with the chain's internal
// text.
func (s encodedStore) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	utxoIDs, err := s.c.UTXOIDs(addr, start, n)
	if err != nil {
		return nil, s.c.Internal(err)
	}
	return utxoIDs, nil
}

// UTXO implements Store: the chain's UTXO bytes in s.enc, a failure to encode answered with the
// chain's text for that encoding.
func (s encodedStore) UTXO(id ids.ID) (string, bool, error) {
	b, found, err := s.c.UTXOBytes(id)
	switch {
	case err != nil:
		return "", false, s.c.Internal(err)
	case !found:
		return "", false, nil
	}
	str, err := s.enc.Encode(b)
	if err != nil {
		return "", false, s.c.EncodeError(s.enc, err)
	}
	return str, true, nil
}
