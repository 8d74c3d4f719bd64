package processing

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// numTx is a tx whose ID is its number.
type numTx byte

func (n numTx) ID() ids.ID { return ids.ID{byte(n)} }

// TestVerifyTxs verifies each tx on what the earlier ones left, and stops at the first failure
// or a cancelled context.
func TestVerifyTxs(t *testing.T) {
	t.Parallel()
	var sum int
	verify := func(tx numTx) (int, error) {
		if tx == 0 {
			return 0, errors.New("zero")
		}
		return sum + int(tx), nil // each sees the earlier ones' sum
	}
	apply := func(e int) { sum = e }
	effs, err := VerifyTxs(context.Background(), []numTx{1, 2, 3}, verify, apply)
	require.NoError(t, err)
	require.Equal(t, []int{1, 3, 6}, effs)

	_, err = VerifyTxs(context.Background(), []numTx{4, 0, 5}, verify, apply)
	require.EqualError(t, err, "tx "+ids.ID{0}.String()+": zero")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = VerifyTxs(ctx, []numTx{1}, verify, apply)
	require.ErrorIs(t, err, context.Canceled)
}
