package processing

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// VerifyTxs verifies a block's txs in order: verify checks each on what the earlier ones leave,
// which apply records. It returns each tx's effects E, or the first failure (`tx <txID>: …`), or
// ctx's error once ctx is done.
func VerifyTxs[T interface{ ID() ids.ID }, E any](ctx context.Context, txs []T, verify func(T) (E, error), apply func(E)) ([]E, error) {
	effs := make([]E, 0, len(txs))
	for _, tx := range txs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		eff, err := verify(tx)
		if err != nil {
			return nil, fmt.Errorf("tx %s: %w", tx.ID(), err)
		}
		apply(eff)
		effs = append(effs, eff)
	}
	return effs, nil
}
