package snowman

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// loopSender delivers a lone validator's messages to itself through its Runner, as the router
// delivers requests to self in process (§1.8).
type loopSender struct {
	self ids.NodeID
	r    *Runner
	// sends are the deliveries in flight; the test waits for them after Run.
	sends *sync.WaitGroup
}

func (s loopSender) deliver(ctx context.Context, m Message) {
	// Sent from the Run goroutine itself: queue without waiting for it.
	s.sends.Go(func() { _ = s.r.Deliver(ctx, m) })
}

func (s loopSender) SendPushQuery(ctx context.Context, _ []ids.NodeID, requestID uint32, block []byte, h uint64) {
	s.deliver(ctx, func(ctx context.Context, e *Engine) error { return e.PushQuery(ctx, s.self, requestID, block, h) })
}

func (s loopSender) SendPullQuery(ctx context.Context, _ []ids.NodeID, requestID uint32, blockID ids.ID, h uint64) {
	s.deliver(ctx, func(ctx context.Context, e *Engine) error { return e.PullQuery(ctx, s.self, requestID, blockID, h) })
}

func (s loopSender) SendChits(ctx context.Context, _ ids.NodeID, requestID uint32, pref, atHeight, acc ids.ID, accHeight uint64) {
	s.deliver(ctx, func(ctx context.Context, e *Engine) error {
		return e.Chits(ctx, s.self, requestID, pref, atHeight, acc, accHeight)
	})
}

func (s loopSender) SendGet(context.Context, ids.NodeID, uint32, ids.ID)              {}
func (s loopSender) SendAcceptedFrontier(context.Context, ids.NodeID, uint32, ids.ID) {}
func (s loopSender) SendAccepted(context.Context, ids.NodeID, uint32, []ids.ID)       {}
func (s loopSender) SendPut(context.Context, ids.NodeID, uint32, []byte)              {}
func (s loopSender) SendAncestors(context.Context, ids.NodeID, uint32, [][]byte)      {}

// signalingAcceptor tells the test of each acceptance.
type signalingAcceptor struct {
	testAcceptor
	accepted chan ids.ID
}

func (a signalingAcceptor) Accept(ctx context.Context, blk chains.Block) error {
	if err := a.testAcceptor.Accept(ctx, blk); err != nil {
		return err
	}
	a.accepted <- blk.ID()
	return nil
}

// A lone validator's Runner: Run builds when the VM signals
// work, polls itself through Deliver and accepts; it returns when ctx is done.
func TestRunnerLoneValidator(t *testing.T) {
	vm := newTestVM()
	self := ids.NodeID{1}
	acc := signalingAcceptor{testAcceptor{vm}, make(chan ids.ID, 8)}
	snd := &loopSender{self: self, sends: new(sync.WaitGroup)}
	d := testDeps(vm, snd, validators{self: 20})
	d.Acceptor = acc
	e := newEngine(t, Config{Params: consensus.DefaultParameters()}, d)
	r := NewRunner(e, clock.Real{})
	snd.r = r

	vm.work = 2 // before Run: Run builds what is pending when it starts
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var runErr error
	wg.Go(func() { runErr = r.Run(ctx) })
	for range 2 {
		select {
		case <-acc.accepted:
		case <-time.After(30 * time.Second):
			t.Fatal("no block accepted")
		}
	}
	cancel()
	wg.Wait()
	snd.sends.Wait() // a delivery after Run returned gives up on ctx
	require.NoError(t, runErr)
	require.Len(t, vm.accepted, 3)
}
