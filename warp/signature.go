package warp

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/cornice-node/cornice/crypto/bls"
)

// The P-Chain's fixed quorum, and the EVM's default one: 67 % of the weight
// (network-consensus-warp.md §4.2).
const (
	QuorumNumerator   = 67
	QuorumDenominator = 100
)

// BitSetSignature is an aggregate BLS signature with the set of its signers: bit i of Signers
// (a big-endian integer, bit 0 the last byte's least-significant bit) selects canonical
// validator i (network-consensus-warp.md §4.2).
type BitSetSignature struct {
	Signers   []byte
	Signature [bls.SignatureLen]byte
}

// signerIndices returns the indices the bitset selects, after checking that it is minimally
// encoded and that none is past setLen.
func (s *BitSetSignature) signerIndices(setLen int) ([]int, error) {
	n := new(big.Int).SetBytes(s.Signers)
	if len(n.Bytes()) != len(s.Signers) {
		return nil, ErrInvalidBitSet
	}
	bitLen := n.BitLen()
	if bitLen > setLen {
		return nil, unknownValidatorError(bitLen, setLen)
	}
	var idx []int
	for i := range bitLen {
		if n.Bit(i) == 1 {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// Verify checks s over msg as the reference does (network-consensus-warp.md §4.2): msg is of
// network networkID; the bitset is minimal and within set; the signers hold at least num/den
// of set's total weight; their aggregate key verifies the aggregate signature over msg's bytes.
func (s *BitSetSignature) Verify(msg *UnsignedMessage, networkID uint32, set CanonicalSet, num, den uint64) error {
	if msg.NetworkID != networkID {
		return ErrWrongNetworkID
	}
	idx, err := s.signerIndices(len(set.Validators))
	if err != nil {
		return err
	}
	var signed uint64
	pks := make([]*bls.PublicKey, len(idx))
	for i, j := range idx {
		v := set.Validators[j]
		var carry uint64
		if signed, carry = bits.Add64(signed, v.Weight, 0); carry != 0 {
			return fmt.Errorf("%w: signers' weight", ErrWeightOverflow)
		}
		pks[i] = v.PublicKey
	}
	if err := VerifyWeight(signed, set.TotalWeight, num, den); err != nil {
		return err
	}
	sig, err := bls.SignatureFromBytes(s.Signature[:])
	if err != nil {
		return fmt.Errorf("%w: %w", ErrParseSignature, err)
	}
	agg, err := bls.AggregatePublicKeys(pks)
	if err != nil {
		// Only for no signers: the weight check passed, so the total weight is 0.
		return fmt.Errorf("%w: %w", ErrInvalidSignature, err)
	}
	if !bls.Verify(agg, sig, msg.Bytes()) {
		return ErrInvalidSignature
	}
	return nil
}

// VerifyWeight checks signed·den ≥ total·num on big integers, so no product overflows.
func VerifyWeight(signed, total, num, den uint64) error {
	lhs := new(big.Int).Mul(new(big.Int).SetUint64(signed), new(big.Int).SetUint64(den))
	rhs := new(big.Int).Mul(new(big.Int).SetUint64(total), new(big.Int).SetUint64(num))
	if rhs.Cmp(lhs) > 0 {
		return insufficientWeightError(num, total, den, signed)
	}
	return nil
}

// QuorumWeight returns ⌊total·num/den⌋, the weight an aggregator stops at. den must not be 0.
func QuorumWeight(total, num, den uint64) uint64 {
	hi, lo := bits.Mul64(total, num)
	if hi >= den {
		// num > den: more than the total can ever sign.
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, den)
	return q
}

// Aggregate signs msg with the signatures sigs, keyed by their signers' canonical indices:
// the bitset of the keys and the sum of the signatures. It does not verify them.
func Aggregate(msg *UnsignedMessage, sigs map[int]*bls.Signature) (*Message, error) {
	if len(sigs) == 0 {
		return nil, ErrNoSigners
	}
	set := new(big.Int)
	list := make([]*bls.Signature, 0, len(sigs))
	for i, sig := range sigs {
		set.SetBit(set, i, 1)
		list = append(list, sig)
	}
	agg, err := bls.AggregateSignatures(list)
	if err != nil {
		return nil, fmt.Errorf("aggregate signatures: %w", err)
	}
	m := &Message{UnsignedMessage: *msg}
	m.Payload = append([]byte{}, msg.Payload...)
	m.Signature.Signers = set.Bytes()
	copy(m.Signature.Signature[:], agg.Compress())
	return m, nil
}
