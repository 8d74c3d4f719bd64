package chainapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/internal/txlog"
)

// ErrNotFound is the cause both chains wrap when getBlock or getBlockByHeight finds no accepted
// block (§5.1, §6.5); each chain's other `not found` answers wrap it too.
var ErrNotFound = errors.New("not found")

// DecodeTxError answers issueTx with undecodable tx text: `problem decoding transaction: …`
// (§5.1; the same words on X).
func DecodeTxError(err error) error {
	return fmt.Errorf("problem decoding transaction: %w", err)
}

// Encoded is a tx or block: its ID, and its bytes, which a hex encoding renders.
type Encoded interface {
	ID() ids.ID
	Bytes() []byte
}

// Chain is one chain's accepted state and mempool as the shared methods read them; T is its tx
// type and B its block type. Errors other than ParseTx's and IssueTx's are causes the client
// cannot act on: the shared methods pass them to Texts.Internal.
type Chain[T, B Encoded] interface {
	// ParseTx parses b as a signed tx.
	ParseTx(b []byte) (T, error)
	// IssueTx verifies tx and adds it to the mempool.
	IssueTx(tx T) error
	// PushTx hands the bytes of a tx IssueTx took in to the chain's gossip.
	PushTx(b []byte)
	// Tx returns an accepted tx.
	Tx(id ids.ID) (T, bool, error)
	// TxStatus returns the status getTxStatus reports for a tx, in the chain's words.
	TxStatus(id ids.ID) (string, error)
	// Block returns an accepted block.
	Block(id ids.ID) (B, bool, error)
	// BlockIDAt returns the ID of the accepted block at a height.
	BlockIDAt(height uint64) (ids.ID, bool, error)
	// LastHeight returns the last accepted block's height, as committed.
	LastHeight() (uint64, error)
	// TxJSON and BlockJSON render a tx or block in the json encoding.
	TxJSON(T) ([]byte, error)
	BlockJSON(B) ([]byte, error)
}

// Texts are the answers in which the chains' shared methods differ.
type Texts struct {
	// ParseTxError and IssueTxError, if set, word issueTx's refusal of a tx that does not parse,
	// or that IssueTx refuses; unset, the cause is the answer.
	ParseTxError, IssueTxError func(error) error
	// NilTxID, if set, answers getTx and getTxStatus for the empty tx ID before any lookup.
	NilTxID error
	// TxNotFound answers getTx for a tx that is not accepted.
	TxNotFound error
	// EncodeError answers a call asking for what ("tx", "block") in an encoding that cannot
	// render its bytes.
	EncodeError func(what string, enc ids.Encoding, err error) error
	// JSONError answers a failure of method to render what in the json encoding.
	JSONError func(method, what string, err error) error
	// Internal logs a failure of method the client cannot act on and returns the client's text.
	Internal func(method string, err error) error
}

// Register registers issueTx, getTx, getTxStatus, getHeight, getBlock and getBlockByHeight on
// srv, answering from c in the words of t; issued logs each tx issueTx is given.
func Register[T, B Encoded](srv *jsonrpc.Server, c Chain[T, B], t Texts, issued *txlog.Logger) {
	s := &service[T, B]{c: c, t: t, issued: issued}
	jsonrpc.Register(srv, "issueTx", s.issueTx)
	jsonrpc.Register(srv, "getTx", s.getTx)
	jsonrpc.Register(srv, "getTxStatus", s.getTxStatus)
	jsonrpc.Register(srv, "getHeight", s.getHeight)
	jsonrpc.Register(srv, "getBlock", s.getBlock)
	jsonrpc.Register(srv, "getBlockByHeight", s.getBlockByHeight)
}

// service is the shared methods of one chain's API. It is safe for concurrent use if c is.
type service[T, B Encoded] struct {
	c      Chain[T, B]
	t      Texts
	issued *txlog.Logger
}

// issueTx decodes a signed tx, hands it to the chain and, once taken in, to its gossip.
func (s *service[T, B]) issueTx(_ context.Context, args *IssueTxArgs) (*TxIDReply, error) {
	b, err := args.Encoding.Decode(args.Tx)
	if err != nil {
		return nil, DecodeTxError(err)
	}
	tx, err := s.c.ParseTx(b)
	if err != nil {
		return nil, word(s.t.ParseTxError, err)
	}
	err = s.c.IssueTx(tx)
	// Neither chain's tx has one sender: its inputs may be any addresses'.
	s.issued.Issued(tx.ID().String(), nil, err)
	if err != nil {
		return nil, word(s.t.IssueTxError, err)
	}
	s.c.PushTx(b)
	return &TxIDReply{TxID: tx.ID()}, nil
}

// word returns err in the words of text, or err itself if text is nil.
func word(text func(error) error, err error) error {
	if text == nil {
		return err
	}
	return text(err)
}

// getTx returns an accepted tx. Pending txs are `not found`, as in the reference.
func (s *service[T, B]) getTx(_ context.Context, args *GetTxArgs) (*GetTxReply, error) {
	if s.t.NilTxID != nil && args.TxID == ids.Empty {
		return nil, s.t.NilTxID
	}
	tx, found, err := s.c.Tx(args.TxID)
	switch {
	case err != nil:
		return nil, s.t.Internal("getTx", err)
	case !found:
		return nil, s.t.TxNotFound
	}
	raw, err := s.encode("getTx", "tx", tx.Bytes(), func() ([]byte, error) { return s.c.TxJSON(tx) }, args.Encoding)
	if err != nil {
		return nil, err
	}
	return &GetTxReply{Tx: raw, Encoding: args.Encoding}, nil
}

// getTxStatus returns the chain's status of a tx.
func (s *service[T, B]) getTxStatus(_ context.Context, args *GetTxStatusArgs) (*GetTxStatusReply, error) {
	if s.t.NilTxID != nil && args.TxID == ids.Empty {
		return nil, s.t.NilTxID
	}
	status, err := s.c.TxStatus(args.TxID)
	if err != nil {
		return nil, s.t.Internal("getTxStatus", err)
	}
	return &GetTxStatusReply{Status: status}, nil
}

// getHeight returns the last accepted block's height, as committed.
func (s *service[T, B]) getHeight(context.Context, *struct{}) (*GetHeightReply, error) {
	h, err := s.c.LastHeight()
	if err != nil {
		return nil, s.t.Internal("getHeight", err)
	}
	return &GetHeightReply{Height: jsonrpc.Uint64(h)}, nil
}

// getBlock returns an accepted block.
func (s *service[T, B]) getBlock(_ context.Context, args *GetBlockArgs) (*GetBlockReply, error) {
	blk, found, err := s.c.Block(args.BlockID)
	switch {
	case err != nil:
		return nil, s.t.Internal("getBlock", err)
	case !found:
		return nil, fmt.Errorf("couldn't get block with id %s: %w", args.BlockID, ErrNotFound)
	}
	return s.blockReply("getBlock", blk, args.Encoding)
}

// getBlockByHeight returns the accepted block at a height.
func (s *service[T, B]) getBlockByHeight(_ context.Context, args *GetBlockByHeightArgs) (*GetBlockReply, error) {
	const method = "getBlockByHeight"
	h := uint64(args.Height)
	id, found, err := s.c.BlockIDAt(h)
	if err != nil {
		return nil, s.t.Internal(method, err)
	}
	if !found {
		return nil, fmt.Errorf("couldn't get block at height %d: %w", h, ErrNotFound)
	}
	blk, found, err := s.c.Block(id)
	switch {
	case err != nil:
		return nil, s.t.Internal(method, err)
	case !found:
		return nil, s.t.Internal(method, fmt.Errorf("block %s at height %d is missing", id, h))
	}
	return s.blockReply(method, blk, args.Encoding)
}

func (s *service[T, B]) blockReply(method string, blk B, enc ids.Encoding) (*GetBlockReply, error) {
	raw, err := s.encode(method, "block", blk.Bytes(), func() ([]byte, error) { return s.c.BlockJSON(blk) }, enc)
	if err != nil {
		return nil, err
	}
	return &GetBlockReply{Block: raw, Encoding: enc}, nil
}

// encode renders what method returns in enc: as JSON through toJSON, else as its bytes b.
func (s *service[T, B]) encode(method, what string, b []byte, toJSON func() ([]byte, error), enc ids.Encoding) ([]byte, error) {
	if enc == ids.JSON {
		raw, err := toJSON()
		if err != nil {
			return nil, s.t.JSONError(method, what, err)
		}
		return raw, nil
	}
	raw, err := EncodeString(b, enc)
	if err != nil {
		return nil, s.t.EncodeError(what, enc, err)
	}
	return raw, nil
}
