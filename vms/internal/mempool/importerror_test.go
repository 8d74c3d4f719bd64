package mempool_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// TestImportError maps what a read of an imported UTXO returned to the refusal both chains send.
func TestImportError(t *testing.T) {
	t.Parallel()
	txID := ids.ID{7}
	notFound := errors.New("chain's not-found text")
	other := errors.New("disk")
	tests := []struct {
		name string
		err  error
		want string
		is   error
	}{
		{"not in shared memory", fmt.Errorf("read: %w", atomic.ErrNotFound), notFound.Error(), notFound},
		{"imported by a pending tx", utxo.ErrDoubleSpend, "tx conflicts with other tx: " + txID.String(), mempool.ErrConflictsWithOtherTx},
		{"other", other, "disk", other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := mempool.ImportError(txID, tt.err, notFound)
			require.EqualError(t, got, tt.want)
			require.ErrorIs(t, got, tt.is)
		})
	}
}
