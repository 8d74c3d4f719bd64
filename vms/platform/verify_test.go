package platform_test

import (
	"log/slog"
	"slices"
	"testing"

	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// newUnitVM returns a local P-Chain VM on a database in a temp directory, at the vectors' time on
// a fake clock, with no pipeline around it: the test drives it.
func newUnitVM(t *testing.T) (*platform.VM, *storage.DB, *genesis.Genesis) {
	t.Helper()
	g, err := localGenesis()
	require.NoError(t, err)
	log := slog.New(slog.DiscardHandler)
	db, err := storage.Open(t.TempDir(), log)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	vm, err := platform.New(t.Context(), thisNode, chains.Context{
		NetworkID: genesis.LocalNetworkID,
		Chain:     chains.Chain{ID: ids.Empty},
		Genesis:   g.PGenesis,
		DB:        db.Prefixed(storage.PrefixPlatform),
		Log:       log,
		Clock:     clock.NewFake(vectorTime),
	})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, vm.Close()) })
	return vm, db, g
}

// highS returns sig with s replaced by n − s: the same signature in the mutated form §3.2 refuses.
func highS(sig secp256k1fx.Signature) secp256k1fx.Signature {
	var s secp.ModNScalar
	s.SetByteSlice(sig[32:64])
	s.Negate()
	b := s.Bytes()
	copy(sig[32:64], b[:])
	return sig
}

// withSig returns a tx with tx's unsigned bytes and one credential holding sig.
func withSig(t *testing.T, tx *platform.Tx, sig secp256k1fx.Signature) *platform.Tx {
	t.Helper()
	forged, err := platform.NewTx(tx.Unsigned(), []secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{sig}}})
	require.NoError(t, err)
	require.Equal(t, tx.UnsignedBytes(), forged.UnsignedBytes())
	return forged
}

// TestForgedCredentials checks that the signers a tx remembers (signed.Tx.SignerAddress) never
// let a bad signature through: a tx whose unsigned bytes are a valid tx's, but whose credential
// is forged, is refused when issued and in a block parsed from bytes, even after the valid tx
// was verified (issued and built into a block); and a pending tx whose signature changes is
// recovered again by the builder and dropped.
func TestForgedCredentials(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ctx := t.Context()
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	pg, err := platform.ParseGenesis(g.PGenesis)
	require.NoError(t, err)
	i := slices.IndexFunc(pg.UTXOs, func(u platform.GenesisUTXO) bool {
		o, ok := u.Out.(*secp256k1fx.TransferOutput)
		return ok && o.Locktime == 0 && slices.Equal(o.Addrs, []ids.ShortID{ewoq})
	})
	require.GreaterOrEqual(t, i, 0, "an unlocked genesis UTXO of ewoq's")
	genesisUTXO := &pg.UTXOs[i].UTXO
	n := &node{t: t, g: g}

	good := sign(t, ptr(n.baseTx(genesisUTXO, 1_000, vmrq, ewoq)), ewoqKey)
	sig := good.Creds()[0].Sigs[0]
	flipped := sig
	flipped[40] ^= 1
	forged := []struct {
		name    string
		tx      *platform.Tx
		wantErr error
	}{
		{"another key's signature", sign(t, good.Unsigned(), vmrqKey), platform.ErrWrongSig},
		{"a bit flipped in s", withSig(t, good, flipped), platform.ErrWrongSig},
		{"high S", withSig(t, good, highS(sig)), platform.ErrMutatedSig},
		{"no signature", withSig(t, good, secp256k1fx.Signature{}), platform.ErrWrongSig},
	}

	// Issued: refused, the second time too (the refusal is remembered, not a pass).
	for _, tt := range forged {
		for range 2 {
			require.ErrorIs(t, vm.IssueTx(tt.tx), tt.wantErr, tt.name)
		}
	}
	_, err = vm.BuildBlock(ctx)
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
		blk, err := platform.NewStandardBlock(built.Parent(), built.Height(), at, []*platform.Tx{tt.tx})
		require.NoError(t, err)
		parsed, err := vm.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		require.ErrorIs(t, parsed.Verify(ctx), tt.wantErr, tt.name)
		parsed, err = vm.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		batch := db.NewBatch()
		require.ErrorIs(t, parsed.Accept(ctx, batch), tt.wantErr, tt.name)
		batch.Close()
	}
	again, err := vm.ParseBlock(ctx, built.Bytes())
	require.NoError(t, err)
	require.NoError(t, again.Verify(ctx))

	batch := db.NewBatch()
	require.NoError(t, built.Accept(ctx, batch))
	require.NoError(t, batch.Commit())
	require.NoError(t, vm.Accepted(ctx, built))

	// A pending tx whose signature is changed in place (which the Tx contract forbids) is
	// recovered again by the builder, not answered from memory: it is dropped.
	change := good.UTXOs()[slices.IndexFunc(good.UTXOs(), func(u platform.UTXO) bool {
		return u.Out.(*secp256k1fx.TransferOutput).Addrs[0] == ewoq
	})]
	next := sign(t, ptr(n.baseTx(&change, 0, ewoq, ewoq)), ewoqKey)
	require.NoError(t, vm.IssueTx(next))
	next.Creds()[0].Sigs[0] = flipped
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.ErrorIs(t, vm.IssueTx(next), platform.ErrWrongSig)
}
