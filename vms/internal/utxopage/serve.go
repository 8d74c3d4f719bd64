package utxopage

import (
	"context"
	"errors"
	"slices"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/chainapi"
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
	// UTXOs returns the UTXO index getUTXOs' sourceChain names: the chain's own when it is empty
	// or names the chain, the atomic UTXOs another chain exported to it otherwise (Atomic), or
	// the client's error.
	UTXOs(sourceChain string) (Index, error)
	// ParseAddress parses one of the chain's addresses, answering with the client's text.
	ParseAddress(s string) (ids.ShortID, error)
	// FormatAddress formats one of the chain's addresses.
	FormatAddress(addr ids.ShortID) (string, error)
	// EncodeError answers a call asking for a UTXO in an encoding that cannot render it.
	EncodeError(enc ids.Encoding, err error) error
	// Internal logs an internal failure of getUTXOs and returns the client's text.
	Internal(err error) error
}

// Index is a set of UTXOs by owner: a chain's own (Own), or the atomic UTXOs of its shared memory
// (Atomic).
type Index interface {
	// UTXOIDs returns at most n IDs of the UTXOs addr owns, in ID order, after start.
	UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error)
	// UTXOBytes returns the UTXO's bytes, or found false if it is spent.
	UTXOBytes(id ids.ID) (b []byte, found bool, err error)
	// Pin returns the index as published now, every read of it seeing that one state
	// (storage.View.Pin), and its release, which the caller must call once. A page reads the
	// owners' index and then the UTXOs it names, through a pinned index: a block accepted
	// between them could otherwise show a UTXO spent and not the one its tx made, or both.
	Pin() (pinned Index, release func())
}

// ownReader is a chain's accepted state as Own reads it (chainstate.Reader).
type ownReader[R any] interface {
	UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error)
	UTXOBytes(id ids.ID) ([]byte, bool, error)
	Pinned() (R, func())
}

// Own returns the Index of a chain's own UTXOs in its accepted state r.
func Own[R ownReader[R]](r R) Index { return own[R]{r} }

type own[R ownReader[R]] struct{ r R }

func (o own[R]) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	return o.r.UTXOIDs(addr, start, n)
}

func (o own[R]) UTXOBytes(id ids.ID) ([]byte, bool, error) { return o.r.UTXOBytes(id) }

func (o own[R]) Pin() (Index, func()) {
	r, release := o.r.Pinned()
	return own[R]{r}, release
}

// Atomic returns the index of the atomic UTXOs that the chain sourceChain names (an alias or an
// ID string, resolved by chains) exported to the chain whose shared memory is shared. An unknown
// alias fails with `problem parsing source chainID "<alias>": <lookup error>` (§5.1, §6.5).
func Atomic(chains chains.ChainLookup, shared *atomic.SharedMemory, sourceChain string) (Index, error) {
	source, err := chains.Lookup(sourceChain)
	if err != nil {
		return nil, sourceChainError(sourceChain, err)
	}
	return AtomicFrom(shared, source), nil
}

// OwnOrAtomic returns the index a Chain's UTXOs answers with: own when sourceChain is empty or
// names the chain itself (isThis), else Atomic's.
func OwnOrAtomic(own Index, isThis func(alias string) bool, chains chains.ChainLookup, shared *atomic.SharedMemory, sourceChain string) (Index, error) {
	if sourceChain == "" || isThis(sourceChain) {
		return own, nil
	}
	return Atomic(chains, shared, sourceChain)
}

// AtomicFrom returns the index of the atomic UTXOs that source exported to the chain whose
// shared memory is shared, for a chain that resolves source itself.
func AtomicFrom(shared *atomic.SharedMemory, source ids.ID) Index {
	return atomicIndex{shared: shared, source: source}
}

// atomicIndex is the shared memory one chain exported to another.
type atomicIndex struct {
	shared *atomic.SharedMemory
	source ids.ID
}

func (a atomicIndex) Pin() (Index, func()) {
	shared, release := a.shared.Pinned()
	return atomicIndex{shared: shared, source: a.source}, release
}

func (a atomicIndex) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	return a.shared.Keys(a.source, addr, start, n)
}

func (a atomicIndex) UTXOBytes(id ids.ID) ([]byte, bool, error) {
	values, err := a.shared.Get(a.source, []ids.ID{id})
	switch {
	case errors.Is(err, atomic.ErrNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return values[0], true, nil
}

// Register registers getUTXOs, a heavy method, on srv: Serve on c.
func Register(srv *jsonrpc.Server, c Chain) {
	jsonrpc.RegisterHeavy(srv, "getUTXOs", func(ctx context.Context, args *chainapi.GetUTXOsArgs) (*chainapi.GetUTXOsReply, error) {
		return Serve(ctx, c, args)
	})
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
	index, err := c.UTXOs(args.SourceChain)
	if err != nil {
		return nil, err
	}
	index, release := index.Pin()
	defer release()
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
			return nil, startAddressError(args.StartIndex.Address, err)
		}
		if startUTXO, err = ids.FromString(args.StartIndex.UTXO); err != nil {
			return nil, startUTXOError(err)
		}
	}
	limit := int(args.Limit)
	if limit <= 0 || limit > MaxPageSize {
		limit = MaxPageSize
	}
	page, err := Walk(ctx, encodedStore{c, index, args.Encoding}, addrs, startAddr, startUTXO, limit)
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

// encodedStore is the Store of a UTXO index of a Chain, each UTXO rendered in enc.
type encodedStore struct {
	c     Chain
	index Index
	enc   ids.Encoding
}

// UTXOIDs implements Store: the index, its failures answered with the chain's internal text.
func (s encodedStore) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	utxoIDs, err := s.index.UTXOIDs(addr, start, n)
	if err != nil {
		return nil, s.c.Internal(err)
	}
	return utxoIDs, nil
}

// UTXO implements Store: the chain's UTXO bytes in s.enc, a failure to encode answered with the
// chain's text for that encoding.
func (s encodedStore) UTXO(id ids.ID) (string, bool, error) {
	b, found, err := s.index.UTXOBytes(id)
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
