// Package platform is the P-Chain's VM ([Factory], [VM]) with the platform API (§5 of
// reference/platform-exchange.md). Its wire formats are package txs, the API's arguments and
// replies package api.
//
// The VM verifies txs for real: credentials
// (recoverable secp256k1 signatures over sha256 of the unsigned bytes, recovered with decred's
// pure-Go code), owners, thresholds and locktimes, UTXO existence and spending with no double
// spend within or across blocks, subnet authorization, and the dynamic fee of §4.8 with the
// network's FeeConfig. It executes BaseTx, CreateSubnetTx, CreateChainTx, AddSubnetValidatorTx,
// ConvertSubnetToL1Tx (BLS proofs of possession checked with package crypto/bls),
// IncreaseL1ValidatorBalanceTx, DisableL1ValidatorTx, RemoveSubnetValidatorTx and
// TransferSubnetOwnershipTx, and charges the L1 validators' continuous fee as chain time advances
// (§4.7), with at most the fee's capacity of them active. It stakes on the Primary Network
// (AddPermissionlessValidatorTx, AddPermissionlessDelegatorTx, §4.9) and decides each staker's
// reward at its end time with a proposal block and its commit or abort option (proposal.go,
// §4.10). RegisterL1ValidatorTx and SetL1ValidatorWeightTx are executed on the strength of warp
// messages from the L1's manager, verified against the L1's validator set (l1warp.go); the
// pre-Durango AddValidatorTx and AddDelegatorTx are refused as the reference refuses them.
//
// # Layout
//
// vm.go is the VM's lifecycle (New, the chains.VM methods, Accepted, Close); builder.go issues
// txs into the mempool and builds blocks, and wakes the pipeline when an L1 validator runs out;
// block.go verifies and accepts a block; stakers.go keeps the Primary Network's stakers and
// proposal.go decides their rewards. What each tx kind checks, changes and indexes is one
// file per kind (tx_*.go), the methods of the visitors syntacticCheck, executor and txIndexer
// (txs.Visitor), so a new kind does not compile until each has its case.
//
// # VM state and concurrency
//
// The VM keeps its state under its chains.Context.DB (state.go lists the keys) and stages every
// change of a block into the pipeline's batch in Block.Accept; its memory (the last accepted block,
// the mempool) changes only in Accepted. The API reads committed state, so it never reports a
// block's txs as committed before the block is. The genesis's validators are current stakers from
// the genesis on. The Primary Network has two views: as the P-Chain records it (its stakers; the
// API, RecordedValidatorsAt, PrimaryValidators) and as this node runs it (this node, as the
// Factory describes it, holding the genesis stake, plus the stakers txs added; ValidatorsAt,
// SubnetValidators, ValidatesSubnet). Each block also records the validators it changes, so that
// validator sets at past heights can be rebuilt (validatorset.go). The read accessors for the
// node (Height, Blockchains, Subnet, SubnetValidators, CurrentValidators, L1Validator,
// ValidatesSubnet, ValidatorsAt, RecordedValidatorsAt, PrimaryValidators) read the committed
// state, one published state for all the reads of one call, and are safe for concurrent use.
package platform
