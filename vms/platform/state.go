package platform

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Key layout of the VM's key space (its chains.Context.DB). Every key starts with one of these
// bytes; IDs are fixed-width, so no key is a prefix of another kind's. The kinds it shares with
// the X-Chain are chainstate's:
//
//   - chainstate.KeyUTXO | utxoID → the UTXO's bytes (UTXO.Bytes).
//   - chainstate.KeyAddr | address[20] | utxoID → empty: the UTXOs an address owns, in UTXO ID
//     order.
//   - chainstate.KeyTx | txID → the committed tx's signed bytes (status Committed).
//   - chainstate.KeyBlock | blockID → the accepted block's bytes.
//   - chainstate.KeyHeight | height (8 bytes, big-endian) → the ID of the accepted block at that
//     height.
//   - chainstate.KeyLast → the last accepted block's ID, height (8 bytes), then the fee state
//     after it: chain time, capacity, excess, continuous fee excess, accrued fees (8 bytes each,
//     big-endian). Written with every block, in the block's batch; absent until the genesis is
//     written.
//
// The P-Chain's own kinds:
const (
	// keySubnet | subnetID → empty: the subnet exists; its owner is its CreateSubnetTx's.
	keySubnet byte = 's'
	// keyChain | subnetID | chainID → empty: the blockchains of each subnet, the primary
	// network's (subnet ids.Empty) included; a chain's fields are its CreateChainTx's.
	keyChain byte = 'c'
	// keyConversion | subnetID → the subnet's conversion to an L1: conversion ID, manager chain
	// ID, then the manager address (subnetConversion.bytes).
	keyConversion byte = 'v'
	// keyL1 | validationID → the L1 validator (l1Validator.bytes).
	keyL1 byte = 'L'
	// keyL1Subnet | subnetID | validationID → empty: the L1 validators of each subnet.
	keyL1Subnet byte = 'V'
	// keySubnetValidator | subnetID | txID → empty: the AddSubnetValidatorTxs of each subnet.
	keySubnetValidator byte = 'w'
	// keySubnetOwner | subnetID → the ID of the subnet's last TransferSubnetOwnershipTx, whose
	// owner replaced its CreateSubnetTx's.
	keySubnetOwner byte = 'O'
	// keyActive | endAccumulatedFee (8 bytes, big-endian) | validationID → empty: the active L1
	// validators, in the order they run out (§4.7).
	keyActive byte = 'A'
	// keyValidatorDiff (validatorset.go) holds the per-height validator diffs.
)

// feeRecordLen is the length of the fee state in the chainstate.KeyLast value.
const feeRecordLen = 5 * 8

// state reads the P-Chain's accepted state from the VM's key space: the kinds it shares with the
// X-Chain through its chainstate.Reader (UTXO, Tx, HasTx, Block, BlockIDAt, UTXOIDs,
// AtomicUTXO, LastHeight). It holds no memory of its own and is safe for concurrent use; every
// write goes through a block's batch or the genesis batch (writer).
type state struct {
	chainstate.Reader[*txs.UTXO, *txs.Tx, txs.Block]
	// initialSupply is the genesis's AVAX supply, the supply until a staker changes it.
	initialSupply uint64
}

// newState returns the state of the key space db with the chain's shared memory and the
// genesis's AVAX supply.
func newState(db *storage.View, shared *atomic.SharedMemory, initialSupply uint64) *state {
	f := chainstate.Format[*txs.UTXO, *txs.Tx, txs.Block]{UTXO: txs.ParseUTXO, Tx: txs.ParseTx, Block: txs.ParseBlock, LastExtra: feeRecordLen}
	return &state{Reader: chainstate.NewReader(db, shared, f), initialSupply: initialSupply}
}

// pinned returns the state as published now, for every read of one answer (chainstate.Reader's
// Pinned); the caller must call release.
func (s *state) pinned() (pinned *state, release func()) {
	r, release := s.Pinned()
	return &state{Reader: r, initialSupply: s.initialSupply}, release
}

// atomicUTXO implements utxoSource over shared memory: the UTXO ref that peer exported to the
// P-Chain and no accepted block imported.
func (s *state) atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	return s.AtomicUTXO(peer, ref.InputID())
}

// utxo implements utxoSource over the accepted UTXOs.
func (s *state) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) {
	ux, found, err := s.UTXO(ref.InputID())
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, utxoNotFoundError(ref.TxID, ref.OutputIndex)
	}
	return ux, nil
}

// subnetOwner implements utxoSource: the owner of an accepted subnet, its CreateSubnetTx's, or
// its last TransferSubnetOwnershipTx's once it has one.
func (s *state) subnetOwner(id ids.ID) (*secp256k1fx.OutputOwners, error) {
	ok, err := s.DB().Has(chainstate.IDKey(keySubnet, id))
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, subnetNotFoundError(id)
	}
	ownerTxID := id
	if b, found, err := chainstate.Get(s.DB(), chainstate.IDKey(keySubnetOwner, id)); err != nil {
		return nil, err
	} else if found {
		if ownerTxID, err = ids.ToID(b); err != nil {
			return nil, fmt.Errorf("stored owner of subnet %s: %w", id, err)
		}
	}
	tx, found, err := s.Tx(ownerTxID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("subnet %s: owner tx %s is missing", id, ownerTxID)
	}
	switch u := tx.Unsigned().(type) {
	case *txs.CreateSubnetTx:
		return &u.Owner, nil
	case *txs.TransferSubnetOwnershipTx:
		return &u.Owner, nil
	}
	return nil, fmt.Errorf("subnet %s: owner tx %s is a %T", id, ownerTxID, tx.Unsigned())
}

// conversion implements utxoSource: the accepted conversion of subnetID.
func (s *state) conversion(subnetID ids.ID) (*subnetConversion, bool, error) {
	b, found, err := chainstate.Get(s.DB(), chainstate.IDKey(keyConversion, subnetID))
	if err != nil || !found {
		return nil, false, err
	}
	c, err := parseSubnetConversion(b)
	if err != nil {
		return nil, false, err
	}
	return c, true, nil
}

// l1Validator returns the L1 validator validationID.
func (s *state) l1Validator(validationID ids.ID) (*l1Validator, bool, error) {
	return chainstate.Read(s.DB(), keyL1, validationID, "L1 validator", func(b []byte) (*l1Validator, error) {
		return parseL1Validator(validationID, b)
	})
}

// eachL1Validator calls fn with each L1 validator of subnetID whose validation ID is in vids,
// which are in ID order (l1ValidatorIDs), in that order; a missing one is an error. It walks the
// keyL1 records with one iterator from vids[0], which takes one pass when the subnet's
// validators are near each other in ID order (one L1, or a few); once the walk has stepped over
// as many other subnets' validators as it was asked for, it reads the rest one Get each. Each v
// is newly decoded, and fn may keep it.
func (s *state) eachL1Validator(subnetID ids.ID, vids []ids.ID, fn func(v *l1Validator) error) error {
	if len(vids) == 0 {
		return nil
	}
	missing := func(id ids.ID) error {
		return fmt.Errorf("platform: L1 validator %s of subnet %s is missing", id, subnetID)
	}
	it, err := s.DB().NewIterator([]byte{keyL1}, vids[0][:])
	if err != nil {
		return err
	}
	i, skipped := 0, 0
	for i < len(vids) && skipped <= len(vids) && it.Next() {
		id, err := ids.ToID(it.Key()[1:])
		if err != nil {
			return errors.Join(fmt.Errorf("stored L1 validator key %x: %w", it.Key(), err), it.Close())
		}
		if c := id.Compare(vids[i]); c < 0 {
			skipped++
			continue
		} else if c > 0 {
			return errors.Join(missing(vids[i]), it.Close())
		}
		b := it.Value()
		if err := it.Err(); err != nil {
			return errors.Join(err, it.Close())
		}
		v, err := parseL1Validator(id, b)
		if err != nil {
			return errors.Join(fmt.Errorf("stored L1 validator %s: %w", id, err), it.Close())
		}
		if err := fn(v); err != nil {
			return errors.Join(err, it.Close())
		}
		i++
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return err
	}
	for ; i < len(vids); i++ {
		v, found, err := s.l1Validator(vids[i])
		switch {
		case err != nil:
			return err
		case !found:
			return missing(vids[i])
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// l1ValidatorIDs returns the validation IDs of subnetID's L1 validators, in ID order.
func (s *state) l1ValidatorIDs(subnetID ids.ID) ([]ids.ID, error) {
	return chainstate.IDsUnder(s.DB(), append([]byte{keyL1Subnet}, subnetID[:]...), ids.Empty, chainstate.All)
}

// lastRecord is what chainstate.KeyLast holds.
type lastRecord struct {
	id     ids.ID
	height uint64
	fees   feeState
}

// lastAccepted returns the last accepted block's record; found is false before the genesis is
// written.
func (s *state) lastAccepted() (lastRecord, bool, error) {
	id, height, b, found, err := s.Last()
	if err != nil || !found {
		return lastRecord{}, false, err
	}
	return lastRecord{id: id, height: height, fees: parseFeeState(b)}, true, nil
}

// parseFeeState reads the fee state after the ID and height of a chainstate.KeyLast record.
func parseFeeState(b []byte) feeState {
	return feeState{
		time:            binary.BigEndian.Uint64(b),
		capacity:        binary.BigEndian.Uint64(b[8:]),
		excess:          binary.BigEndian.Uint64(b[16:]),
		validatorExcess: binary.BigEndian.Uint64(b[24:]),
		accrued:         binary.BigEndian.Uint64(b[32:]),
	}
}

// subnetIDs returns the IDs of every subnet, in ID order.
func (s *state) subnetIDs() ([]ids.ID, error) {
	return chainstate.IDsUnder(s.DB(), []byte{keySubnet}, ids.Empty, chainstate.All)
}

// chainIDs returns the IDs of subnetID's blockchains, in ID order.
func (s *state) chainIDs(subnetID ids.ID) ([]ids.ID, error) {
	return chainstate.IDsUnder(s.DB(), append([]byte{keyChain}, subnetID[:]...), ids.Empty, chainstate.All)
}

// owners returns the addresses that own ux's output.
func owners(out txs.Output) []ids.ShortID {
	switch out := out.(type) {
	case *secp256k1fx.TransferOutput:
		return out.Addrs
	case *txs.LockOut:
		if out.Out != nil {
			return out.Out.Addrs
		}
	}
	return nil
}

func activeKey(endFee uint64, validationID ids.ID) []byte {
	k := make([]byte, 0, 1+8+ids.IDLen)
	k = append(k, keyActive)
	k = binary.BigEndian.AppendUint64(k, endFee)
	return append(k, validationID[:]...)
}

// activeL1 is an active L1 validator as the keyActive index lists it.
type activeL1 struct {
	endFee       uint64
	validationID ids.ID
}

// activeL1Validators returns the active L1 validators of every L1, those that run out first
// first (§4.7).
func (s *state) activeL1Validators() ([]activeL1, error) {
	it, err := s.DB().NewIterator([]byte{keyActive}, nil)
	if err != nil {
		return nil, err
	}
	var out []activeL1
	for it.Next() {
		k := it.Key()
		if len(k) != 1+8+ids.IDLen {
			return nil, errors.Join(fmt.Errorf("stored active L1 validator key %x", k), it.Close())
		}
		out = append(out, activeL1{endFee: binary.BigEndian.Uint64(k[1:]), validationID: ids.ID(k[9:])})
	}
	return out, errors.Join(it.Err(), it.Close())
}

// activeL1Count implements utxoSource: the number of keyActive entries.
func (s *state) activeL1Count() (uint64, error) {
	it, err := s.DB().NewIterator([]byte{keyActive}, nil)
	if err != nil {
		return 0, err
	}
	var n uint64
	for it.Next() {
		n++
	}
	return n, errors.Join(it.Err(), it.Close())
}

// writer stages changes into a batch.
type writer struct {
	b *storage.Batch
	// s and written let putL1Validator keep the keyActive index and the validator diffs: the
	// accepted state, and the L1 validators the batch has written so far, as written.
	s       *state
	written map[ids.ID]*l1Validator
	// height is the height of the block being written: the validator diffs' (validatorset.go).
	height uint64
}

// putL1Validator writes v and keeps the keyActive index and the validator diffs in step.
func (w writer) putL1Validator(v *l1Validator) error {
	old, written := w.written[v.validationID]
	if !written && w.s != nil {
		prev, found, err := w.s.l1Validator(v.validationID)
		if err != nil {
			return err
		}
		if found {
			old = prev
		}
	}
	var oldEnd uint64
	if old != nil {
		oldEnd = old.endFee
	}
	if oldEnd != 0 {
		if err := w.b.Delete(activeKey(oldEnd, v.validationID)); err != nil {
			return err
		}
	}
	if v.endFee != 0 {
		if err := w.b.Put(activeKey(v.endFee, v.validationID), nil); err != nil {
			return err
		}
	}
	if old == nil || old.weight != v.weight || (old.endFee != 0) != (v.endFee != 0) {
		if err := w.putValidatorDiff(v.subnetID, v.validationID, l1Diff(v)); err != nil {
			return err
		}
	}
	if w.written != nil {
		c := *v
		w.written[v.validationID] = &c
	}
	if v.weight == 0 {
		// Removed by a SetL1ValidatorWeightTx (§4.4): only its diff at this height remains.
		if err := w.b.Delete(chainstate.PairKey(keyL1Subnet, v.subnetID, v.validationID)); err != nil {
			return err
		}
		return w.b.Delete(chainstate.IDKey(keyL1, v.validationID))
	}
	b, err := v.bytes()
	if err != nil {
		return err
	}
	return w.b.Put(chainstate.IDKey(keyL1, v.validationID), b)
}

// putTx records tx as committed, with what its kind indexes (txIndexer).
func (w writer) putTx(tx *txs.Tx) error {
	if err := w.b.Put(chainstate.IDKey(chainstate.KeyTx, tx.ID()), tx.Bytes()); err != nil {
		return err
	}
	return tx.Unsigned().Visit(txIndexer{w: w, txID: tx.ID()})
}

// txIndexer writes the index entries a committed tx's kind adds besides the tx itself: the
// subnets, chains and subnet validators the API and the validator sets list (the keys above).
type txIndexer struct {
	w    writer
	txID ids.ID
}

// putL1 records eff's subnet conversion, the L1 validators it adds, changes or removes, and the
// registration it executes, if any.
func (w writer) putL1(eff *effects) error {
	if eff.conversion != nil {
		if err := w.b.Put(chainstate.IDKey(keyConversion, eff.convertedSubnet), eff.conversion.bytes()); err != nil {
			return err
		}
	}
	if eff.expiry != nil {
		if err := w.b.Put(eff.expiry.key(), nil); err != nil {
			return err
		}
	}
	for _, v := range eff.l1Validators {
		if err := w.putL1Validator(v); err != nil {
			return err
		}
		if v.weight == 0 {
			continue
		}
		if err := w.b.Put(chainstate.PairKey(keyL1Subnet, v.subnetID, v.validationID), nil); err != nil {
			return err
		}
	}
	return nil
}

func (w writer) putUTXO(ux *txs.UTXO) error {
	b, err := ux.Bytes()
	if err != nil {
		return err
	}
	return chainstate.PutUTXO(w.b, ux.InputID(), b, owners(ux.Out))
}

func (w writer) deleteUTXO(ux *txs.UTXO) error {
	return chainstate.DeleteUTXO(w.b, ux.InputID(), owners(ux.Out))
}

// putBlock records blk as accepted at its height and as the last accepted block, with the fee
// state after it.
func (w writer) putBlock(blk txs.Block, fees feeState) error {
	v := make([]byte, 0, feeRecordLen)
	v = binary.BigEndian.AppendUint64(v, fees.time)
	v = binary.BigEndian.AppendUint64(v, fees.capacity)
	v = binary.BigEndian.AppendUint64(v, fees.excess)
	v = binary.BigEndian.AppendUint64(v, fees.validatorExcess)
	v = binary.BigEndian.AppendUint64(v, fees.accrued)
	return chainstate.PutBlock(w.b, blk.ID(), blk.Height(), blk.Bytes(), v)
}
