package txs

import (
	"math"
	"math/bits"

	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/warp"
)

// The dimensions of a tx's complexity (reference/platform-exchange.md §4.8).
const (
	Bandwidth = iota
	DBRead
	DBWrite
	Compute
	numDimensions
)

// Dimensions is a tx's complexity, or the weight of each dimension: [Bandwidth, DBRead, DBWrite,
// Compute] (§4.8).
type Dimensions [numDimensions]uint64

// FeeConfig is the dynamic tx fee mechanism's configuration (§4.8).
type FeeConfig struct {
	// Weights turn a complexity into gas: gas = Σ complexity[i]·Weights[i].
	Weights Dimensions
	// MaxCapacity bounds the gas a block may use after a long pause.
	MaxCapacity uint64
	// MaxPerSecond is how much capacity each second adds.
	MaxPerSecond uint64
	// TargetPerSecond is the gas per second above which the price rises.
	TargetPerSecond uint64
	// MinPrice is the price, in nAVAX per gas, at zero excess.
	MinPrice uint64
	// ExcessConversionConstant (K) sets how fast the price follows the excess: it grows by e
	// every K of excess.
	ExcessConversionConstant uint64
}

// LocalFeeConfig is the fee configuration of the local network, the same as mainnet's (§4.8,
// §7.6).
var LocalFeeConfig = FeeConfig{
	Weights:                  Dimensions{1, 1000, 1000, 4},
	MaxCapacity:              1_000_000,
	MaxPerSecond:             100_000,
	TargetPerSecond:          50_000,
	MinPrice:                 1,
	ExcessConversionConstant: 2_164_043,
}

// Per-part complexities that are not bandwidth: the reference's intrinsic values (§4.8,
// vms/platformvm/txs/fee/complexity.go), checked against the vectors' complexities.
const (
	// inputDBRead and inputDBWrite: an input reads and deletes its UTXO.
	inputDBRead  = 1
	inputDBWrite = 1
	// outputDBWrite: an output writes its UTXO.
	outputDBWrite = 1
	// signatureCompute is the cost of recovering one secp256k1 signature.
	signatureCompute = 200
	// createSubnetDBWrite: a CreateSubnetTx writes the subnet's owner.
	createSubnetDBWrite = 1
	// createChainDBRead: a CreateChainTx reads the subnet's owner and checks that the subnet
	// is neither transformed nor converted; createChainDBWrite: it writes the chain.
	createChainDBRead  = 3
	createChainDBWrite = 1
	// The staking and legacy subnet kinds' reads and writes of stakers, subnet owners and
	// validator diffs (complexity.go's intrinsic values), checked against the vectors.
	addSubnetValidatorDBRead       = 3
	addSubnetValidatorDBWrite      = 3
	addValidatorDBRead             = 1
	addValidatorDBWrite            = 3
	addDelegatorDBRead             = 1
	addDelegatorDBWrite            = 2
	removeSubnetValidatorDBRead    = 1
	removeSubnetValidatorDBWrite   = 3
	transferSubnetOwnershipDBRead  = 1
	transferSubnetOwnershipDBWrite = 1
	// popCompute is the cost of verifying a BLS proof of possession.
	popCompute = 1050
	// The L1 kinds' reads and writes of conversions, validators, balances, expiries and
	// weights (complexity.go's intrinsic values), checked against the vectors.
	convertDBRead                     = 3
	convertDBWrite                    = 2
	convertValidatorDBWrite           = 4
	registerL1ValidatorDBRead         = 5
	registerL1ValidatorDBWrite        = 6
	setL1ValidatorWeightDBRead        = 3
	setL1ValidatorWeightDBWrite       = 5
	increaseL1ValidatorBalanceDBRead  = 1
	increaseL1ValidatorBalanceDBWrite = 5
	disableL1ValidatorDBRead          = 1
	disableL1ValidatorDBWrite         = 6
	// A warp message reads the validator set (warpDBRead) and costs one BLS verification plus
	// one aggregation per signer.
	warpDBRead          = 3 + 20
	blsVerifyCompute    = 1000
	blsAggregateCompute = 5
)

// Complexity returns tx's complexity (§4.8); wallets use it to compute the fee the chain will charge. The bandwidth is the signed tx's length: the
// reference sums intrinsic sizes per part, and for a tx with one credential per input (and one
// for its authorization) holding one signature per signature index, which verification
// requires, that sum is exactly the length of the signed bytes (the vectors confirm it).
func Complexity(tx *Tx) Dimensions {
	var c Dimensions
	c[Bandwidth] = uint64(tx.Size())
	base := tx.Unsigned().Base()
	for i := range base.Ins {
		c[DBRead] += inputDBRead
		c[DBWrite] += inputDBWrite
		c[Compute] += signatureCompute * uint64(len(sigIndices(base.Ins[i].In)))
	}
	c[DBWrite] += outputDBWrite * uint64(len(base.Outs))
	_ = tx.Unsigned().Visit(complexity{&c}) // its methods never fail
	return c
}

// complexity adds what a kind reads, writes and computes beyond its BaseTx (§4.8): the subnet
// owner a CreateSubnetTx writes, the reads, write and authorization of a CreateChainTx and of
// the legacy subnet kinds, the stake outputs and proof of possession of the staking kinds, the
// authorization and the reads and writes of the L1 kinds, and the warp messages of
// RegisterL1ValidatorTx and SetL1ValidatorWeightTx. The other kinds add nothing to their BaseTx here
// (the pre-Durango kinds and RewardValidatorTx are never charged: the chain refuses or builds
// them).
type complexity struct{ c *Dimensions }

func (complexity) BaseTx(*BaseTx) error { return nil }

func (x complexity) CreateSubnetTx(*CreateSubnetTx) error {
	x.c[DBWrite] += createSubnetDBWrite
	return nil
}

func (x complexity) CreateChainTx(tx *CreateChainTx) error {
	x.c[DBRead] += createChainDBRead
	x.c[DBWrite] += createChainDBWrite
	x.c[Compute] += signatureCompute * uint64(len(tx.SubnetAuth.SigIndices))
	return nil
}

func (x complexity) AddSubnetValidatorTx(tx *AddSubnetValidatorTx) error {
	x.c[DBRead] += addSubnetValidatorDBRead
	x.c[DBWrite] += addSubnetValidatorDBWrite
	x.c[Compute] += signatureCompute * uint64(len(tx.SubnetAuth.SigIndices))
	return nil
}

func (x complexity) AddPermissionlessValidatorTx(tx *AddPermissionlessValidatorTx) error {
	x.c[DBRead] += addValidatorDBRead
	x.c[DBWrite] += addValidatorDBWrite + outputDBWrite*uint64(len(tx.Stake))
	if _, ok := tx.Signer.(*ProofOfPossession); ok {
		x.c[Compute] += popCompute
	}
	return nil
}

func (x complexity) AddPermissionlessDelegatorTx(tx *AddPermissionlessDelegatorTx) error {
	x.c[DBRead] += addDelegatorDBRead
	x.c[DBWrite] += addDelegatorDBWrite + outputDBWrite*uint64(len(tx.Stake))
	return nil
}

func (complexity) AddValidatorTx(*AddValidatorTx) error { return nil }

func (complexity) AddDelegatorTx(*AddDelegatorTx) error { return nil }

func (x complexity) RemoveSubnetValidatorTx(tx *RemoveSubnetValidatorTx) error {
	x.c[DBRead] += removeSubnetValidatorDBRead
	x.c[DBWrite] += removeSubnetValidatorDBWrite
	x.c[Compute] += signatureCompute * uint64(len(tx.SubnetAuth.SigIndices))
	return nil
}

func (x complexity) TransferSubnetOwnershipTx(tx *TransferSubnetOwnershipTx) error {
	x.c[DBRead] += transferSubnetOwnershipDBRead
	x.c[DBWrite] += transferSubnetOwnershipDBWrite
	x.c[Compute] += signatureCompute * uint64(len(tx.SubnetAuth.SigIndices))
	return nil
}

func (complexity) RewardValidatorTx(*RewardValidatorTx) error { return nil }

func (x complexity) ConvertSubnetToL1Tx(tx *ConvertSubnetToL1Tx) error {
	n := uint64(len(tx.Validators))
	x.c[DBRead] += convertDBRead
	x.c[DBWrite] += convertDBWrite + convertValidatorDBWrite*n
	x.c[Compute] += popCompute*n + signatureCompute*uint64(len(tx.SubnetAuth.SigIndices))
	return nil
}

func (x complexity) RegisterL1ValidatorTx(tx *RegisterL1ValidatorTx) error {
	x.c[DBRead] += registerL1ValidatorDBRead
	x.c[DBWrite] += registerL1ValidatorDBWrite
	x.c[Compute] += popCompute
	x.warp(tx.Message)
	return nil
}

func (x complexity) SetL1ValidatorWeightTx(tx *SetL1ValidatorWeightTx) error {
	x.c[DBRead] += setL1ValidatorWeightDBRead
	x.c[DBWrite] += setL1ValidatorWeightDBWrite
	x.warp(tx.Message)
	return nil
}

func (x complexity) IncreaseL1ValidatorBalanceTx(*IncreaseL1ValidatorBalanceTx) error {
	x.c[DBRead] += increaseL1ValidatorBalanceDBRead
	x.c[DBWrite] += increaseL1ValidatorBalanceDBWrite
	return nil
}

func (x complexity) DisableL1ValidatorTx(tx *DisableL1ValidatorTx) error {
	x.c[DBRead] += disableL1ValidatorDBRead
	x.c[DBWrite] += disableL1ValidatorDBWrite
	x.c[Compute] += signatureCompute * uint64(len(tx.DisableAuth.SigIndices))
	return nil
}

// warp adds a signed warp message's reads and verification: its bytes are in the tx's length
// already. A message that does not parse counts no signers; the tx fails when it executes.
func (x complexity) warp(msg []byte) {
	x.c[DBRead] += warpDBRead
	x.c[Compute] += blsVerifyCompute
	if m, err := warp.ParseMessage(msg); err == nil {
		for _, b := range m.Signature.Signers {
			x.c[Compute] += blsAggregateCompute * uint64(bits.OnesCount8(b))
		}
	}
}

// sigIndices returns the signature indices of a transfer input, nil for other inputs.
func sigIndices(in Input) []uint32 {
	switch in := in.(type) {
	case *secp256k1fx.TransferInput:
		return in.SigIndices
	case *LockIn:
		if in.In != nil {
			return in.In.SigIndices
		}
	}
	return nil
}

// Gas returns the gas of complexity c under the weights w, saturating at 2^64-1.
func (w Dimensions) Gas(c Dimensions) uint64 {
	var gas uint64
	for i := range c {
		hi, lo := bits.Mul64(c[i], w[i])
		if hi != 0 {
			return math.MaxUint64
		}
		sum := gas + lo
		if sum < gas {
			return math.MaxUint64
		}
		gas = sum
	}
	return gas
}
