package evm

import (
	"encoding/binary"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
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

// A pending atomic tx whose block is accepted while avax.getAtomicTxStatus answers is
// "Processing" or "Accepted", never "Unknown": the pool is read before the database, and a tx
// leaves the pool only once its block's commit is published. The fake accepts the block right
// after the first of the two reads.
func TestAtomicTxStatusAcceptedBetweenReads(t *testing.T) {
	t.Parallel()
	tx := importOf(t, ids.ID{1}, 1)
	p := newAtomicPool()
	require.NoError(t, p.add(tx, 10))
	stored := map[string][]byte{}
	reads := 0
	accept := func() {
		if reads++; reads == 1 {
			stored[string(atomicTxKey(tx.ID()))] = append(binary.BigEndian.AppendUint64(nil, 7), tx.Bytes()...)
			p.remove([]*atomic.Tx{tx})
		}
	}
	pooled := func(id ids.ID) (*atomic.Tx, bool, bool) {
		defer accept()
		return p.get(id)
	}
	get := func(key []byte) ([]byte, error) {
		defer accept()
		if v, ok := stored[string(key)]; ok {
			return v, nil
		}
		return nil, storage.ErrNotFound
	}
	got, status, height, err := atomicTxStatus(tx.ID(), pooled, get)
	require.NoError(t, err)
	require.Equal(t, atomicAccepted, status)
	require.Equal(t, uint64(7), height)
	require.Equal(t, tx.ID(), got.ID())
}
