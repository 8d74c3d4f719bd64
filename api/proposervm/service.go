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

// Config is what New needs; every field is required.
type Config struct {
	Chain  Chain
	PChain PChain
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
	chain  Chain
	pChain PChain
	server *jsonrpc.Server
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
	s := &Service{chain: cfg.Chain, pChain: cfg.PChain, server: jsonrpc.NewServer("proposervm", cfg.Log)}
	jsonrpc.Register(s.server, "getProposedHeight", s.GetProposedHeight)
	jsonrpc.Register(s.server, "getCurrentEpoch", s.GetCurrentEpoch)
	return s, nil
}

// Handler returns the JSON-RPC handler of the service.
func (s *Service) Handler() http.Handler { return s.server }

// GetProposedHeight returns the P-Chain height a block built now would carry: the P-Chain's last
// accepted height.
func (s *Service) GetProposedHeight(ctx context.Context, _ *struct{}) (*HeightReply, error) {
	h, err := s.pChain.PChainHeight(ctx)
	if err != nil {
		return nil, proposedHeightError(err)
	}
	return &HeightReply{Height: jsonrpc.Uint64(h)}, nil
}

// GetCurrentEpoch returns the epoch of the chain's next block: its first, opened at the last
// accepted block's time, at the P-Chain height the block would be built with (doc.go).
func (s *Service) GetCurrentEpoch(ctx context.Context, _ *struct{}) (*EpochReply, error) {
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
