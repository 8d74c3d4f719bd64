package platform

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// What the warp-driven L1 kinds (RegisterL1ValidatorTx, SetL1ValidatorWeightTx) keep besides the
// validators themselves (§4.4).

// keyExpiry | expiry (8 bytes, big-endian) | validationID → empty: the registrations executed,
// so that a RegisterL1Validator message is never executed twice (§4.4). A block removes those
// whose expiry its time has reached, as the reference does when time advances: such a message is
// refused as expired anyway, and the signing rules read an entry only for an expiry still ahead
// (§4.3 of network-consensus-warp.md).
const keyExpiry byte = 'E'

// expiryEntry is one registration: the message's expiry and the validation ID it registers.
type expiryEntry struct {
	expiry       uint64
	validationID ids.ID
}

func (e expiryEntry) key() []byte {
	k := make([]byte, 0, 1+8+ids.IDLen)
	k = append(k, keyExpiry)
	k = binary.BigEndian.AppendUint64(k, e.expiry)
	return append(k, e.validationID[:]...)
}

// pruneExpiries removes, in w's batch, the accepted state's entries whose expiry is at most now.
// Entries are in expiry order, so the walk stops at the first one still ahead.
func (w writer) pruneExpiries(now uint64) error {
	it, err := w.s.DB().NewIterator([]byte{keyExpiry}, nil)
	if err != nil {
		return err
	}
	for it.Next() {
		k := it.Key()
		if len(k) != 1+8+ids.IDLen {
			return errors.Join(fmt.Errorf("stored expiry key %x", k), it.Close())
		}
		if binary.BigEndian.Uint64(k[1:9]) > now {
			break
		}
		if err := w.b.Delete(k); err != nil {
			return errors.Join(err, it.Close())
		}
	}
	return errors.Join(it.Err(), it.Close())
}

// hasExpiry implements utxoSource.
func (s *state) hasExpiry(e expiryEntry) (bool, error) {
	return s.DB().Has(e.key())
}

// hasExpiry implements utxoSource.
func (o *overlay) hasExpiry(e expiryEntry) (bool, error) {
	if _, ok := o.expiries[e]; ok {
		return true, nil
	}
	return o.base.hasExpiry(e)
}

// subnetL1Validators implements utxoSource: the L1 validators of subnetID, active or not, in
// validation ID order.
func (s *state) subnetL1Validators(subnetID ids.ID) ([]*l1Validator, error) {
	vids, err := s.l1ValidatorIDs(subnetID)
	if err != nil {
		return nil, err
	}
	out := make([]*l1Validator, 0, len(vids))
	err = s.eachL1Validator(subnetID, vids, func(v *l1Validator) error {
		out = append(out, v)
		return nil
	})
	return out, err
}

// subnetL1Validators implements utxoSource: the base's, as the overlay's txs leave them (a
// removed one, of weight 0, left out), then those they add.
func (o *overlay) subnetL1Validators(subnetID ids.ID) ([]*l1Validator, error) {
	base, err := o.base.subnetL1Validators(subnetID)
	if err != nil {
		return nil, err
	}
	out := make([]*l1Validator, 0, len(base))
	seen := make(map[ids.ID]struct{}, len(base))
	for _, v := range base {
		seen[v.validationID] = struct{}{}
		if changed, ok := o.l1Validators[v.validationID]; ok {
			v = changed
		}
		if v.weight != 0 {
			out = append(out, v)
		}
	}
	for id, v := range o.l1Validators {
		if _, ok := seen[id]; !ok && v.subnetID == subnetID && v.weight != 0 {
			out = append(out, v)
		}
	}
	return out, nil
}
