// Package acp99 drives an L1's validator set through its ACP-99 validator manager: the
// contract names of ava-labs/icm-contracts' ValidatorManager (initiateValidatorRegistration,
// completeValidatorRegistration, initiateValidatorWeightUpdate, …) and the ACP-77 messages
// they exchange with the P-Chain through Warp. [Flow] performs every step of a change: the
// manager's initiate… call, the L1's signature of the message it sent (the node's
// /ext/aggregate-signatures), the P-Chain tx that carries it, the P-Chain's signed answer, and
// the manager's complete… call with that answer as the transaction's warp predicate.
//
// contracts/ValidatorManager.sol is a manager of our own with that interface, proof of
// authority (its owner alone initiates changes); manager.json is its compiled form
// (contracts/build.sh), which [Contract] returns.
package acp99
