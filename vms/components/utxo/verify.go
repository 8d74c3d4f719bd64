package utxo

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/codec"
)

// VerifyOutputs checks that each of outs is valid, as verify (the chain's check of its output
// kind) says, and that they are sorted by their bytes (§3.3): ErrOutputsNotSorted otherwise.
func VerifyOutputs[O any, K Kinds[O]](outs []TransferableOutput[O, K], verify func(O) error) error {
	var prev []byte
	for i := range outs {
		out := &outs[i]
		if err := verify(out.Out); err != nil {
			return fmt.Errorf("output %d: %w", i, err)
		}
		key := OutputSortKey(out)
		if prev != nil && bytes.Compare(prev, key) > 0 {
			return ErrOutputsNotSorted
		}
		prev = key
	}
	return nil
}

// VerifyInputs checks that each of ins is valid, as verify (the chain's check of its input kind)
// says, and that they are sorted by UTXO and unique (§3.3): ErrInputsNotSortedUnique otherwise.
func VerifyInputs[I any, K Kinds[I]](ins []TransferableInput[I, K], verify func(I) error) error {
	for i := range ins {
		in := &ins[i]
		if err := verify(in.In); err != nil {
			return fmt.Errorf("input %d: %w", i, err)
		}
		if i > 0 && Compare(&ins[i-1].UTXOID, &in.UTXOID) >= 0 {
			return ErrInputsNotSortedUnique
		}
	}
	return nil
}

// OutputSortKey returns the bytes outputs are sorted by: the output's encoding (§3.3). An
// output that does not encode (checked by its chain before) sorts as what it wrote.
func OutputSortKey[O any, K Kinds[O]](out *TransferableOutput[O, K]) []byte {
	p := codec.NewPacker(make([]byte, 0, 96))
	out.Marshal(p)
	b, _ := p.Bytes()
	return b
}
