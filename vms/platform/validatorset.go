package platform

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/warp"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Validator sets at past heights (platform.getValidatorsAt, §4.7, §5.1).
//
// Every accepted block writes, in its own batch, one keyValidatorDiff entry per validator whose
// weight or activity it changes: the validator as the block leaves it (diffRecord). A block that
// changes no validator (most blocks) writes nothing. The set of a subnet at height h is the
// replay of that subnet's entries at heights ≤ h, the last entry of each validator winning:
//
//   - the keys sort by subnet, then height, so the replay is one forward scan of one subnet's
//     range, stopping at the first key above h. Its cost is the number of validator changes of
//     that subnet up to h, not the number of blocks or of other subnets' validators: converting
//     an L1 with 1,000 validators writes 1,000 entries once, and a run-out, top-up or disable
//     writes one;
//   - entries at heights ≤ the last accepted height are never rewritten, so a reader needs no
//     snapshot: a block accepted during the scan only adds keys above h;
//   - the chain time of block h decides which legacy validators (AddSubnetValidatorTx windows)
//     are current, and a run-out (which happens by time) is the entry of the block that
//     deactivated the validator (§4.7), so the set at h is what block h's verification saw.
//
// The reference keeps the current set in memory and walks reverse diffs down from the tip
// instead; replaying forward keeps every key immutable once written, at the price of a scan
// that grows with the subnet's history of changes (a few per validator in practice).

// keyValidatorDiff | subnetID | height (8 bytes, big-endian) | validationID or txID → a diffRecord.
const keyValidatorDiff byte = 'd'

// Kinds of diffRecord.
const (
	// diffL1 is an L1 validator (keyed by validation ID).
	diffL1 byte = 1
	// diffLegacy is an AddSubnetValidatorTx's validator (keyed by tx ID).
	diffLegacy byte = 2
)

// diffRecord is a validator as a block leaves it. For an L1 validator: node ID, weight, whether
// it is active, its compressed BLS key. For a legacy validator: node ID, weight and its window.
type diffRecord struct {
	kind      byte
	nodeID    ids.NodeID
	weight    uint64
	active    bool
	publicKey [txs.BLSPublicKeyLen]byte
	start     uint64
	end       uint64
}

const (
	diffL1Len     = 1 + ids.NodeIDLen + 8 + 1 + txs.BLSPublicKeyLen
	diffLegacyLen = 1 + ids.NodeIDLen + 8 + 8 + 8
)

func (r *diffRecord) bytes() []byte {
	b := make([]byte, 0, diffL1Len)
	b = append(b, r.kind)
	b = append(b, r.nodeID[:]...)
	b = binary.BigEndian.AppendUint64(b, r.weight)
	if r.kind == diffLegacy {
		b = binary.BigEndian.AppendUint64(b, r.start)
		return binary.BigEndian.AppendUint64(b, r.end)
	}
	active := byte(0)
	if r.active {
		active = 1
	}
	b = append(b, active)
	return append(b, r.publicKey[:]...)
}

func parseDiffRecord(b []byte) (diffRecord, error) {
	var r diffRecord
	if len(b) == 0 {
		return r, errors.New("empty validator diff")
	}
	r.kind = b[0]
	switch {
	case r.kind == diffL1 && len(b) == diffL1Len:
		copy(r.nodeID[:], b[1:])
		r.weight = binary.BigEndian.Uint64(b[1+ids.NodeIDLen:])
		switch b[1+ids.NodeIDLen+8] {
		case 0:
		case 1:
			r.active = true
		default:
			return r, fmt.Errorf("validator diff: activity byte %d", b[1+ids.NodeIDLen+8])
		}
		copy(r.publicKey[:], b[1+ids.NodeIDLen+8+1:])
	case r.kind == diffLegacy && len(b) == diffLegacyLen:
		copy(r.nodeID[:], b[1:])
		r.weight = binary.BigEndian.Uint64(b[1+ids.NodeIDLen:])
		r.start = binary.BigEndian.Uint64(b[1+ids.NodeIDLen+8:])
		r.end = binary.BigEndian.Uint64(b[1+ids.NodeIDLen+16:])
	default:
		return r, fmt.Errorf("validator diff: kind %d, %d bytes", r.kind, len(b))
	}
	return r, nil
}

func diffKey(subnetID ids.ID, height uint64, id ids.ID) []byte {
	k := make([]byte, 0, 1+ids.IDLen+8+ids.IDLen)
	k = append(k, keyValidatorDiff)
	k = append(k, subnetID[:]...)
	k = binary.BigEndian.AppendUint64(k, height)
	return append(k, id[:]...)
}

// putValidatorDiff records r for validator id of subnetID at the writer's height.
func (w writer) putValidatorDiff(subnetID, id ids.ID, r *diffRecord) error {
	return w.b.Put(diffKey(subnetID, w.height, id), r.bytes())
}

// l1Diff returns the diff record of v as it is.
func l1Diff(v *l1Validator) *diffRecord {
	return &diffRecord{kind: diffL1, nodeID: v.nodeID, weight: v.weight, active: v.endFee != 0, publicKey: v.publicKey}
}

// validatorDiffs replays subnetID's diffs up to height: each validator (by validation or tx ID)
// as the last block at or below height left it.
func (s *state) validatorDiffs(subnetID ids.ID, height uint64) (map[ids.ID]diffRecord, error) {
	prefix := make([]byte, 0, 1+ids.IDLen)
	prefix = append(prefix, keyValidatorDiff)
	prefix = append(prefix, subnetID[:]...)
	it, err := s.DB().NewIterator(prefix, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[ids.ID]diffRecord)
	for it.Next() {
		k := it.Key()
		if len(k) != len(prefix)+8+ids.IDLen {
			return nil, errors.Join(fmt.Errorf("stored validator diff key %x", k), it.Close())
		}
		if binary.BigEndian.Uint64(k[len(prefix):]) > height {
			break
		}
		r, err := parseDiffRecord(it.Value())
		if err != nil {
			return nil, errors.Join(fmt.Errorf("stored validator diff %x: %w", k, err), it.Close())
		}
		out[ids.ID(k[len(prefix)+8:])] = r
	}
	return out, errors.Join(it.Err(), it.Close())
}

// blockTimeAt returns the time of the accepted block at height: the genesis time for the genesis
// block.
func (vm *VM) blockTimeAt(s *state, height uint64) (uint64, error) {
	id, found, err := s.BlockIDAt(height)
	switch {
	case err != nil:
		return 0, err
	case !found:
		return 0, fmt.Errorf("platform: no accepted block at height %d", height)
	}
	blk, found, err := s.Block(id)
	switch {
	case err != nil:
		return 0, err
	case !found:
		return 0, fmt.Errorf("platform: block %s at height %d is missing", id, height)
	}
	if tb, ok := blk.(timed); ok {
		return tb.Time(), nil
	}
	return vm.validator.start, nil
}

// SetValidator is one entry of a validator set at a height (ValidatorsAt): the validator warp
// verification flattens into its canonical set. PublicKey is nil for a validator without a
// BLS key and for the inactive L1 validators' entry.
type SetValidator = warp.Validator

// ErrUnfinalizedHeight is wrapped by ValidatorsAt for a height above the last accepted block's.
var ErrUnfinalizedHeight = errors.New("unfinalized height")

// ValidatorsAt returns the validator set of subnetID as of the accepted block at height, as this
// node runs the network: sorted by node ID, at most one entry per node ID (weights of entries
// sharing one are summed):
//
//   - the primary network (ids.Empty): this node (Factory), standing for the genesis stake, at
//     every height, and the stakers txs added that are current at block height's time (a
//     delegator's weight under its validator's node and key); the genesis's own stakers are left
//     out, since this node holds their weight (RecordedValidatorsAt lists them);
//   - a subnet: its legacy validators whose window contains block height's time, with this
//     node's BLS key when it is this node (a legacy validator's key is its Primary Network key),
//     and its L1 validators of weight > 0: the active ones under their node IDs and keys, and
//     the inactive ones' weights summed under the empty node ID with no key (§4.7).
//
// The node's validator set, warp verification and the network's BLS checks read it. An unknown
// subnet has an empty set. A height above the last accepted block's gives an error wrapping
// ErrUnfinalizedHeight. It reads only data that never changes once accepted, so it is safe for
// concurrent use.
func (vm *VM) ValidatorsAt(subnetID ids.ID, height uint64) ([]SetValidator, error) {
	return vm.validatorsAt(vm.state, subnetID, height, false)
}

// RecordedValidatorsAt is ValidatorsAt as the P-Chain records the primary network: its current
// stakers at height's time, the genesis's included, and not this node unless it stakes; the same
// as ValidatorsAt for any other subnet. The platform API answers with it, as the reference does.
func (vm *VM) RecordedValidatorsAt(subnetID ids.ID, height uint64) ([]SetValidator, error) {
	return vm.validatorsAt(vm.state, subnetID, height, true)
}

// PrimaryValidators returns the Primary Network's current validators as the P-Chain records them
// (RecordedValidatorsAt at the last accepted height): each staking validator's node ID, its
// weight with its delegators' and its BLS public key, sorted by node ID. It is what a node that
// runs consensus with the other validators reads; it is safe for concurrent use.
func (vm *VM) PrimaryValidators() ([]SetValidator, error) {
	rec, _, err := vm.state.lastAccepted()
	if err != nil {
		return nil, fmt.Errorf("read last accepted block: %w", err)
	}
	return vm.RecordedValidatorsAt(ids.Empty, rec.height)
}

// validatorsAt is ValidatorsAt, or RecordedValidatorsAt if recorded, over the accepted state s:
// the published one for the API and the node, the live one on the pipeline goroutine.
func (vm *VM) validatorsAt(s *state, subnetID ids.ID, height uint64, recorded bool) ([]SetValidator, error) {
	rec, _, err := s.lastAccepted()
	if err != nil {
		return nil, fmt.Errorf("read last accepted block: %w", err)
	}
	if height > rec.height {
		return nil, fmt.Errorf("%w: current height %d < requested height %d", ErrUnfinalizedHeight, rec.height, height)
	}
	diffs, err := s.validatorDiffs(subnetID, height)
	if err != nil {
		return nil, fmt.Errorf("replay validator diffs of subnet %s: %w", subnetID, err)
	}
	var t uint64
	for _, r := range diffs {
		if r.kind == diffLegacy {
			if t, err = vm.blockTimeAt(s, height); err != nil {
				return nil, err
			}
			break
		}
	}
	set := make(map[ids.NodeID]*SetValidator, len(diffs))
	addWeight := func(nodeID ids.NodeID, pk *[txs.BLSPublicKeyLen]byte, w uint64) {
		sv, ok := set[nodeID]
		if !ok {
			sv = &SetValidator{NodeID: nodeID, PublicKey: pk}
			set[nodeID] = sv
		}
		sv.Weight = satAdd(sv.Weight, w)
	}
	if subnetID == ids.Empty && !recorded {
		// This node, then the stakers current at height's time (stakers.go).
		v := &vm.validator
		var pk *[txs.BLSPublicKeyLen]byte
		if v.signer != nil {
			k := v.signer.PublicKey
			pk = &k
		}
		addWeight(v.nodeID, pk, v.weight)
	}
	// This node's view leaves out the genesis's stakers and the delegators to them.
	leftOut := map[ids.NodeID]bool{}
	for id, r := range diffs {
		if subnetID == ids.Empty && !recorded && r.weight > 0 && r.start <= t && t < r.end && vm.isGenesisStaker(id) {
			leftOut[r.nodeID] = true
		}
	}
	for id, r := range diffs {
		switch {
		case r.weight == 0:
		case r.kind == diffLegacy && subnetID == ids.Empty:
			if r.start <= t && t < r.end && !leftOut[r.nodeID] {
				pk, err := vm.stakerKey(s, id)
				if err != nil {
					return nil, err
				}
				addWeight(r.nodeID, pk, r.weight)
				if sv := set[r.nodeID]; sv.PublicKey == nil {
					sv.PublicKey = pk
				}
			}
		case r.kind == diffLegacy:
			if r.start <= t && t < r.end {
				var pk *[txs.BLSPublicKeyLen]byte
				if r.nodeID == vm.validator.nodeID && vm.validator.signer != nil {
					k := vm.validator.signer.PublicKey
					pk = &k
				}
				addWeight(r.nodeID, pk, r.weight)
			}
		case r.active:
			pk := r.publicKey
			addWeight(r.nodeID, &pk, r.weight)
		default:
			addWeight(ids.EmptyNodeID, nil, r.weight)
		}
	}
	out := make([]SetValidator, 0, len(set))
	for _, sv := range set {
		out = append(out, *sv)
	}
	slices.SortFunc(out, func(a, b SetValidator) int { return a.NodeID.Compare(b.NodeID) })
	return out, nil
}

// isGenesisStaker reports whether txID is one of the genesis's validator txs.
func (vm *VM) isGenesisStaker(txID ids.ID) bool { return slices.Contains(vm.stakerTxIDs, txID) }

// stakerKey returns the BLS key of the Primary Network staker added by tx txID: its signer's for
// a validator, nil for a delegator (whose weight counts under its validator's key).
func (vm *VM) stakerKey(s *state, txID ids.ID) (*[txs.BLSPublicKeyLen]byte, error) {
	tx, found, err := s.Tx(txID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("platform: staking tx %s is missing", txID)
	}
	if u, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx); ok {
		if pop, ok := u.Signer.(*txs.ProofOfPossession); ok {
			k := pop.PublicKey
			return &k, nil
		}
	}
	return nil, nil
}
