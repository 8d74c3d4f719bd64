// Package acp77 implements the P-Chain's L1 messages (ACP-77), carried in an AddressedCall
// payload of a warp message (network-consensus-warp.md §4.1, platform-exchange.md §4.5):
// SubnetToL1Conversion (type 0), RegisterL1Validator (1), L1ValidatorRegistration (2) and
// L1ValidatorWeight (3), and the conversion ID of a ConvertSubnetToL1Tx.
package acp77
