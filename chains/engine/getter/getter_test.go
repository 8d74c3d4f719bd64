package getter_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/ids"
)

var chainID = ids.ID{'g'}

// recordingSender keeps every answer.
type recordingSender struct {
	frontiers []ids.ID
	accepted  [][]ids.ID
	ancestors [][][]byte
	puts      [][]byte
}

func (s *recordingSender) SendAcceptedFrontier(_ context.Context, _ ids.NodeID, _ uint32, id ids.ID) {
	s.frontiers = append(s.frontiers, id)
}

func (s *recordingSender) SendAccepted(_ context.Context, _ ids.NodeID, _ uint32, blockIDs []ids.ID) {
	s.accepted = append(s.accepted, blockIDs)
}

func (s *recordingSender) SendAncestors(_ context.Context, _ ids.NodeID, _ uint32, blocks [][]byte) {
	s.ancestors = append(s.ancestors, blocks)
}

func (s *recordingSender) SendPut(_ context.Context, _ ids.NodeID, _ uint32, block []byte) {
	s.puts = append(s.puts, block)
}

// chain is a chain whose blocks the test builds and accepts by hand.
type chain struct {
	t   *testing.T
	vm  *chainstest.VM
	ctx chains.EngineContext
	// n numbers the transactions.
	n int
}

func newChain(t *testing.T) *chain {
	engines := &chainstest.Idle{}
	env := chainstest.NewEnv(t, t.TempDir(), nil, engines)
	t.Cleanup(env.Close)
	vm := env.Create(chainID, nil)
	return &chain{t: t, vm: vm, ctx: engines.Context(chainID)}
}

// build builds and verifies a block of one transaction with a value of size bytes.
func (c *chain) build(size int) *chainstest.Block {
	c.n++
	require.NoError(c.t, c.vm.Submit(chainstest.NewTx(fmt.Sprint("key ", c.n), strings.Repeat("v", size))))
	blk, err := c.vm.Build(c.t.Context())
	require.NoError(c.t, err)
	require.NoError(c.t, blk.Verify(c.t.Context()))
	require.NoError(c.t, c.vm.SetPreference(c.t.Context(), blk.ID()))
	return blk
}

// accept accepts n blocks of size-byte values and returns them with the genesis block, by height.
func (c *chain) accept(n, size int) []chains.Block {
	out := []chains.Block{c.vm.Genesis()}
	for range n {
		blk := c.build(size)
		require.NoError(c.t, c.ctx.Acceptor.Accept(c.t.Context(), blk))
		out = append(out, blk)
	}
	return out
}

func bytesOf(blocks ...chains.Block) [][]byte {
	out := make([][]byte, len(blocks))
	for i, b := range blocks {
		out[i] = b.Bytes()
	}
	return out
}

func TestGetAcceptedFrontierAndGetAccepted(t *testing.T) {
	t.Parallel()
	c := newChain(t)
	blocks := c.accept(3, 8)
	processing := c.build(8)
	snd := &recordingSender{}
	g := getter.New(c.vm, c.ctx.Acceptor, snd)
	ctx, peer := t.Context(), ids.NodeID{2}

	require.NoError(t, g.GetAcceptedFrontier(ctx, peer, 1))
	require.Equal(t, []ids.ID{blocks[3].ID()}, snd.frontiers, "the last accepted block")

	ask := []ids.ID{blocks[2].ID(), processing.ID(), {9}, blocks[0].ID(), blocks[3].ID()}
	require.NoError(t, g.GetAccepted(ctx, peer, 2, ask))
	require.Equal(t, []ids.ID{blocks[2].ID(), blocks[0].ID(), blocks[3].ID()}, snd.accepted[0],
		"accepted blocks only, in the order asked; neither processing nor unknown ones")
	require.NoError(t, g.GetAccepted(ctx, peer, 3, nil))
	require.Empty(t, snd.accepted[1])
}

func TestGetAncestors(t *testing.T) {
	t.Parallel()
	ctx, peer := t.Context(), ids.NodeID{2}

	c := newChain(t)
	blocks := c.accept(5, 8)
	snd := &recordingSender{}
	g := getter.New(c.vm, c.ctx.Acceptor, snd)
	require.NoError(t, g.GetAncestors(ctx, peer, 1, blocks[3].ID()))
	require.Equal(t, bytesOf(blocks[3], blocks[2], blocks[1], blocks[0]), snd.ancestors[0], "newest first, down to genesis")

	require.NoError(t, g.GetAncestors(ctx, peer, 2, ids.ID{9}))
	require.Empty(t, snd.ancestors[1], "an unknown block gets an empty answer")

	// A processing block is served too, with its processing and accepted ancestors.
	p1 := c.build(8)
	p2 := c.build(8)
	require.NoError(t, g.GetAncestors(ctx, peer, 3, p2.ID()))
	require.Equal(t, bytesOf(p2, p1, blocks[5], blocks[4], blocks[3], blocks[2], blocks[1], blocks[0]), snd.ancestors[2])
}

// An answer holds at most 2,000 blocks, and at most 4/5 of 2 MiB, each block counted with 4 more
// bytes.
func TestGetAncestorsCaps(t *testing.T) {
	t.Parallel()
	ctx, peer := t.Context(), ids.NodeID{2}

	c := newChain(t)
	blocks := c.accept(getter.MaxAncestorsContainers+10, 1)
	snd := &recordingSender{}
	g := getter.New(c.vm, c.ctx.Acceptor, snd)
	require.NoError(t, g.GetAncestors(ctx, peer, 1, blocks[len(blocks)-1].ID()))
	require.Len(t, snd.ancestors[0], getter.MaxAncestorsContainers)

	c = newChain(t)
	blocks = c.accept(40, 100_000)
	g = getter.New(c.vm, c.ctx.Acceptor, snd)
	require.NoError(t, g.GetAncestors(ctx, peer, 2, blocks[40].ID()))
	got := snd.ancestors[1]
	size := 0
	for _, b := range got {
		size += len(b) + getter.AncestorsOverhead
	}
	require.LessOrEqual(t, size, getter.MaxAncestorsBytes)
	require.Greater(t, size+len(blocks[40-len(got)].Bytes())+getter.AncestorsOverhead, getter.MaxAncestorsBytes,
		"the next block would not have fit")
	require.Equal(t, blocks[40].Bytes(), got[0])
}

func TestGet(t *testing.T) {
	t.Parallel()
	c := newChain(t)
	blocks := c.accept(1, 8)
	snd := &recordingSender{}
	g := getter.New(c.vm, c.ctx.Acceptor, snd)
	require.NoError(t, g.Get(t.Context(), ids.NodeID{2}, 1, blocks[1].ID()))
	require.NoError(t, g.Get(t.Context(), ids.NodeID{2}, 2, ids.ID{9}))
	require.Equal(t, bytesOf(blocks[1]), snd.puts, "an unknown block gets no answer")
}
