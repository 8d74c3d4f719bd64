package platform

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Primary Network stakers (§4.9, §4.10): the validators and delegators that
// AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx add, from the block that accepts
// the tx until the option block after the proposal that rewards them. The staking tx itself is
// stored as a committed tx; the staker record holds what the chain decides when it is added (its
// start, the chain time then, and its potential reward) and what it earns meanwhile (a
// validator's share of its delegators' rewards).
//
// Keys, besides the state's (state.go):
const (
	// keyStaker | txID → the staker (staker.bytes).
	keyStaker byte = 'k'
	// keyStakerEnd | end (8 bytes) | priority (1) | txID → empty: the stakers in the order they
	// are rewarded: by end time, delegators before validators, then by tx ID.
	keyStakerEnd byte = 'e'
	// keyNodeStaker | nodeID | txID → empty: the stakers of each node, its validator and the
	// delegators to it.
	keyNodeStaker byte = 'n'
	// keySupply → the current supply (8 bytes), once a staker changed it; the genesis's initial
	// supply before.
	keySupply byte = 'S'
	// keyRewardUTXO | staking txID | output index (4 bytes) → a reward UTXO a staker was paid
	// (platform.getRewardUTXOs).
	keyRewardUTXO byte = 'r'
	// keyAborted | reward txID → empty: the RewardValidatorTx was decided by an abort block.
	keyAborted byte = 'x'
)

// staker is a current Primary Network validator or delegator.
type staker struct {
	txID      ids.ID
	nodeID    ids.NodeID
	delegator bool
	// start and end are unix seconds; start is the chain time the staker was added at.
	start, end uint64
	weight     uint64
	// potentialReward is what the staker is paid if its validator was up enough (§4.10).
	potentialReward uint64
	// delegateeReward is what a validator has earned from its delegators' rewards so far, paid
	// with its own.
	delegateeReward uint64
}

const stakerLen = ids.NodeIDLen + 1 + 5*8

func (s *staker) bytes() []byte {
	b := make([]byte, 0, stakerLen)
	b = append(b, s.nodeID[:]...)
	kind := byte(0)
	if s.delegator {
		kind = 1
	}
	b = append(b, kind)
	for _, v := range []uint64{s.start, s.end, s.weight, s.potentialReward, s.delegateeReward} {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b
}

func parseStaker(txID ids.ID, b []byte) (*staker, error) {
	if len(b) != stakerLen || b[ids.NodeIDLen] > 1 {
		return nil, fmt.Errorf("stored staker %s: %d bytes", txID, len(b))
	}
	s := &staker{txID: txID, nodeID: ids.NodeID(b[:ids.NodeIDLen]), delegator: b[ids.NodeIDLen] == 1}
	b = b[ids.NodeIDLen+1:]
	for i, v := range []*uint64{&s.start, &s.end, &s.weight, &s.potentialReward, &s.delegateeReward} {
		*v = binary.BigEndian.Uint64(b[8*i:])
	}
	return s, nil
}

// endKey is s's key in the reward order.
func (s *staker) endKey() []byte {
	k := make([]byte, 0, 1+8+1+ids.IDLen)
	k = append(k, keyStakerEnd)
	k = binary.BigEndian.AppendUint64(k, s.end)
	prio := byte(1)
	if s.delegator {
		prio = 0
	}
	k = append(k, prio)
	return append(k, s.txID[:]...)
}

// compareStakers orders stakers as keyStakerEnd does.
func compareStakers(a, b *staker) int {
	return bytes.Compare(a.endKey(), b.endKey())
}

// stakerSource is what the staking txs read of a state: the current stakers and the supply.
type stakerSource interface {
	// staker returns the current staker of tx txID; found is false for none.
	staker(txID ids.ID) (s *staker, found bool, err error)
	// nodeStakers returns the current stakers of nodeID: its validator and the delegators to
	// it, in tx ID order.
	nodeStakers(nodeID ids.NodeID) ([]*staker, error)
	// supply returns the current supply (§4.10).
	supply() (uint64, error)
	// firstStakers returns up to n current stakers, the first to be rewarded first.
	firstStakers(n int) ([]*staker, error)
}

// staker implements stakerSource.
func (s *state) staker(txID ids.ID) (*staker, bool, error) {
	return chainstate.Read(s.DB(), keyStaker, txID, "staker", func(b []byte) (*staker, error) {
		return parseStaker(txID, b)
	})
}

// nodeStakers implements stakerSource, reading the node's index and its records from one
// published state, as firstStakers does.
func (s *state) nodeStakers(nodeID ids.NodeID) ([]*staker, error) {
	s, release := s.pinned()
	defer release()
	txIDs, err := chainstate.IDsUnder(s.DB(), append([]byte{keyNodeStaker}, nodeID[:]...), ids.Empty, chainstate.All)
	if err != nil {
		return nil, err
	}
	out := make([]*staker, 0, len(txIDs))
	for _, id := range txIDs {
		st, found, err := s.staker(id)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, fmt.Errorf("platform: staker %s of %s is missing", id, nodeID)
		}
		out = append(out, st)
	}
	return out, nil
}

// supply implements stakerSource.
func (s *state) supply() (uint64, error) {
	b, found, err := chainstate.Get(s.DB(), []byte{keySupply})
	switch {
	case err != nil:
		return 0, err
	case !found:
		return s.initialSupply, nil
	case len(b) != 8:
		return 0, fmt.Errorf("stored supply: %d bytes", len(b))
	}
	return binary.BigEndian.Uint64(b), nil
}

// firstStakers implements stakerSource. It reads the end-time index and the records it names
// from one published state: a commit between them (a staker rewarded and removed) would leave an
// entry naming a record already gone.
func (s *state) firstStakers(n int) ([]*staker, error) {
	s, release := s.pinned()
	defer release()
	it, err := s.DB().NewIterator([]byte{keyStakerEnd}, nil)
	if err != nil {
		return nil, err
	}
	var out []*staker
	for len(out) < n && it.Next() {
		k := it.Key()
		if len(k) != 1+8+1+ids.IDLen {
			return nil, errors.Join(fmt.Errorf("stored staker end key %x", k), it.Close())
		}
		id := ids.ID(k[10:])
		st, found, err := s.staker(id)
		switch {
		case err != nil:
			return nil, errors.Join(err, it.Close())
		case !found:
			return nil, errors.Join(fmt.Errorf("platform: staker %s is missing", id), it.Close())
		}
		out = append(out, st)
	}
	return out, errors.Join(it.Err(), it.Close())
}

// allStakers returns every current staker, the first to be rewarded first.
func (s *state) allStakers() ([]*staker, error) { return s.firstStakers(int(^uint(0) >> 1)) }

// rewardUTXOs returns the reward UTXOs paid to the stakers of tx txID, in output index order.
func (s *state) rewardUTXOs(txID ids.ID) ([]*txs.UTXO, error) {
	it, err := s.DB().NewIterator(chainstate.IDKey(keyRewardUTXO, txID), nil)
	if err != nil {
		return nil, err
	}
	var out []*txs.UTXO
	for it.Next() {
		ux, err := txs.ParseUTXO(it.Value())
		if err != nil {
			return nil, errors.Join(fmt.Errorf("stored reward UTXO %x: %w", it.Key(), err), it.Close())
		}
		out = append(out, ux)
	}
	return out, errors.Join(it.Err(), it.Close())
}

// aborted reports whether reward tx txID was decided by an abort block.
func (s *state) aborted(txID ids.ID) (bool, error) {
	return s.DB().Has(chainstate.IDKey(keyAborted, txID))
}

// The overlay's stakers: those its txs add or change (nil: removed), and the supply they add and
// remove.

// staker implements stakerSource.
func (o *overlay) staker(txID ids.ID) (*staker, bool, error) {
	if s, ok := o.stakers[txID]; ok {
		return s, s != nil, nil
	}
	return o.base.staker(txID)
}

// nodeStakers implements stakerSource.
func (o *overlay) nodeStakers(nodeID ids.NodeID) ([]*staker, error) {
	base, err := o.base.nodeStakers(nodeID)
	if err != nil || len(o.stakers) == 0 {
		return base, err
	}
	out := make([]*staker, 0, len(base))
	for _, s := range base {
		if _, changed := o.stakers[s.txID]; !changed {
			out = append(out, s)
		}
	}
	for _, s := range o.stakers {
		if s != nil && s.nodeID == nodeID {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *staker) int { return a.txID.Compare(b.txID) })
	return out, nil
}

// supply implements stakerSource.
func (o *overlay) supply() (uint64, error) {
	s, err := o.base.supply()
	return s + o.supplyAdded - o.supplyRemoved, err
}

// firstStakers implements stakerSource.
func (o *overlay) firstStakers(n int) ([]*staker, error) {
	base, err := o.base.firstStakers(n + len(o.stakers))
	if err != nil || len(o.stakers) == 0 {
		return base, err
	}
	out := make([]*staker, 0, len(base)+len(o.stakers))
	for _, s := range base {
		if _, changed := o.stakers[s.txID]; !changed {
			out = append(out, s)
		}
	}
	for _, s := range o.stakers {
		if s != nil {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, compareStakers)
	return out[:min(n, len(out))], nil
}

// applyStakers records eff's staker changes in the overlay.
func (o *overlay) applyStakers(eff *effects) {
	for _, s := range eff.stakers {
		o.stakers[s.txID] = s
	}
	for _, id := range eff.removedStakers {
		o.stakers[id] = nil
	}
	o.supplyAdded += eff.supplyAdded
	o.supplyRemoved += eff.supplyRemoved
}

// revertStakers forgets eff's staker changes.
func (o *overlay) revertStakers(eff *effects) {
	for _, s := range eff.stakers {
		if o.stakers[s.txID] == s {
			delete(o.stakers, s.txID)
		}
	}
	o.supplyAdded -= eff.supplyAdded
	o.supplyRemoved -= eff.supplyRemoved
}

// putStakers writes the staker changes of effs (in order), the primary network's validator
// diffs they make and the supply after them, which was before on s.
func (w writer) putStakers(s stakerSource, effs []*effects) error {
	var added, removed uint64
	for _, eff := range effs {
		added += eff.supplyAdded
		removed += eff.supplyRemoved
		for _, st := range eff.stakers {
			if err := w.putStaker(st); err != nil {
				return err
			}
		}
		for _, id := range eff.removedStakers {
			if err := w.deleteStaker(s, id); err != nil {
				return err
			}
		}
		for _, ux := range eff.rewardUTXOs {
			b, err := ux.Bytes()
			if err != nil {
				return err
			}
			k := binary.BigEndian.AppendUint32(chainstate.IDKey(keyRewardUTXO, ux.TxID), ux.OutputIndex)
			if err := w.b.Put(k, b); err != nil {
				return err
			}
		}
	}
	if added == 0 && removed == 0 {
		return nil
	}
	supply, err := s.supply()
	if err != nil {
		return err
	}
	return w.b.Put([]byte{keySupply}, binary.BigEndian.AppendUint64(nil, supply+added-removed))
}

// putStaker writes st with its indexes and its validator diff (the same again when a validator's
// delegatee reward changes).
func (w writer) putStaker(st *staker) error {
	if err := w.b.Put(st.endKey(), nil); err != nil {
		return err
	}
	if err := w.b.Put(nodeStakerKey(st.nodeID, st.txID), nil); err != nil {
		return err
	}
	if err := w.b.Put(chainstate.IDKey(keyStaker, st.txID), st.bytes()); err != nil {
		return err
	}
	return w.putValidatorDiff(ids.Empty, st.txID, stakerDiff(st, st.weight))
}

// deleteStaker removes staker id of s with its indexes, and records its weight leaving.
func (w writer) deleteStaker(s stakerSource, id ids.ID) error {
	st, found, err := s.staker(id)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("platform: removed staker %s is missing", id)
	}
	for _, k := range [][]byte{st.endKey(), nodeStakerKey(st.nodeID, st.txID), chainstate.IDKey(keyStaker, st.txID)} {
		if err := w.b.Delete(k); err != nil {
			return err
		}
	}
	return w.putValidatorDiff(ids.Empty, st.txID, stakerDiff(st, 0))
}

func nodeStakerKey(nodeID ids.NodeID, txID ids.ID) []byte {
	k := make([]byte, 0, 1+ids.NodeIDLen+ids.IDLen)
	k = append(k, keyNodeStaker)
	k = append(k, nodeID[:]...)
	return append(k, txID[:]...)
}

// stakerDiff is the validator diff of st at weight.
func stakerDiff(st *staker, weight uint64) *diffRecord {
	return &diffRecord{kind: diffLegacy, nodeID: st.nodeID, weight: weight, start: st.start, end: st.end}
}
