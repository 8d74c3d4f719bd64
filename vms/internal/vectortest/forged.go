package vectortest

import (
	"testing"

	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// HighS returns sig with s replaced by n − s: the same signature in the mutated form §3.2
// refuses.
func HighS(sig secp256k1fx.Signature) secp256k1fx.Signature {
	var s secp.ModNScalar
	s.SetByteSlice(sig[32:64])
	s.Negate()
	b := s.Bytes()
	copy(sig[32:64], b[:])
	return sig
}

// Forged is a tx whose unsigned bytes are a valid tx's but whose credential is forged, and the
// error every check of it must fail with.
type Forged[T any] struct {
	Name    string
	Tx      T
	WantErr error
}

// Forgeries returns the forged twins of a valid tx whose one signature is sig: other is its
// unsigned tx signed by another key, withSig(s) its unsigned tx with one credential holding s.
// errWrong is the VM's wrong-signature error, errMutated its high-S one.
func Forgeries[T any](other T, withSig func(secp256k1fx.Signature) T, sig secp256k1fx.Signature, errWrong, errMutated error) []Forged[T] {
	flipped := sig
	flipped[40] ^= 1
	return []Forged[T]{
		{"another key's signature", other, errWrong},
		{"a bit flipped in s", withSig(flipped), errWrong},
		{"high S", withSig(HighS(sig)), errMutated},
		{"no signature", withSig(secp256k1fx.Signature{}), errWrong},
	}
}

// SigVM is what CheckForgedCredentials drives: a chain VM that takes txs of type T.
type SigVM[T any] interface {
	chains.VM
	IssueTx(T) error
}

// CheckForgedCredentials checks that the signers a tx remembers never let a bad signature
// through. Each forged tx is refused when issued, the second time too; then the valid tx good is
// issued, built into a block and verified, and a block (made by block, with the built block's
// parent, height and time) holding a forged tx, parsed from bytes, still fails Verify and Accept;
// the built block's bytes, parsed afresh, verify in full. Last, the built block is accepted and
// committed to db. The VM must have nothing else pending.
func CheckForgedCredentials[T any](t *testing.T, vm SigVM[T], db *storage.DB, good T, forged []Forged[T],
	block func(parent ids.ID, height, at uint64, tx T) ([]byte, error),
) {
	t.Helper()
	ctx := t.Context()

	// Issued: refused, the second time too (the refusal is remembered, not a pass).
	for _, tt := range forged {
		for range 2 {
			require.ErrorIs(t, vm.IssueTx(tt.Tx), tt.WantErr, tt.Name)
		}
	}
	_, err := vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)

	// The valid tx is issued and built into a block: its signer is recovered and remembered.
	require.NoError(t, vm.IssueTx(good))
	built, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, built.Verify(ctx))
	at := uint64(built.Timestamp().Unix())

	// A block parsed from bytes with a forged tx of the same unsigned bytes fails Verify, and
	// Accept (which verifies a block not verified yet) too; the valid block's bytes, parsed
	// afresh, verify in full.
	for _, tt := range forged {
		b, err := block(built.Parent(), built.Height(), at, tt.Tx)
		require.NoError(t, err)
		parsed, err := vm.ParseBlock(ctx, b)
		require.NoError(t, err)
		require.ErrorIs(t, parsed.Verify(ctx), tt.WantErr, tt.Name)
		parsed, err = vm.ParseBlock(ctx, b)
		require.NoError(t, err)
		batch := db.NewBatch()
		require.ErrorIs(t, parsed.Accept(ctx, batch), tt.WantErr, tt.Name)
		batch.Close()
	}
	again, err := vm.ParseBlock(ctx, built.Bytes())
	require.NoError(t, err)
	require.NoError(t, again.Verify(ctx))

	Accept(t, vm, db, built)
}

// Accept accepts blk on vm as the chain's pipeline does: Accept into a batch of db's, the
// commit, then Accepted.
func Accept(t testing.TB, vm chains.VM, db *storage.DB, blk chains.Block) {
	t.Helper()
	batch := db.NewBatch()
	defer batch.Close()
	require.NoError(t, blk.Accept(t.Context(), batch))
	require.NoError(t, batch.Commit())
	require.NoError(t, vm.Accepted(t.Context(), blk))
}
