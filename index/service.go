package index

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// MaxFetch is the most containers one index.getContainerRange returns (the reference's
// MaxFetchedByRange, node-api.md §5.5).
const MaxFetch = 1024

// service answers the Index API of one index (node-api.md §5.5). It is safe for concurrent use.
type service struct {
	ix  *index
	log *slog.Logger
}

// newHandler returns the JSON-RPC server of one index, service name "index".
func newHandler(ix *index, log *slog.Logger) http.Handler {
	s := &service{ix: ix, log: log}
	srv := jsonrpc.NewServer("index", log)
	jsonrpc.Register(srv, "getLastAccepted", s.GetLastAccepted)
	jsonrpc.Register(srv, "getContainerByIndex", s.GetContainerByIndex)
	jsonrpc.Register(srv, "getContainerByID", s.GetContainerByID)
	jsonrpc.RegisterHeavy(srv, "getContainerRange", s.GetContainerRange)
	jsonrpc.Register(srv, "getIndex", s.GetIndex)
	jsonrpc.Register(srv, "isAccepted", s.IsAccepted)
	return srv
}

// GetLastAccepted returns the most recently accepted container, or `no containers have been
// accepted` on an empty index.
func (s *service) GetLastAccepted(_ context.Context, args *GetLastAcceptedArgs) (*Container, error) {
	ix, release := s.ix.pinned()
	defer release()
	next, err := ix.readNext()
	if err != nil {
		return nil, s.internal("getLastAccepted", err)
	}
	if next == 0 {
		return nil, errNoContainers
	}
	return s.containerAt(ix, "getLastAccepted", next-1, args.Encoding)
}

// GetContainerByIndex returns the container at args.Index, or `no container at index <n>`.
func (s *service) GetContainerByIndex(_ context.Context, args *GetContainerByIndexArgs) (*Container, error) {
	return s.containerAt(s.ix, "getContainerByIndex", uint64(args.Index), args.Encoding)
}

// GetContainerByID returns the container args.ID, or `not found`.
func (s *service) GetContainerByID(_ context.Context, args *GetContainerByIDArgs) (*Container, error) {
	i, c, found, err := s.ix.lookup(args.ID)
	if err != nil {
		return nil, s.internal("getContainerByID", err)
	}
	if !found {
		return nil, errNotFound
	}
	fc, err := format(c, i, args.Encoding)
	if err != nil {
		return nil, err
	}
	return &fc, nil
}

// GetContainerRange returns up to args.NumToFetch containers from args.StartIndex on, in index
// order, read with one iterator from one snapshot. The checks, in order (node-api.md §5.5, with our
// spec's rule for 0 from reference/README.md):
//  1. numToFetch above MaxFetch: `numToFetch must be in [0,1024] but is <n>`;
//  2. numToFetch 0: no containers, on any index;
//  3. an empty index: `no containers have been accepted`;
//  4. startIndex past the last index: `start index (<s>) > last accepted index (<l>)`.
//
// A range running past the end returns the containers up to the last one.
func (s *service) GetContainerRange(ctx context.Context, args *GetContainerRangeArgs) (*GetContainerRangeReply, error) {
	n, start := uint64(args.NumToFetch), uint64(args.StartIndex)
	switch {
	case n > MaxFetch:
		return nil, errNumToFetch(n)
	case n == 0:
		return &GetContainerRangeReply{Containers: []Container{}}, nil
	}
	// The counter and the containers from one state: a roll-back committed between them would
	// otherwise answer a start index it has just made too high with an empty range.
	ix, release := s.ix.pinned()
	defer release()
	next, err := ix.readNext()
	if err != nil {
		return nil, s.internal("getContainerRange", err)
	}
	if next == 0 {
		return nil, errNoContainers
	}
	if start >= next {
		return nil, errStartIndex(start, next-1)
	}
	// The iterator reads the state next was read from: it finds min(n, next-start) containers.
	out := make([]Container, 0, min(n, next-start))
	var encErr error
	err = ix.scan(ctx, start, n, func(i uint64, c stored) error {
		fc, err := format(c, i, args.Encoding)
		if err != nil {
			encErr = err
			return err
		}
		out = append(out, fc)
		return nil
	})
	switch {
	case encErr != nil:
		return nil, encErr
	case err != nil && ctx.Err() != nil:
		// The client went away or its deadline passed; nobody reads the answer.
		return nil, ctx.Err()
	case err != nil:
		return nil, s.internal("getContainerRange", err)
	}
	return &GetContainerRangeReply{Containers: out}, nil
}

// GetIndex returns the index of the container args.ID, or `not found`.
func (s *service) GetIndex(_ context.Context, args *GetIndexArgs) (*GetIndexReply, error) {
	i, _, found, err := s.ix.lookup(args.ID)
	if err != nil {
		return nil, s.internal("getIndex", err)
	}
	if !found {
		return nil, errNotFound
	}
	return &GetIndexReply{Index: jsonrpc.Uint64(i)}, nil
}

// IsAccepted reports whether the container args.ID is in the index; an unknown ID is not an error.
func (s *service) IsAccepted(_ context.Context, args *IsAcceptedArgs) (*IsAcceptedReply, error) {
	ok, err := s.ix.has(args.ID)
	if err != nil {
		return nil, s.internal("isAccepted", err)
	}
	return &IsAcceptedReply{IsAccepted: ok}, nil
}

// containerAt returns the container at index i of ix, or `no container at index <i>`.
func (s *service) containerAt(ix *index, method string, i uint64, enc ids.Encoding) (*Container, error) {
	c, found, err := ix.at(i)
	if err != nil {
		return nil, s.internal(method, err)
	}
	if !found {
		return nil, errNoContainerAt(i)
	}
	fc, err := format(c, i, enc)
	if err != nil {
		return nil, err
	}
	return &fc, nil
}

// internal logs the cause of a failed call and returns the text the client gets.
func (s *service) internal(method string, err error) error {
	s.log.Error("index call failed", "method", "index."+method, "err", err)
	return errInternal
}

// format renders a stored container for a reply. The encoding is checked only here, after the
// container was found, so the errors keep the reference's order: a missing container is reported
// before an unsupported encoding (node-api.md §5.5).
func format(c stored, i uint64, enc ids.Encoding) (Container, error) {
	var raw []byte
	switch enc {
	case ids.Hex, ids.HexC:
		// The stored checksum follows the bytes: hex is hexnc of both (node-api.md §6).
		raw = c.data
	case ids.HexNC:
		raw = c.bytes()
	default:
		// json; params decoding admits no other value.
		return Container{}, errUnsupportedEncoding
	}
	b, err := ids.HexNC.Encode(raw)
	if err != nil {
		return Container{}, errUnsupportedEncoding // unreachable: hexnc encodes any bytes
	}
	return Container{
		ID:        c.ID.String(),
		Bytes:     b,
		Timestamp: formatTime(c.Timestamp),
		Encoding:  enc.String(),
		Index:     strconv.FormatUint(i, 10),
	}, nil
}

// formatTime renders unix nanoseconds as UTC, RFC 3339 with the nanoseconds, trailing zeros dropped
// (node-api.md §5.6: the reference uses the host's zone; the spec asks for UTC or an offset, and we
// always send Z).
func formatTime(ns int64) string {
	return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
}
