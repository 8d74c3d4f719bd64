// Package getter answers other nodes' requests for a chain's blocks: GetAcceptedFrontier,
// GetAccepted, GetAncestors and Get (reference/network-consensus-warp.md §2.3, §3.2–3.3). It is
// the one place these are answered, whatever engine runs the chain: the bootstrapper and the
// Snowman engine both embed a Getter, as the reference's engines share theirs, so that a node
// bootstrapping from us is answered the same way in either state.
//
// A Getter reads the VM (chains.Getter) and the chain's accept path: it must be called on the
// chain's engine goroutine, like every other VM call. It keeps no state of its own, and the
// slices it sends belong to the VM's blocks (the Sender must not change them).
package getter

import (
	"context"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
)

// The caps of an Ancestors answer (§3.3): at most MaxAncestorsContainers blocks
// (--bootstrap-ancestors-max-containers-sent, and the receiver's
// --bootstrap-ancestors-max-containers-received), and at most MaxAncestorsBytes in all, each
// block counted with AncestorsOverhead more bytes: 4/5 of the 2 MiB message cap, so that the
// answer fits a message.
const (
	MaxAncestorsContainers = 2000
	MaxAncestorsBytes      = 2 << 20 * 4 / 5
	AncestorsOverhead      = 4
)

// Sender sends the answers. Sends do not block on the peer and report no error.
type Sender interface {
	SendAcceptedFrontier(ctx context.Context, to ids.NodeID, requestID uint32, blockID ids.ID)
	SendAccepted(ctx context.Context, to ids.NodeID, requestID uint32, blockIDs []ids.ID)
	SendAncestors(ctx context.Context, to ids.NodeID, requestID uint32, blocks [][]byte)
	SendPut(ctx context.Context, to ids.NodeID, requestID uint32, block []byte)
}

// Acceptor tells the last accepted block: what the chain has committed (*chains.Acceptor).
type Acceptor interface {
	LastAccepted() (ids.ID, uint64)
}

// Getter answers the block requests of one chain.
type Getter struct {
	vm       chains.Getter
	acceptor Acceptor
	sender   Sender
}

// New returns the Getter of the chain whose VM and accept path are given.
func New(vm chains.Getter, acceptor Acceptor, sender Sender) *Getter {
	return &Getter{vm: vm, acceptor: acceptor, sender: sender}
}

// GetAcceptedFrontier answers from with our last accepted block (§3.2 step 1).
func (g *Getter) GetAcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32) error {
	id, _ := g.acceptor.LastAccepted()
	g.sender.SendAcceptedFrontier(ctx, from, requestID, id)
	return nil
}

// GetAccepted answers from with those of blockIDs that we have accepted: blocks we hold that
// are the accepted block at their height (§3.2 step 2). A processing block is not accepted.
func (g *Getter) GetAccepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error {
	_, lastHeight := g.acceptor.LastAccepted()
	var accepted []ids.ID
	for _, id := range blockIDs {
		blk, err := g.vm.GetBlock(ctx, id)
		if err != nil || blk.Height() > lastHeight {
			continue
		}
		if at, err := g.vm.GetBlockIDAtHeight(ctx, blk.Height()); err == nil && at == id {
			accepted = append(accepted, id)
		}
	}
	g.sender.SendAccepted(ctx, from, requestID, accepted)
	return nil
}

// GetAncestors answers from with blockID and its ancestors, newest first, as many as the caps
// allow, stopping at a block we do not have; an unknown blockID gets an empty answer (§3.3).
// Processing blocks are served too. The reference also stops after 50 ms of lookups; a Getter
// has no clock and relies on the caps.
func (g *Getter) GetAncestors(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	var blocks [][]byte
	size := 0
	for id := blockID; len(blocks) < MaxAncestorsContainers; {
		blk, err := g.vm.GetBlock(ctx, id)
		if err != nil {
			break
		}
		size += len(blk.Bytes()) + AncestorsOverhead
		if size > MaxAncestorsBytes {
			break
		}
		blocks = append(blocks, blk.Bytes())
		if blk.Height() == 0 {
			break
		}
		id = blk.Parent()
	}
	g.sender.SendAncestors(ctx, from, requestID, blocks)
	return nil
}

// Get answers from with the block, accepted or processing, if we have it, and with nothing if
// not (§2.3): the asker's request times out.
func (g *Getter) Get(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	blk, err := g.vm.GetBlock(ctx, blockID)
	if err != nil {
		return nil
	}
	g.sender.SendPut(ctx, from, requestID, blk.Bytes())
	return nil
}
