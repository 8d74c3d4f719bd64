package platform

import (
	"context"
	"fmt"
	"math"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// What the P-Chain agrees to sign (network-consensus-warp.md §4.3): its own ACP-77 messages,
// an AddressedCall with an empty source address, each true of the accepted state. The codes and
// texts are the reference's (avalanchego v1.14.2 vms/platformvm/network/warp.go).

// Codes of the P-Chain's signature refusals (acp118.Error.Code).
const (
	CodeFailedToParseWarpAddressedCall int32 = iota + 1
	CodeWarpAddressedCallHasSourceAddress
	CodeFailedToParseWarpAddressedCallPayload
	CodeUnsupportedWarpAddressedCallPayloadType
	CodeFailedToParseJustification
	CodeConversionDoesNotExist
	CodeMismatchedConversionID
	CodeInvalidJustificationType
	CodeFailedToParseSubnetID
	CodeMismatchedValidationID
	CodeValidationDoesNotExist
	CodeValidationExists
	CodeFailedToParseRegisterL1Validator
	CodeValidationCouldBeRegistered
	CodeImpossibleNonce
	CodeWrongNonce
	CodeWrongWeight
)

var _ acp118.Verifier = (*VM)(nil)

func refusal(code int32, format string, args ...any) error {
	return &acp118.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// VerifyWarp implements acp118.Verifier: whether this node, as a P-Chain validator, signs msg
// given justification. It reads the accepted state and is safe for concurrent use.
func (vm *VM) VerifyWarp(_ context.Context, msg *warp.UnsignedMessage, justification []byte) error {
	call, err := payload.ParseAddressedCall(msg.Payload)
	if err != nil {
		return refusal(CodeFailedToParseWarpAddressedCall, "failed to parse warp addressed call: %s", err)
	}
	if len(call.SourceAddress) != 0 {
		return refusal(CodeWarpAddressedCallHasSourceAddress, "source address should be empty")
	}
	m, err := acp77.Parse(call.Payload)
	if err != nil {
		return refusal(CodeFailedToParseWarpAddressedCallPayload, "failed to parse warp addressed call payload: %s", err)
	}
	switch m := m.(type) {
	case *acp77.SubnetToL1Conversion:
		return vm.verifyConversionMessage(m, justification)
	case *acp77.L1ValidatorRegistration:
		if m.Registered {
			return vm.verifyRegistered(m.ValidationID)
		}
		return vm.verifyNotRegistered(m.ValidationID, justification)
	case *acp77.L1ValidatorWeight:
		return vm.verifyWeightMessage(m)
	}
	return refusal(CodeUnsupportedWarpAddressedCallPayloadType, "unsupported warp addressed call payload type: *message.RegisterL1Validator")
}

// verifyConversionMessage signs a SubnetToL1Conversion whose ID is the conversion of the subnet
// the justification names.
func (vm *VM) verifyConversionMessage(m *acp77.SubnetToL1Conversion, justification []byte) error {
	subnetID, err := ids.ToID(justification)
	if err != nil {
		return refusal(CodeFailedToParseJustification, "failed to parse justification: %s", err)
	}
	conv, err := vm.convertedSubnet(subnetID)
	if err != nil {
		return err
	}
	if m.ID != conv.conversionID {
		return refusal(CodeMismatchedConversionID, "provided conversionID %q != expected conversionID %q", m.ID, conv.conversionID)
	}
	return nil
}

// convertedSubnet returns the conversion of subnetID, refusing a subnet not converted.
func (vm *VM) convertedSubnet(subnetID ids.ID) (*subnetConversion, error) {
	conv, found, err := vm.state.conversion(subnetID)
	switch {
	case err != nil:
		return nil, fmt.Errorf("failed to get subnet conversionID: %w", err)
	case !found:
		return nil, refusal(CodeConversionDoesNotExist, "subnet %q has not been converted", subnetID)
	}
	return conv, nil
}

// verifyRegistered signs Registration(true) for a current L1 validator.
func (vm *VM) verifyRegistered(validationID ids.ID) error {
	_, found, err := vm.state.l1Validator(validationID)
	switch {
	case err != nil:
		return fmt.Errorf("failed to get L1 validator: %w", err)
	case !found:
		return refusal(CodeValidationDoesNotExist, "validation %q does not exist", validationID)
	}
	return nil
}

// verifyNotRegistered signs Registration(false) for a validation that is not current and never
// can be: one of a conversion (justified by subnet ID and index), or one whose registration
// message (the justification) expired or was executed and then removed. Its reads are of one
// state: a registration accepted between "not current" and "its expiry is used" would otherwise
// be signed as never registered.
func (vm *VM) verifyNotRegistered(validationID ids.ID, justification []byte) error {
	j, found, err := acp118.ParseRegistrationJustification(justification)
	switch {
	case err != nil:
		return refusal(CodeFailedToParseJustification, "failed to parse justification: %s", err)
	case !found:
		return refusal(CodeInvalidJustificationType, "invalid justification type: <nil>")
	}
	s, release := vm.state.pinned()
	defer release()
	if j.ConvertSubnetToL1 {
		subnetID, err := ids.ToID(j.SubnetID)
		if err != nil {
			return refusal(CodeFailedToParseSubnetID, "failed to parse subnetID: %s", err)
		}
		if id := subnetID.Append(j.Index); id != validationID {
			return refusal(CodeMismatchedValidationID, "validationID %q != justificationID %q", validationID, id)
		}
		if _, err := vm.convertedSubnet(subnetID); err != nil {
			return err
		}
		return verifyNotCurrent(s, validationID)
	}
	msg, err := acp77.ParseRegisterL1Validator(j.RegisterL1ValidatorMessage)
	if err != nil {
		return refusal(CodeFailedToParseRegisterL1Validator, "failed to parse RegisterL1Validator justification: %s", err)
	}
	if id := msg.ValidationID(); id != validationID {
		return refusal(CodeMismatchedValidationID, "validationID %q != justificationID %q", validationID, id)
	}
	if err := verifyNotCurrent(s, validationID); err != nil {
		return err
	}
	now, err := vm.chainTime(s)
	if err != nil {
		return err
	}
	if msg.Expiry <= now {
		return nil // it can no longer be registered
	}
	used, err := s.hasExpiry(expiryEntry{expiry: msg.Expiry, validationID: validationID})
	switch {
	case err != nil:
		return fmt.Errorf("failed to lookup expiry: %w", err)
	case !used:
		return refusal(CodeValidationCouldBeRegistered, "validation %q can be registered until %d", validationID, msg.Expiry)
	}
	return nil // registered, then removed
}

// verifyNotCurrent refuses a validation that is an L1 validator in s.
func verifyNotCurrent(s *state, validationID ids.ID) error {
	_, found, err := s.l1Validator(validationID)
	switch {
	case err != nil:
		return fmt.Errorf("failed to lookup L1 validator: %w", err)
	case found:
		return refusal(CodeValidationExists, "validation %q exists", validationID)
	}
	return nil
}

// verifyWeightMessage signs an L1ValidatorWeight that the last SetL1ValidatorWeightTx of a
// current validator executed: its nonce is one below the validator's minimum, its weight the
// validator's.
func (vm *VM) verifyWeightMessage(m *acp77.L1ValidatorWeight) error {
	if m.Nonce == math.MaxUint64 {
		return refusal(CodeImpossibleNonce, "impossible nonce")
	}
	v, found, err := vm.state.l1Validator(m.ValidationID)
	switch {
	case err != nil:
		return fmt.Errorf("failed to get L1 validator: %w", err)
	case !found:
		return refusal(CodeValidationDoesNotExist, "validation %q does not exist", m.ValidationID)
	case m.Nonce+1 != v.minNonce:
		return refusal(CodeWrongNonce, "provided nonce %d != expected nonce (%d - 1)", m.Nonce, v.minNonce)
	case m.Weight != v.weight:
		return refusal(CodeWrongWeight, "provided weight %d != expected weight %d", m.Weight, v.weight)
	}
	return nil
}
