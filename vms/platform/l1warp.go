package platform

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// The warp messages RegisterL1ValidatorTx and SetL1ValidatorWeightTx carry (§4.4, §4.5;
// network-consensus-warp.md §4.4).
//
// A tx's message is checked twice, as in the reference: its signature against the source
// chain's subnet at a P-Chain height with 67 % quorum (verifyWarp, before the tx is executed),
// then its content against the state (the kinds' executors). The P-Chain blocks here carry no
// proposervm context, so the height of a block's check is that of its newest accepted ancestor:
// its parent once that is accepted, which on one node is always the case (docs/decisions.md).
// The mempool checks at the height of the accepted state it reads.

// warpMessageOf returns the signed warp message tx carries; ok is false for the kinds that
// carry none.
func warpMessageOf(tx *txs.Tx) (msg []byte, ok bool) {
	switch u := tx.Unsigned().(type) {
	case *txs.RegisterL1ValidatorTx:
		return u.Message, true
	case *txs.SetL1ValidatorWeightTx:
		return u.Message, true
	}
	return nil, false
}

// warpAt is where a tx's warp message is checked: the accepted state s (the live one on the
// pipeline goroutine, the published one in the mempool) at P-Chain height.
type warpAt struct {
	s      *state
	height uint64
}

// verifyWarp checks the signature of the warp message tx carries, if any, against the
// validators of its source chain's subnet at at, with the P-Chain's quorum (67/100). Errors
// wrap ErrWarpVerification.
func (vm *VM) verifyWarp(tx *txs.Tx, at warpAt) error {
	raw, ok := warpMessageOf(tx)
	if !ok {
		return nil
	}
	err := vm.verifyWarpSignature(raw, at)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrWarpVerification, err)
	}
	return nil
}

func (vm *VM) verifyWarpSignature(raw []byte, at warpAt) error {
	msg, err := warp.ParseMessage(raw)
	if err != nil {
		return err
	}
	subnetID, err := chainSubnet(at.s, msg.SourceChainID)
	if err != nil {
		return err
	}
	vs, err := vm.validatorsAt(at.s, subnetID, at.height, false)
	if err != nil {
		return err
	}
	set, err := warp.NewCanonicalSet(vs)
	if err != nil {
		return err
	}
	return msg.Signature.Verify(&msg.UnsignedMessage, vm.rules.networkID, set, warp.QuorumNumerator, warp.QuorumDenominator)
}

// chainSubnet returns the subnet that validates chainID, from its CreateChainTx: the Primary
// Network for the P-Chain and the genesis's chains.
func chainSubnet(s *state, chainID ids.ID) (ids.ID, error) {
	if chainID == ids.Empty {
		return ids.Empty, nil
	}
	cc, err := s.createChainTx(chainID)
	switch {
	case err != nil:
		return ids.Empty, err
	case cc == nil:
		return ids.Empty, fmt.Errorf("%w: blockchain %s", ErrUnknownSourceChain, chainID)
	}
	return cc.SubnetID, nil
}

// l1Message is a warp message with an AddressedCall payload, as the L1 kinds carry.
type l1Message struct {
	sourceChainID ids.ID
	call          *payload.AddressedCall
}

// parseL1Message parses a signed warp message down to its AddressedCall.
func parseL1Message(raw []byte) (*l1Message, error) {
	msg, err := warp.ParseMessage(raw)
	if err != nil {
		return nil, err
	}
	call, err := payload.ParseAddressedCall(msg.Payload)
	if err != nil {
		return nil, err
	}
	return &l1Message{sourceChainID: msg.SourceChainID, call: call}, nil
}

// verifyL1Conversion checks that m comes from the manager that subnetID's conversion names:
// its chain and address (§4.4).
func verifyL1Conversion(src utxoSource, subnetID ids.ID, m *l1Message) error {
	conv, found, err := src.conversion(subnetID)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("%w for %s with: %w", ErrCouldNotLoadSubnetConversion, subnetID, errNotFound)
	case m.sourceChainID != conv.chainID:
		return fmt.Errorf("%w expected %s but had %s", ErrWrongWarpMessageSourceChainID, conv.chainID, m.sourceChainID)
	case !bytes.Equal(m.call.SourceAddress, conv.address):
		return fmt.Errorf("%w expected 0x%x but got 0x%x", ErrWrongWarpMessageSourceAddress, conv.address, m.call.SourceAddress)
	}
	return nil
}

// verifyOwners checks a RegisterL1Validator message's owners as P-Chain owners.
func verifyOwners(msg *acp77.RegisterL1Validator) error {
	for _, o := range []*acp77.PChainOwner{&msg.RemainingBalanceOwner, &msg.DisableOwner} {
		oo := secp256k1fx.OutputOwners{Threshold: o.Threshold, Addrs: o.Addresses}
		if err := oo.Verify(); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidOwner, err)
		}
	}
	return nil
}
