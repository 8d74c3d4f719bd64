package proposervm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/jsonrpc"
)

// Chain is what the service reads of its chain.
type Chain interface {
	// LastAcceptedTime returns the timestamp of the chain's last accepted block; false when the
	// chain does not run.
	LastAcceptedTime() (time.Time, bool)
}

// PChain is what the service reads of the P-Chain.
type PChain interface {
	// PChainHeight returns the height of the P-Chain's last accepted block.
	PChainHeight(ctx context.Context) (uint64, error)
}

// Proposer is a chain's proposer layer (vms/proposervm), which pins P-Chain heights and epochs in
// its blocks.
type Proposer interface {
	// ProposedHeight returns the P-Chain height a block built now would pin.
	ProposedHeight(ctx context.Context) (uint64, error)
	// CurrentEpoch returns the epoch ACP-181 gives the chain's next block.
	CurrentEpoch(ctx context.Context) (Epoch, error)
}

// Epoch is an ACP-181 epoch.
type Epoch struct {
	Number       uint64
	StartTime    int64
	PChainHeight uint64
}

// Config is what New needs; every field but Proposer is required.
type Config struct {
	Chain  Chain
	PChain PChain
	// Proposer returns the chain's proposer layer, and false while the chain runs without one
	// (alone); nil means never.
	Proposer func() (Proposer, bool)
	// Log receives handler panics.
	Log *slog.Logger
}

// HeightReply is proposervm.getProposedHeight's result.
type HeightReply struct {
	Height jsonrpc.Uint64 `json:"height"`
}

// EpochReply is proposervm.getCurrentEpoch's result.
type EpochReply struct {
	Number       jsonrpc.Uint64 `json:"number"`
	StartTime    jsonrpc.Uint64 `json:"startTime"`
	PChainHeight jsonrpc.Uint64 `json:"pChainHeight"`
}

// Service is the proposervm API of one chain.
type Service struct {
	chain    Chain
	pChain   PChain
	proposer func() (Proposer, bool)
	server   *jsonrpc.Server
}

// New returns the proposervm API of a chain. It fails, wrapping ErrInvalidConfig, when a field of
// cfg is missing.
func New(cfg Config) (*Service, error) {
	var errs []error
	if cfg.Chain == nil {
		errs = append(errs, fmt.Errorf("%w: Chain is required", ErrInvalidConfig))
	}
	if cfg.PChain == nil {
		errs = append(errs, fmt.Errorf("%w: PChain is required", ErrInvalidConfig))
	}
	if cfg.Log == nil {
		errs = append(errs, fmt.Errorf("%w: Log is required", ErrInvalidConfig))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	proposer := cfg.Proposer
	if proposer == nil {
		proposer = func() (Proposer, bool) { return nil, false }
	}
	s := &Service{chain: cfg.Chain, pChain: cfg.PChain, proposer: proposer, server: jsonrpc.NewServer("proposervm", cfg.Log)}
	jsonrpc.Register(s.server, "getProposedHeight", s.GetProposedHeight)
	jsonrpc.Register(s.server, "getCurrentEpoch", s.GetCurrentEpoch)
	return s, nil
}

// Handler returns the JSON-RPC handler of the service.
func (s *Service) Handler() http.Handler { return s.server }

// GetProposedHeight returns the P-Chain height a block built now would carry: the proposer
// layer's choice, or alone the P-Chain's last accepted height.
func (s *Service) GetProposedHeight(ctx context.Context, _ *struct{}) (*HeightReply, error) {
	var h uint64
	var err error
	if p, ok := s.proposer(); ok {
		h, err = p.ProposedHeight(ctx)
	} else {
		h, err = s.pChain.PChainHeight(ctx)
	}
	if err != nil {
		return nil, proposedHeightError(err)
	}
	return &HeightReply{Height: jsonrpc.Uint64(h)}, nil
}

// GetCurrentEpoch returns the epoch of the chain's next block: the proposer layer's, or alone its
// first, opened at the last accepted block's time, at the P-Chain height the block would be built
// with (doc.go).
func (s *Service) GetCurrentEpoch(ctx context.Context, _ *struct{}) (*EpochReply, error) {
	if p, ok := s.proposer(); ok {
		e, err := p.CurrentEpoch(ctx)
		if err != nil {
			return nil, epochError(err)
		}
		return &EpochReply{Number: jsonrpc.Uint64(e.Number), StartTime: jsonrpc.Uint64(max(e.StartTime, 0)), PChainHeight: jsonrpc.Uint64(e.PChainHeight)}, nil
	}
	at, ok := s.chain.LastAcceptedTime()
	if !ok {
		return nil, epochError(ErrNoChain)
	}
	h, err := s.pChain.PChainHeight(ctx)
	if err != nil {
		return nil, epochError(err)
	}
	return &EpochReply{Number: 1, StartTime: jsonrpc.Uint64(max(at.Unix(), 0)), PChainHeight: jsonrpc.Uint64(h)}, nil
}
