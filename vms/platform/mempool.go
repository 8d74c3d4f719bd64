package platform

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// overlay is a state on top of another: the UTXOs that pending txs (or the earlier txs of a
// block) spend and create (utxo.Overlay), and the subnets, conversions and L1 validators they
// make. It is not safe for concurrent use; the VM guards the mempool's.
type overlay struct {
	*utxo.Overlay[txs.UTXO, *txs.UTXO]
	base utxoSource
	// subnets holds the owners of the subnets the overlay's txs create or give a new owner.
	subnets map[ids.ID]*secp256k1fx.OutputOwners
	// removedSubnetValidators holds the legacy subnet validators (by tx ID) the overlay's txs
	// remove.
	removedSubnetValidators map[ids.ID]struct{}
	// conversions holds the subnet conversions the overlay's txs make.
	conversions map[ids.ID]*subnetConversion
	// l1Validators holds the L1 validators the overlay's txs add or change, as they leave them
	// (weight 0: removed); expiries the registrations they execute.
	l1Validators map[ids.ID]*l1Validator
	expiries     map[expiryEntry]struct{}
	// stakers holds the stakers the overlay's txs add or change (nil: removed), and
	// supplyAdded and supplyRemoved what they add to and remove from the supply (stakers.go).
	stakers                    map[ids.ID]*staker
	supplyAdded, supplyRemoved uint64
}

func newOverlay(base utxoSource) *overlay {
	return &overlay{
		Overlay:      utxo.NewOverlay[txs.UTXO](),
		base:         base,
		subnets:      make(map[ids.ID]*secp256k1fx.OutputOwners),
		conversions:  make(map[ids.ID]*subnetConversion),
		l1Validators: make(map[ids.ID]*l1Validator),
		expiries:     make(map[expiryEntry]struct{}),
		stakers:      make(map[ids.ID]*staker),

		removedSubnetValidators: make(map[ids.ID]struct{}),
	}
}

// utxo implements utxoSource.
func (o *overlay) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) { return o.Get(ref, o.base.utxo) }

// atomicUTXO implements utxoSource: an atomic UTXO that a tx of the overlay imports is a double
// spend.
func (o *overlay) atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	return o.Get(ref, func(ref *utxo.UTXOID) (*txs.UTXO, error) { return o.base.atomicUTXO(peer, ref) })
}

// subnetOwner implements utxoSource.
func (o *overlay) subnetOwner(id ids.ID) (*secp256k1fx.OutputOwners, error) {
	if owner, ok := o.subnets[id]; ok {
		return owner, nil
	}
	return o.base.subnetOwner(id)
}

// conversion implements utxoSource.
func (o *overlay) conversion(subnetID ids.ID) (*subnetConversion, bool, error) {
	if c, ok := o.conversions[subnetID]; ok {
		return c, true, nil
	}
	return o.base.conversion(subnetID)
}

// subnetValidator implements utxoSource.
func (o *overlay) subnetValidator(subnetID ids.ID, nodeID ids.NodeID, now uint64) (ids.ID, bool, error) {
	txID, found, err := o.base.subnetValidator(subnetID, nodeID, now)
	if _, removed := o.removedSubnetValidators[txID]; removed {
		return ids.Empty, false, err
	}
	return txID, found, err
}

// l1Validator implements utxoSource: one the overlay's txs removed is not found.
func (o *overlay) l1Validator(validationID ids.ID) (*l1Validator, bool, error) {
	if v, ok := o.l1Validators[validationID]; ok {
		return v, v.weight != 0, nil
	}
	return o.base.l1Validator(validationID)
}

// activeL1Count implements utxoSource: the base's count, corrected for the validators the
// overlay changed.
func (o *overlay) activeL1Count() (uint64, error) {
	n, err := o.base.activeL1Count()
	if err != nil {
		return 0, err
	}
	for id, v := range o.l1Validators {
		prev, found, err := o.base.l1Validator(id)
		if err != nil {
			return 0, err
		}
		if found && prev.endFee != 0 {
			n--
		}
		if v.endFee != 0 {
			n++
		}
	}
	return n, nil
}

// Apply implements mempool.View: it records a verified tx's effects.
func (o *overlay) Apply(eff *effects) {
	o.Overlay.Apply(&eff.Effects)
	if eff.subnetOwner != nil {
		o.subnets[eff.ownedSubnet()] = eff.subnetOwner
	}
	for _, id := range eff.removedSubnetValidators {
		o.removedSubnetValidators[id] = struct{}{}
	}
	if eff.conversion != nil {
		o.conversions[eff.convertedSubnet] = eff.conversion
	}
	for _, v := range eff.l1Validators {
		o.l1Validators[v.validationID] = v
	}
	if eff.expiry != nil {
		o.expiries[*eff.expiry] = struct{}{}
	}
	o.applyStakers(eff)
}

// Revert implements mempool.View: it forgets a tx's effects.
func (o *overlay) Revert(eff *effects) {
	o.Overlay.Revert(&eff.Effects)
	if eff.subnetOwner != nil && o.subnets[eff.ownedSubnet()] == eff.subnetOwner {
		delete(o.subnets, eff.ownedSubnet())
	}
	for _, id := range eff.removedSubnetValidators {
		delete(o.removedSubnetValidators, id)
	}
	if eff.conversion != nil && o.conversions[eff.convertedSubnet] == eff.conversion {
		delete(o.conversions, eff.convertedSubnet)
	}
	for _, v := range eff.l1Validators {
		if o.l1Validators[v.validationID] == v {
			delete(o.l1Validators, v.validationID)
		}
	}
	if eff.expiry != nil {
		delete(o.expiries, *eff.expiry)
	}
	o.revertStakers(eff)
}
