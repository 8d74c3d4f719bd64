package evm

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// importOf is an unsigned-in-effect ImportTx spending UTXO (txID, 0) to address to; the pool
// looks only at its ID and inputs.
func importOf(t *testing.T, txID ids.ID, to byte) *atomic.Tx {
	t.Helper()
	tx, err := atomic.NewTx(&atomic.ImportTx{
		ImportedInputs: []xtxs.TransferableInput{{
			UTXOID: utxo.UTXOID{TxID: txID},
			In:     &secp256k1fx.TransferInput{Amount: 1},
		}},
		Outs: []atomic.EVMOutput{{Address: common.Address{to}, Amount: 1}},
	}, nil)
	require.NoError(t, err)
	return tx
}

// TestAtomicPoolConflicts: a tx that spends what a pending one spends is refused with the
// reference's text unless it pays a higher gas price, and then replaces it; a pending tx issued
// again is no error; accepted and dropped txs leave.
func TestAtomicPoolConflicts(t *testing.T) {
	t.Parallel()
	p := newAtomicPool()
	first, same, other := importOf(t, ids.ID{1}, 1), importOf(t, ids.ID{1}, 2), importOf(t, ids.ID{2}, 3)
	require.NoError(t, p.add(first, 10))
	require.NoError(t, p.add(first, 10), "issued again")
	err := p.add(same, 10)
	require.ErrorIs(t, err, errConflictingAtomicTx)
	require.EqualError(t, err, "conflicting atomic tx present: issued tx ("+same.ID().String()+") gas price 10 <= conflict tx ("+
		first.ID().String()+") gas price 10 (1 total conflicts in mempool)")
	require.NoError(t, p.add(other, 5))
	require.NoError(t, p.add(same, 11), "a higher gas price replaces the conflict")
	_, _, ok := p.get(first.ID())
	require.False(t, ok)
	require.Equal(t, []*atomic.Tx{same, other}, p.pending(), "highest gas price first")

	p.remove([]*atomic.Tx{same})
	p.drop(other)
	require.Zero(t, p.len())
	_, dropped, ok := p.get(other.ID())
	require.True(t, ok && dropped)
	require.NoError(t, p.add(first, 1), "its input is free again")
}
