package relay

import (
	"crypto/ecdsa"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The relay's records, under its own prefix of the node's database (each write synced):
//
//	"key"               the relayer's secp256k1 key, 32 bytes
//	"m" ‖ chainID       the last blocks of the chain the relay has handled, newest first, up to
//	                    markKeep of: height (8 bytes big-endian) ‖ hash (32 bytes)
//	"p" ‖ messageID     a delivery sent and not known to be accepted: destination ‖ raw tx
//	"d" ‖ messageID     a message delivered (by the relay or, as its messenger said, another)
var (
	keyKey     = []byte("key")
	markPrefix = []byte("m")
	pendPrefix = []byte("p")
	donePrefix = []byte("d")
)

func recordKey(prefix []byte, id []byte) []byte {
	return append(append(make([]byte, 0, len(prefix)+len(id)), prefix...), id...)
}

// loadKey returns the relayer's key, made and stored on first use.
func loadKey(db *storage.View) (*ecdsa.PrivateKey, error) {
	b, err := db.Get(keyKey)
	switch {
	case err == nil:
		return crypto.ToECDSA(b)
	case !errors.Is(err, storage.ErrNotFound):
		return nil, fmt.Errorf("relay: read key: %w", err)
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	if err := db.Put(keyKey, crypto.FromECDSA(key)); err != nil {
		return nil, fmt.Errorf("relay: store key: %w", err)
	}
	return key, nil
}

// A mark is a block the relay has handled on a chain: its height and hash. The hash tells a
// block mined again at that height after a roll-back (developer methods) from the one handled.
type mark struct {
	height uint64
	hash   common.Hash // zero: unknown (a record written before hashes were kept), trusted
}

// markKeep is how many marks the relay keeps per chain, the newest first: after a roll-back it
// rescans from the newest one still on the chain (docs/decisions.md).
const markKeep = 32

const markLen = 8 + common.HashLength

// marks returns the marks of chain id, the newest (highest) first; none before the first look.
func (r *Relay) marks(id ids.ID) ([]mark, error) {
	b, err := r.cfg.DB.Get(recordKey(markPrefix, id[:]))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("relay: read mark: %w", err)
	case len(b) == 8: // a height alone
		return []mark{{height: binary.BigEndian.Uint64(b)}}, nil
	case len(b) == 0 || len(b)%markLen != 0:
		return nil, fmt.Errorf("relay: marks of %s are %d bytes", id, len(b))
	}
	out := make([]mark, 0, len(b)/markLen)
	for ; len(b) > 0; b = b[markLen:] {
		out = append(out, mark{height: binary.BigEndian.Uint64(b), hash: common.BytesToHash(b[8:markLen])})
	}
	return out, nil
}

// lastMark returns the height of chain id's newest mark; false before the first look.
func (r *Relay) lastMark(id ids.ID) (uint64, bool, error) {
	ms, err := r.marks(id)
	if err != nil || len(ms) == 0 {
		return 0, false, err
	}
	return ms[0].height, true, nil
}

// setMark records m as chain id's newest mark. The marks at or above its height go: they were
// rolled back, or m is one of them found again.
func (r *Relay) setMark(id ids.ID, m mark) error {
	ms, err := r.marks(id)
	if err != nil {
		return err
	}
	keep := []mark{m}
	for _, old := range ms {
		if old.height < m.height && len(keep) < markKeep {
			keep = append(keep, old)
		}
	}
	b := make([]byte, 0, len(keep)*markLen)
	for _, k := range keep {
		b = append(binary.BigEndian.AppendUint64(b, k.height), k.hash[:]...)
	}
	if err := r.cfg.DB.Put(recordKey(markPrefix, id[:]), b); err != nil {
		return fmt.Errorf("relay: store mark: %w", err)
	}
	return nil
}

// handled reports whether message id was delivered or has a delivery in flight.
func (r *Relay) handled(id common.Hash) (bool, error) {
	for _, prefix := range [][]byte{donePrefix, pendPrefix} {
		ok, err := r.cfg.DB.Has(recordKey(prefix, id[:]))
		if err != nil {
			return false, fmt.Errorf("relay: read record: %w", err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// setPending records delivery tx of message id to chain dst, before it is sent.
func (r *Relay) setPending(id common.Hash, dst ids.ID, tx *types.Transaction) error {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	if err := r.cfg.DB.Put(recordKey(pendPrefix, id[:]), append(dst[:], raw...)); err != nil {
		return fmt.Errorf("relay: record delivery: %w", err)
	}
	return nil
}

func (r *Relay) unsetPending(id common.Hash) error {
	if err := r.cfg.DB.Delete(recordKey(pendPrefix, id[:])); err != nil {
		return fmt.Errorf("relay: drop delivery record: %w", err)
	}
	return nil
}

// setDelivered records message id as delivered and drops its delivery record, in one batch.
func (r *Relay) setDelivered(id common.Hash) error {
	b := r.cfg.DB.NewBatch()
	defer b.Close()
	if err := b.Put(recordKey(donePrefix, id[:]), nil); err != nil {
		return err
	}
	if err := b.Delete(recordKey(pendPrefix, id[:])); err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return fmt.Errorf("relay: record delivered: %w", err)
	}
	return nil
}

// pending is a recorded delivery.
type pending struct {
	id    common.Hash
	chain ids.ID
	tx    *types.Transaction
}

// pendings returns every recorded delivery.
func (r *Relay) pendings() ([]pending, error) {
	it, err := r.cfg.DB.NewIterator(pendPrefix, nil)
	if err != nil {
		return nil, fmt.Errorf("relay: read deliveries: %w", err)
	}
	defer it.Close()
	var out []pending
	for it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) != len(pendPrefix)+common.HashLength || len(v) <= ids.IDLen {
			return nil, fmt.Errorf("relay: malformed delivery record %x", k)
		}
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(v[ids.IDLen:]); err != nil {
			return nil, fmt.Errorf("relay: delivery record %x: %w", k, err)
		}
		out = append(out, pending{id: common.BytesToHash(k[len(pendPrefix):]), chain: ids.ID(v[:ids.IDLen]), tx: tx})
	}
	return out, it.Err()
}
