package platform

import (
	"encoding/binary"

	"github.com/cornice-node/cornice/ids"
)

// What the warp-driven L1 kinds (RegisterL1ValidatorTx, SetL1ValidatorWeightTx) keep besides the
// validators themselves (§4.4).

// keyExpiry | expiry (8 bytes, big-endian) | validationID → empty: the registrations executed,
// so that a RegisterL1Validator message is never executed twice (§4.4). Entries are kept after
// their expiry has passed: the P-Chain's signing rules read them to tell a registration that
// once existed (§4.3 of network-consensus-warp.md).
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

// hasExpiry implements utxoSource.
func (s *state) hasExpiry(e expiryEntry) (bool, error) {
	return s.db.Has(e.key())
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
