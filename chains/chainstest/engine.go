package chainstest

import (
	"context"
	"sync"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
)

// Idle is an EngineFactory whose engines do nothing: Start moves the chain to Bootstrapping and
// Run waits for the end. A test drives the chain itself, on its own goroutine, through the
// EngineContext Idle keeps (the chain's VM and accept path): the tests of engines that are not
// chains.Engines themselves (a bootstrapper, a getter) run over real chains this way.
type Idle struct {
	mu   sync.Mutex
	ctxs map[ids.ID]chains.EngineContext
}

var _ chains.EngineFactory = (*Idle)(nil)

// NewEngine implements chains.EngineFactory.
func (f *Idle) NewEngine(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ctxs == nil {
		f.ctxs = make(map[ids.ID]chains.EngineContext)
	}
	f.ctxs[c.Chain.ID] = c
	return idleEngine{c}, nil
}

// Context returns the EngineContext of chain id; the zero value if it was not created.
func (f *Idle) Context(id ids.ID) chains.EngineContext {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ctxs[id]
}

type idleEngine struct{ c chains.EngineContext }

func (e idleEngine) Start(context.Context) error { return e.c.SetState(chains.Bootstrapping) }

func (idleEngine) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}
