package chains

import (
	"context"
	"log/slog"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// Engine drives one chain from its creation on: it catches the chain up with the network
// (Bootstrapping), then decides its blocks in normal operation, accepting each through the
// chain's Acceptor, the only writer of accepted blocks. Package chains/engine makes them: solo
// while this node holds all of the chain's validator weight; the bootstrapper and the consensus
// engine plug in beside it.
type Engine interface {
	// Start moves the chain out of Created, through EngineContext.SetState: to Bootstrapping,
	// and on to NormalOperation at once when there is nothing to catch up (solo: no other
	// validator to learn from). Manager.Create calls it once, before Run, and returns after
	// it, so a chain that needs no bootstrapping serves its API as soon as it is created.
	Start(ctx context.Context) error
	// Run drives the chain until ctx is done, then returns nil; a commit in progress is
	// finished first. It returns an error when the chain cannot go on (its acceptance failed):
	// the manager then halts the chain. The manager runs it on a goroutine of its own.
	Run(ctx context.Context) error
}

// Progresser is implemented by an engine that tells how far its bootstrapping has come: the
// chain's health check shows it while the chain bootstraps. Progress must be safe for
// concurrent use; its value is marshalled to JSON.
type Progresser interface {
	// Progress returns the bootstrapping progress, and false when the engine is not
	// bootstrapping.
	Progress() (any, bool)
}

// EngineContext is what the manager hands the engine of a chain.
type EngineContext struct {
	// Chain is the chain the engine drives.
	Chain Chain
	// VM is the chain's VM.
	VM VM
	// Acceptor is the chain's accept path; it knows the last accepted block.
	Acceptor *Acceptor
	// SetState records the chain's state in the registry (info.isBootstrapped, the 503 of the
	// chain's routes).
	SetState func(State) error
	// MinBlockGap is the least time between two blocks the engine builds; zero means none.
	MinBlockGap time.Duration
	// Log is tagged with the chain; Clock is the node's clock.
	Log   *slog.Logger
	Clock clock.Clock
}

// EngineFactory makes the engine of each chain.
type EngineFactory interface {
	NewEngine(ctx context.Context, c EngineContext) (Engine, error)
}

// EngineFactoryFunc adapts a function to an EngineFactory.
type EngineFactoryFunc func(ctx context.Context, c EngineContext) (Engine, error)

// NewEngine calls f.
func (f EngineFactoryFunc) NewEngine(ctx context.Context, c EngineContext) (Engine, error) {
	return f(ctx, c)
}
