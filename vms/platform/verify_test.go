package platform_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// newUnitVM returns a local P-Chain VM on a database in a temp directory, at the vectors' time on
// a fake clock, with no pipeline around it: the test drives it.
func newUnitVM(t *testing.T) (*platform.VM, *storage.DB, *genesis.Genesis) {
	t.Helper()
	g := genesistest.Local(t)
	u := utxovmtest.NewUnit(t, genesis.LocalNetworkID, ids.Empty, g.PGenesis, storage.PrefixPlatform,
		chains.Chain{ID: g.XChainID, Name: "X-Chain"}, "X", vectorTime)
	vm, err := platform.New(t.Context(), thisNode, u.Context)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, vm.Close()) })
	return vm, u.DB, g
}

// TestForgedCredentials runs the UTXO chains' forged-credentials test on the P-Chain.
func TestForgedCredentials(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	n := &node{t: t, g: g}
	good := sign(t, ptr(n.baseTx(unlockedGenesisUTXO(t, g, ewoq), 1_000, vmrq, ewoq)), ewoqKey)
	change := good.UTXOs()[slices.IndexFunc(good.UTXOs(), func(u txs.UTXO) bool {
		return u.Out.(*secp256k1fx.TransferOutput).Addrs[0] == ewoq
	})]
	utxovmtest.TestForgedCredentials(t, utxovmtest.Forged[*txs.Tx]{
		VM:     vm,
		DB:     db,
		Good:   good,
		Other:  sign(t, good.Unsigned(), vmrqKey),
		Resign: func(c []secp256k1fx.Credential) (*txs.Tx, error) { return txs.NewTx(good.Unsigned(), c) },
		Next:   sign(t, ptr(n.baseTx(&change, 0, ewoq, ewoq)), ewoqKey),
		Creds:  (*txs.Tx).Creds,
		Block:  standardBlock,
	})
}

// TestWarpKindsMalformedMessage checks that the kinds carrying a warp message refuse one that
// does not parse before anything else, as a warp verification failure (§4.4).
func TestWarpKindsMalformedMessage(t *testing.T) {
	t.Parallel()
	vm, _, _ := newUnitVM(t)
	base := txs.BaseTx{NetworkID: genesis.LocalNetworkID}
	for _, u := range []txs.UnsignedTx{
		&txs.RegisterL1ValidatorTx{BaseTx: base},
		&txs.SetL1ValidatorWeightTx{BaseTx: base},
	} {
		tx, err := txs.NewTx(u, nil)
		require.NoError(t, err)
		err = vm.IssueTx(tx)
		require.ErrorIs(t, err, platform.ErrWarpVerification)
		require.ErrorIs(t, err, codec.ErrTruncated)
	}
}
