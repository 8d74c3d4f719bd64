// Package gossip is push gossip of mempool transactions between nodes (network-consensus-warp.md
// §1.3, §4.3; the reference's p2p SDK): a batch of transactions travels in one AppGossip whose app
// bytes are uvarint(handler ID) ‖ sdk.PushGossip{gossip=1: repeated bytes}, handler 0 carrying
// a chain's transactions.
//
// Only the node a transaction was issued to pushes it: a node that learns of a transaction by
// gossip adds it to its mempool and never pushes it on (the 2024 push-gossip amplification
// incident in network-consensus-warp.md). A Pusher batches what its chain issues, so a thousand
// transactions a second are a few messages a second to each peer, not a thousand.
package gossip

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// TxHandlerID is the p2p SDK handler ID of transaction gossip (the reference's
// TxGossipHandlerID).
const TxHandlerID = 0

// ErrMalformed is app bytes that are not a PushGossip of a known handler.
var ErrMalformed = errors.New("gossip: malformed push gossip")

// Encode returns the app bytes of a PushGossip of items for handler id.
func Encode(id uint64, items [][]byte) []byte {
	b := protowire.AppendVarint(nil, id)
	for _, it := range items {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, it)
	}
	return b
}

// Decode parses the app bytes of a PushGossip: its handler ID and items, which alias b. Unknown
// fields are skipped, as proto3 does.
func Decode(b []byte) (id uint64, items [][]byte, err error) {
	id, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, nil, fmt.Errorf("%w: handler ID", ErrMalformed)
	}
	b = b[n:]
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, nil, fmt.Errorf("%w: tag", ErrMalformed)
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, nil, fmt.Errorf("%w: item", ErrMalformed)
			}
			items = append(items, v)
			b = b[n:]
			continue
		}
		if num == 1 {
			return 0, nil, fmt.Errorf("%w: gossip field of wire type %d", ErrMalformed, typ)
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, nil, fmt.Errorf("%w: field %d", ErrMalformed, num)
		}
		b = b[n:]
	}
	return id, items, nil
}

// The Pusher's defaults.
const (
	// DefaultInterval is how long an issued transaction waits for others to share its message.
	DefaultInterval = 20 * time.Millisecond
	// DefaultMaxBytes flushes a batch early once its items reach this size, well below the
	// network's 2 MiB message cap.
	DefaultMaxBytes = 256 << 10
)

// Pusher batches the transactions one chain's node issues and sends each batch as one
// PushGossip, at the latest Interval after its first transaction, or at once when it reaches
// MaxBytes. It is safe for concurrent use.
type Pusher struct {
	send     func(appBytes []byte)
	interval time.Duration
	maxBytes int

	mu    sync.Mutex // guards the fields below
	items [][]byte
	size  int
	timer *time.Timer
	// closed stops the sending of new batches.
	closed bool
	// sending counts the batches being sent, which Close waits for. Invariant: it is raised
	// only under mu while not closed.
	sending sync.WaitGroup
}

// NewPusher returns a Pusher that sends its batches' app bytes with send (the router's
// AppGossip to the chain's validators); zero interval and maxBytes mean the defaults.
func NewPusher(send func(appBytes []byte), interval time.Duration, maxBytes int) *Pusher {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Pusher{send: send, interval: interval, maxBytes: maxBytes}
}

// Push queues tx, a transaction's bytes, for the next batch.
func (p *Pusher) Push(tx []byte) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.items = append(p.items, tx)
	p.size += len(tx)
	if p.size < p.maxBytes {
		if p.timer == nil {
			p.timer = time.AfterFunc(p.interval, p.Flush)
		}
		p.mu.Unlock()
		return
	}
	batch := p.takeLocked()
	p.sending.Add(1)
	p.mu.Unlock()
	defer p.sending.Done()
	p.send(Encode(TxHandlerID, batch))
}

// Flush sends what is queued now, if anything.
func (p *Pusher) Flush() {
	p.mu.Lock()
	batch := p.takeLocked()
	if len(batch) == 0 {
		p.mu.Unlock()
		return
	}
	p.sending.Add(1)
	p.mu.Unlock()
	defer p.sending.Done()
	p.send(Encode(TxHandlerID, batch))
}

// takeLocked empties the batch and returns it.
func (p *Pusher) takeLocked() [][]byte {
	batch := p.items
	p.items, p.size = nil, 0
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	return batch
}

// Close drops what is queued, waits for a batch being sent, and sends nothing more: once it
// returns, send is not called again.
func (p *Pusher) Close() {
	p.mu.Lock()
	p.closed = true
	p.takeLocked()
	p.mu.Unlock()
	p.sending.Wait()
}
