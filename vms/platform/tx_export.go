package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// An ExportTx moves outputs to another chain of the Primary Network (§4.3): they are checked like
// its own outputs and covered by its inputs with the fee, but become UTXOs of the destination, put
// into its shared memory in the block's batch, not UTXOs of the P-Chain.

func (*syntacticCheck) ExportTx(tx *txs.ExportTx) error {
	if len(tx.ExportedOuts) == 0 {
		return utxo.ErrNoExportOutputs
	}
	if err := verifyOutputs(tx.ExportedOuts); err != nil {
		return fmt.Errorf("exported %w", err)
	}
	return nil
}

func (x *executor) ExportTx(tx *txs.ExportTx) error {
	if err := x.r.verifyPeer(tx.DestinationChain); err != nil {
		return err
	}
	x.exported = tx.ExportedOuts
	utxos := tx.ExportedUTXOs(x.tx.ID())
	req := &atomic.Requests{Put: make([]atomic.Element, len(utxos))}
	for i := range utxos {
		ux := &utxos[i]
		b, err := ux.Bytes()
		if err != nil {
			return fmt.Errorf("exported utxo %s: %w", ux.InputID(), err)
		}
		req.Put[i] = atomic.Element{Key: ux.InputID(), Value: b, Traits: owners(ux.Out)}
	}
	x.eff.atomic = map[ids.ID]*atomic.Requests{tx.DestinationChain: req}
	return nil
}

func (txIndexer) ExportTx(*txs.ExportTx) error { return nil }

// atomicRequests merges what a block's txs, whose effects are effs, do to shared memory, by peer
// chain; nil for nothing.
func atomicRequests(effs []*effects) map[ids.ID]*atomic.Requests {
	var out map[ids.ID]*atomic.Requests
	for _, eff := range effs {
		for peer, req := range eff.atomic {
			if out == nil {
				out = make(map[ids.ID]*atomic.Requests, 1)
			}
			merged, ok := out[peer]
			if !ok {
				merged = &atomic.Requests{}
				out[peer] = merged
			}
			merged.Remove = append(merged.Remove, req.Remove...)
			merged.Put = append(merged.Put, req.Put...)
		}
	}
	return out
}

// verifyPeer checks the other chain of an ImportTx or ExportTx: another chain of the Primary
// Network. The P-Chain's ID and the Primary Network's are both the empty ID (§0.5).
func (r *rules) verifyPeer(peer ids.ID) error {
	return atomic.VerifyPeer(ids.Empty, ids.Empty, peer, r.subnetOf)
}
