package platform

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// MaxManagerAddressLen is the longest manager address of a ConvertSubnetToL1Tx, in bytes
// (reference/platform-exchange.md §4.3).
const MaxManagerAddressLen = 4096

// subnetConversion is what a ConvertSubnetToL1Tx records for its subnet (§2.3, §4.4).
type subnetConversion struct {
	conversionID ids.ID
	chainID      ids.ID
	address      []byte
}

// l1Validator is an L1 validator as the state keeps it (§4.4). endFee is its EndAccumulatedFee
// (§4.7): its balance plus the accrued fees when it was last (re)activated or topped up; its
// remaining balance is endFee − accrued fees. It is active while endFee ≠ 0; running out of
// balance or a DisableL1ValidatorTx sets it to 0.
type l1Validator struct {
	validationID          ids.ID
	subnetID              ids.ID
	nodeID                ids.NodeID
	publicKey             [txs.BLSPublicKeyLen]byte
	weight                uint64
	startTime             uint64
	endFee                uint64
	remainingBalanceOwner txs.PChainOwner
	deactivationOwner     txs.PChainOwner
	// minNonce is the lowest nonce a SetL1ValidatorWeightTx may carry for it: one past the
	// last one executed (§4.4).
	minNonce uint64
}

// remaining returns v's remaining balance when the accrued fees are accrued: 0 when inactive.
func (v *l1Validator) remaining(accrued uint64) uint64 {
	if v.endFee <= accrued {
		return 0
	}
	return v.endFee - accrued
}

// bytes encodes v for the state: subnet ID, node ID, compressed key, weight, start time, end
// accumulated fee, both owners, then the minimum nonce. A record written before validators had
// a nonce ends after the owners, and reads as minimum nonce 0.
func (v *l1Validator) bytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 256))
	p.ID(v.subnetID)
	p.NodeID(v.nodeID)
	p.Fixed(v.publicKey[:])
	p.Uint64(v.weight)
	p.Uint64(v.startTime)
	p.Uint64(v.endFee)
	v.remainingBalanceOwner.Marshal(p)
	v.deactivationOwner.Marshal(p)
	p.Uint64(v.minNonce)
	return p.Bytes()
}

func parseL1Validator(id ids.ID, b []byte) (*l1Validator, error) {
	u := codec.NewUnpacker(b, len(b))
	v := &l1Validator{validationID: id}
	v.subnetID = u.ID()
	v.nodeID = u.NodeID()
	u.Fixed(v.publicKey[:])
	v.weight = u.Uint64()
	v.startTime = u.Uint64()
	v.endFee = u.Uint64()
	v.remainingBalanceOwner.Unmarshal(u)
	v.deactivationOwner.Unmarshal(u)
	if u.Remaining() > 0 {
		v.minNonce = u.Uint64()
	}
	if err := u.Done(); err != nil {
		return nil, err
	}
	return v, nil
}

func (c *subnetConversion) bytes() []byte {
	b := make([]byte, 0, 2*ids.IDLen+len(c.address))
	b = append(b, c.conversionID[:]...)
	b = append(b, c.chainID[:]...)
	return append(b, c.address...)
}

func parseSubnetConversion(b []byte) (*subnetConversion, error) {
	if len(b) < 2*ids.IDLen {
		return nil, fmt.Errorf("stored subnet conversion: %d bytes", len(b))
	}
	return &subnetConversion{
		conversionID: ids.ID(b[:ids.IDLen]),
		chainID:      ids.ID(b[ids.IDLen : 2*ids.IDLen]),
		address:      bytes.Clone(b[2*ids.IDLen:]),
	}, nil
}

// L1Validator is an L1 validator of the accepted state (§4.4).
type L1Validator struct {
	ValidationID ids.ID
	SubnetID     ids.ID
	NodeID       ids.NodeID
	// PublicKey is the compressed BLS public key.
	PublicKey [txs.BLSPublicKeyLen]byte
	Weight    uint64
	// StartTime is the chain time, in unix seconds, of the conversion that added it.
	StartTime uint64
	// Balance is its remaining balance after the continuous fee (§4.7) charged up to the last
	// accepted block's time; 0 once it has run out or been disabled. It is active while
	// Balance > 0.
	Balance               uint64
	RemainingBalanceOwner txs.PChainOwner
	DeactivationOwner     txs.PChainOwner
	// MinNonce is the lowest nonce a SetL1ValidatorWeightTx may carry for it.
	MinNonce uint64
}

// l1Validators returns the accepted L1 validators of subnetID in s, in validation ID order; none
// for a subnet that is not an L1. The caller pins s: the index, the validators it names and the
// accrued fees their balances depend on must come from one state.
func (s *state) l1Validators(subnetID ids.ID) ([]L1Validator, error) {
	rec, _, err := s.lastAccepted()
	if err != nil {
		return nil, fmt.Errorf("read last accepted block: %w", err)
	}
	vids, err := s.l1ValidatorIDs(subnetID)
	if err != nil {
		return nil, err
	}
	out := make([]L1Validator, 0, len(vids))
	err = s.eachL1Validator(subnetID, vids, func(v *l1Validator) error {
		out = append(out, v.export(rec.fees.accrued))
		return nil
	})
	return out, err
}

// CurrentValidators returns SubnetValidators(subnetID) and the accepted L1 validators of subnetID
// (in validation ID order, none for a subnet that is not an L1, balances as of the same block),
// both as of one last accepted block: read apart, a block accepted between them could show a
// validator in both lists, or in neither.
func (vm *VM) CurrentValidators(subnetID ids.ID) ([]SubnetValidator, []L1Validator, error) {
	s, release := vm.state.pinned()
	defer release()
	legacy, err := vm.subnetValidators(s, subnetID)
	if err != nil {
		return nil, nil, err
	}
	l1, err := s.l1Validators(subnetID)
	if err != nil {
		return nil, nil, err
	}
	return legacy, l1, nil
}

// L1Validator returns the accepted L1 validator validationID, active or not; found is false for
// an unknown validation ID.
func (vm *VM) L1Validator(validationID ids.ID) (L1Validator, bool, error) {
	v, _, found, err := vm.l1ValidatorAt(validationID)
	return v, found, err
}

// l1ValidatorAt returns the accepted L1 validator validationID and the height of the last
// accepted block it was read at: both, and the accrued fees its balance depends on, from one
// published state.
func (vm *VM) l1ValidatorAt(validationID ids.ID) (L1Validator, uint64, bool, error) {
	s, release := vm.state.pinned()
	defer release()
	rec, _, err := s.lastAccepted()
	if err != nil {
		return L1Validator{}, 0, false, fmt.Errorf("read last accepted block: %w", err)
	}
	v, found, err := s.l1Validator(validationID)
	if err != nil || !found {
		return L1Validator{}, rec.height, false, err
	}
	return v.export(rec.fees.accrued), rec.height, true, nil
}

// export returns v as the API shows it when the accrued fees are accrued.
func (v *l1Validator) export(accrued uint64) L1Validator {
	return L1Validator{
		ValidationID:          v.validationID,
		SubnetID:              v.subnetID,
		NodeID:                v.nodeID,
		PublicKey:             v.publicKey,
		Weight:                v.weight,
		StartTime:             v.startTime,
		Balance:               v.remaining(accrued),
		RemainingBalanceOwner: v.remainingBalanceOwner,
		DeactivationOwner:     v.deactivationOwner,
		MinNonce:              v.minNonce,
	}
}
