// Package platform is the P-Chain: its wire formats (the transactions, blocks, UTXOs and genesis
// of reference/platform-exchange.md §4, encoded with the linear codec (§1) and the P-Chain's type
// IDs (§1.3)), and its VM ([Factory], [VM]) with the platform API (§5).
//
// # Transactions
//
// Each tx kind (BaseTx, CreateSubnetTx, CreateChainTx, ...) is a struct of exported fields that
// implements the sealed [UnsignedTx] interface; there is one file per kind. A [Tx] pairs an
// unsigned tx with its credentials and caches its signed bytes, the span of its unsigned bytes and
// its ID: the ID is sha256 of the signed bytes, and signers sign sha256 of the unsigned bytes (§2.2,
// §3.2). Interface-typed fields (inputs, outputs, signers, the unsigned tx) are written as a uint32
// type ID and a body; the closed switches in typeids.go are the P-Chain's type table.
//
// # Blocks
//
// A [Block] is immutable: NewStandardBlock and friends encode it once, and ParseBlock keeps the
// bytes it parsed. The block ID is sha256 of the block bytes (§2.2).
//
// # Ownership and concurrency
//
// ParseTx, ParseBlock, ParseGenesis and ParseUTXO copy their input; the values they return share
// that copy, so byte-slice fields (memos, genesis data, warp messages) must not be modified.
// Tx and Block values are safe for concurrent reads. The unsigned tx structs are plain data: do not
// change one after it went into a Tx, whose bytes and ID would no longer match.
//
// The format types check only the wire format. The VM verifies txs for real: credentials
// (recoverable secp256k1 signatures over sha256 of the unsigned bytes, recovered with decred's
// pure-Go code), owners, thresholds and locktimes, UTXO existence and spending with no double
// spend within or across blocks, subnet authorization, and the dynamic fee of §4.8 with the
// network's FeeConfig. It executes BaseTx, CreateSubnetTx, CreateChainTx, AddSubnetValidatorTx,
// ConvertSubnetToL1Tx (BLS proofs of possession checked with package crypto/bls),
// IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx, and charges the L1 validators'
// continuous fee as chain time advances (§4.7), with at most the fee's capacity of them active;
// RegisterL1ValidatorTx, SetL1ValidatorWeightTx and the staking kinds are refused with
// ErrUnsupportedTx for now (issue #5).
//
// # VM state and concurrency
//
// The VM keeps its state under its chains.Context.DB (state.go lists the keys) and stages every
// change of a block into the pipeline's batch in Block.Accept; its memory (the last accepted block,
// the mempool) changes only in Accepted. The API reads committed state, so it never reports a
// block's txs as committed before the block is. A fresh single-node network's Primary Network
// validator set is this node alone, as the Factory describes it. Each block also records the
// validators it changes, so that validator sets at past heights can be rebuilt (validatorset.go,
// ValidatorsAt). The read accessors for the node (Height, Blockchains, Subnet, SubnetValidators,
// L1Validators, L1Validator, ValidatesSubnet, ValidatorsAt) read the committed state and are safe
// for concurrent use.
package platform
