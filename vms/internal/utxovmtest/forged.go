package utxovmtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// SignedTx is a UTXO chain's signed tx, whose unsigned bytes a forged one keeps.
type SignedTx interface {
	Tx
	UnsignedBytes() []byte
}

// Forged is one chain's fixtures for TestForgedCredentials, on a VM at its genesis.
type Forged[T SignedTx] struct {
	VM VM[T]
	DB *storage.DB
	// Good is valid on the genesis, with one credential of one signature; Other is its unsigned
	// tx signed with another key; Resign returns its unsigned tx with creds (the chain's NewTx).
	Good, Other T
	Resign      func(creds []secp256k1fx.Credential) (T, error)
	// Next spends an output of Good; Creds returns a tx's credentials.
	Next  T
	Creds func(T) []secp256k1fx.Credential
	// Block is Processing.Block.
	Block func(t *testing.T, parent ids.ID, height, time uint64, txs ...T) []byte
}

// TestForgedCredentials checks that the signers a tx remembers (signed.Tx.Signer) never
// let a bad signature through: a tx whose unsigned bytes are a valid tx's, but whose credential
// is forged, is refused when issued and in a block parsed from bytes, even after the valid tx
// was verified (issued and built into a block); and a pending tx whose signature changes is
// recovered again by the builder and dropped.
func TestForgedCredentials[T SignedTx](t *testing.T, f Forged[T]) {
	sig := f.Creds(f.Good)[0].Sigs[0]
	withSig := func(sig secp256k1fx.Signature) T {
		tx, err := f.Resign([]secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{sig}}})
		require.NoError(t, err)
		require.Equal(t, f.Good.UnsignedBytes(), tx.UnsignedBytes())
		return tx
	}
	forged := vectortest.Forgeries(f.Other, withSig, sig, utxo.ErrWrongSig, utxo.ErrMutatedSig)
	vectortest.CheckForgedCredentials(t, f.VM, f.DB, f.Good, forged,
		func(parent ids.ID, height, at uint64, tx T) ([]byte, error) {
			return f.Block(t, parent, height, at, tx), nil
		})

	// A pending tx whose signature is changed in place (which the Tx contract forbids) is
	// recovered again by the builder, not answered from memory: it is dropped.
	require.NoError(t, f.VM.IssueTx(f.Next))
	flipped := sig
	flipped[40] ^= 1
	f.Creds(f.Next)[0].Sigs[0] = flipped
	_, err := f.VM.BuildBlock(t.Context())
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.ErrorIs(t, f.VM.IssueTx(f.Next), utxo.ErrWrongSig)
}
