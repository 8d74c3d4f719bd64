// Package precompile runs the Subnet-EVM stateful precompiles of an L1 EVM chain on an
// unforked go-ethereum EVM (reference/l1-evm.md §5, §7.2): the allow lists (contract
// deployer and transaction), the native minter, the fee manager, the reward manager and the
// warp precompile's getBlockchainID, with their selectors, gas costs, events, roles and
// error texts.
//
// # How it fits into an EVM
//
// go-ethereum's precompile interface sees neither the caller nor the state. A [Runtime] is
// made per *vm.EVM and gives it three things:
//
//   - [Runtime.Hooks] chains a call-frame tracker in front of the caller's tracer. Every
//     frame's call type, caller, value, gas and read-only flag (STATICCALL anywhere above)
//     is kept on a stack, so a precompile knows who called it and how.
//   - [Runtime.WrapState] wraps the EVM's StateDB. Its GetNonce reports 1 for the address
//     of a CREATE or CREATE2 that the deployer allow list refuses, so go-ethereum's own
//     collision check fails that frame with all its gas consumed (l1-evm.md §7.2). From
//     Granite its Prepare adds P256VERIFY (0x…0100) to the precompiles go-ethereum warms
//     at a transaction's start, so the first call to it pays the warm cost (§5.8).
//   - [Runtime.Install] binds fresh precompile instances to the EVM and installs them with
//     SetPrecompiles, next to the standard set ([StandardPrecompiles]: go-ethereum's for
//     the EVM's rules plus P256VERIFY from Granite).
//
// The functions run inside RequiredGas, which then reports the gas the reference charges
// on success; Run hands back the output or the error. Any error consumes all of the call's
// gas, as in the reference (§5.0).
//
// The package-level functions read and write a precompile's storage outside the EVM:
// [Activate] at a block's precompile activations, [TxAllowed] at admission and block
// building, [StoredFeeConfig] for the fee config of the next block, [RewardAddress] for the
// coinbase rule.
//
// # Concurrency
//
// A Runtime belongs to one EVM and is used from that EVM's goroutine only. The package-level
// functions are safe to call concurrently on different states.
package precompile
