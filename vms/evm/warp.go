package evm

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/chains"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethdb"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// Warp on an EVM chain (l1-evm.md §5.7, network-consensus-warp.md §4.3): the messages the
// chain's blocks sent with sendWarpMessage are kept, from the block's acceptance, under
// warpMessageKey in the block's own batch; the node signs them, and the hashes of accepted
// blocks, with its BLS key on request (warp_* methods). A lone node is its L1's only
// validator, so its signature alone is the aggregate.

// warpMessagePrefix starts the key of a sent message, followed by its ID. go-ethereum's rawdb
// keys are one-letter prefixes or 32-byte hashes and never this.
var warpMessagePrefix = []byte("cornice-warp-message-")

func warpMessageKey(id ids.ID) []byte {
	return append(append(make([]byte, 0, len(warpMessagePrefix)+ids.IDLen), warpMessagePrefix...), id[:]...)
}

// warpBackend is a chain's warp identity: what it signs with and verifies against.
type warpBackend struct {
	networkID uint32
	chainID   ids.ID
	subnetID  ids.ID
	// signer is nil on a node without a BLS key: the chain then signs nothing.
	signer *warp.Signer
	// validators is nil on a node without a P-Chain: nothing verifies then.
	validators warp.ValidatorState
	// aggregator gathers signatures from the network; nil outside a node.
	aggregator chains.WarpAggregator
}

// newWarpBackend returns the warp identity of chain c's VM.
func newWarpBackend(c chains.Context) warpBackend {
	b := warpBackend{networkID: c.NetworkID, chainID: c.Chain.ID, subnetID: c.Chain.SubnetID,
		validators: c.WarpValidators, aggregator: c.WarpAggregator}
	if c.BLSKey != nil {
		b.signer = warp.NewSigner(c.BLSKey, c.NetworkID, c.Chain.ID)
	}
	return b
}

// writeSentWarpMessages puts the messages receipts' SendWarpMessage logs carry into w, the
// accepted block's batch.
func writeSentWarpMessages(w ethdb.KeyValueWriter, receipts types.Receipts) error {
	topic := precompile.SendWarpMessageTopic()
	for _, r := range receipts {
		for _, l := range r.Logs {
			if l.Address != l1params.WarpAddress || len(l.Topics) != 3 || l.Topics[0] != topic {
				continue
			}
			msg, err := precompile.SentWarpMessage(l.Data)
			if err != nil {
				// The precompile wrote it: a parse failure is a bug, not bad input.
				return fmt.Errorf("warp message of log %d: %w", l.Index, err)
			}
			if err := w.Put(warpMessageKey(ids.ID(l.Topics[2])), msg.Bytes()); err != nil {
				return fmt.Errorf("write warp message %s: %w", ids.ID(l.Topics[2]), err)
			}
		}
	}
	return nil
}

// warpMessage returns the unsigned message with ID id an accepted block sent, or
// storage.ErrNotFound.
func (vm *VM) warpMessage(id ids.ID) (*warp.UnsignedMessage, error) {
	b, err := vm.kv.Get(warpMessageKey(id))
	if err != nil {
		return nil, err
	}
	return warp.ParseUnsignedMessage(b)
}

// warpBlockMessage returns the unsigned message of the Hash payload of block id.
func (vm *VM) warpBlockMessage(id ids.ID) *warp.UnsignedMessage {
	return warp.NewUnsignedMessage(vm.warp.networkID, vm.warp.chainID, (&payload.Hash{Hash: id}).Bytes())
}

// signWarpBlock returns the node's signature of the hash of block id, which must be accepted:
// storage.ErrNotFound otherwise.
func (vm *VM) signWarpBlock(id ids.ID) (*bls.Signature, error) {
	if vm.blockByHash(common.Hash(id)) == nil {
		return nil, storage.ErrNotFound
	}
	return vm.signWarp(vm.warpBlockMessage(id))
}

// signWarp returns the node's signature of msg, a message of this chain.
func (vm *VM) signWarp(msg *warp.UnsignedMessage) (*bls.Signature, error) {
	if vm.warp.signer == nil {
		return nil, errWarpNoKey
	}
	return vm.warp.signer.Sign(msg)
}

// aggregateWarp returns msg signed by the validators of subnetID at the P-Chain's current
// height, as the node's aggregator gathers their signatures over the network until quorum
// percent signed: whatever signed, enough or not, and nil when nobody did (the reference
// answers "0x"), as the reference's aggregate methods (l1-evm.md §5.7).
func (vm *VM) aggregateWarp(ctx context.Context, msg *warp.UnsignedMessage, subnetID ids.ID, quorum uint64) ([]byte, error) {
	if vm.warp.aggregator == nil {
		return nil, errWarpNoAggregator
	}
	m, err := vm.warp.aggregator.Gather(ctx, msg, nil, subnetID, quorum)
	if err != nil || m == nil {
		return nil, err
	}
	return m.Bytes(), nil
}
