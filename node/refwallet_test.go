//lint:file-ignore SA1019 the deprecated getBalance methods are called on purpose: the balances are the simplest check, and the reference's clients still offer them.

package node_test

import (
	"context"
	"testing"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	refcodec "github.com/ava-labs/avalanchego/codec"
	refids "github.com/ava-labs/avalanchego/ids"
	refsecp256k1 "github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	refrpc "github.com/ava-labs/avalanchego/utils/rpc"
	refavm "github.com/ava-labs/avalanchego/vms/avm"
	refavax "github.com/ava-labs/avalanchego/vms/components/avax"
	refplatformvm "github.com/ava-labs/avalanchego/vms/platformvm"
	refpfx "github.com/ava-labs/avalanchego/vms/platformvm/fx"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refsecp256k1fx "github.com/ava-labs/avalanchego/vms/secp256k1fx"
	refp "github.com/ava-labs/avalanchego/wallet/chain/p"
	refpbuilder "github.com/ava-labs/avalanchego/wallet/chain/p/builder"
	refpsigner "github.com/ava-labs/avalanchego/wallet/chain/p/signer"
	refpwallet "github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	refx "github.com/ava-labs/avalanchego/wallet/chain/x"
	refxbuilder "github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	refxsigner "github.com/ava-labs/avalanchego/wallet/chain/x/signer"
	refcommon "github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"
)

// refWallets are the reference's own Go wallet (avalanchego v1.14.2 wallet/chain/{p,x} and
// wallet/subnet/primary/common) for one key on the P- and X-Chains of a node, put together as
// primary.MakeWallet does, without the C-Chain: one UTXO set shared by both chains, filled from
// getUTXOs with sourceChain as primary.AddAllUTXOs fills it. (primary.MakeWallet itself also
// reads the C-Chain's atomic API and links the graft/coreth module, which cornice does not
// require.)
type refWallets struct {
	p        refpwallet.Wallet
	x        refx.Wallet
	pClient  *refplatformvm.Client
	xClient  *refavm.Client
	xChainID refids.ID
	avax     refids.ID
	addr     refids.ShortID
}

// newRefWallets returns the wallets of the local funded key on the node at uri.
func newRefWallets(t *testing.T, uri string) *refWallets {
	t.Helper()
	ctx := t.Context()
	key, err := refsecp256k1.ToPrivateKey(ewoqKeyBytes(t))
	require.NoError(t, err)
	kc := refsecp256k1fx.NewKeychain(key)
	addrs := kc.Addresses()
	infoClient := refinfo.NewClient(uri)
	pClient, xClient := refplatformvm.NewClient(uri), refavm.NewClient(uri, "X")
	pCtx, err := refp.NewContextFromClients(ctx, infoClient, pClient)
	require.NoError(t, err)
	xCtx, err := refx.NewContextFromClients(ctx, infoClient, xClient)
	require.NoError(t, err)

	utxos := refcommon.NewUTXOs()
	for _, dest := range []struct {
		id     refids.ID
		client utxoClient
		codec  refcodec.Manager
	}{{refids.Empty, pClient, refptxs.Codec}, {xCtx.BlockchainID, xClient, refxbuilder.Parser.Codec()}} {
		for _, src := range []refids.ID{refids.Empty, xCtx.BlockchainID} {
			utxoBytes, _, _, err := dest.client.GetAtomicUTXOs(ctx, addrs.List(), src.String(), 1024, refids.ShortEmpty, refids.Empty)
			require.NoError(t, err)
			for _, b := range utxoBytes {
				var ux refavax.UTXO
				_, err := dest.codec.Unmarshal(b, &ux)
				require.NoError(t, err)
				require.NoError(t, utxos.AddUTXO(ctx, src, dest.id, &ux))
			}
		}
	}
	// The owners of the subnets the wallet creates, which it signs their authorizations with.
	pBackend := refpwallet.NewBackend(refcommon.NewChainUTXOs(refids.Empty, utxos), make(map[refids.ID]refpfx.Owner))
	xBackend := refx.NewBackend(xCtx, refcommon.NewChainUTXOs(xCtx.BlockchainID, utxos))
	return &refWallets{
		p:        refpwallet.New(refp.NewClient(pClient, pBackend), refpbuilder.New(addrs, pCtx, pBackend), refpsigner.New(kc, pBackend)),
		x:        refx.NewWallet(refxbuilder.New(addrs, xCtx, xBackend), refxsigner.New(kc, xBackend), xClient, xBackend),
		pClient:  pClient,
		xClient:  xClient,
		xChainID: xCtx.BlockchainID,
		avax:     xCtx.AVAXAssetID,
		addr:     key.Address(),
	}
}

// utxoClient is the reference clients' getUTXOs (primary.UTXOClient): with the chain's own ID as
// the source, the chain's UTXOs; with another's, the atomic ones.
type utxoClient interface {
	GetAtomicUTXOs(ctx context.Context, addrs []refids.ShortID, sourceChain string, limit uint32,
		startAddress refids.ShortID, startUTXOID refids.ID, options ...refrpc.Option) ([][]byte, refids.ShortID, refids.ID, error)
}

// owner is the wallets' key as the owner of an output.
func (w *refWallets) owner() *refsecp256k1fx.OutputOwners {
	return &refsecp256k1fx.OutputOwners{Threshold: 1, Addrs: []refids.ShortID{w.addr}}
}

// out is an output of amount nAVAX to the wallets' key.
func (w *refWallets) out(amount uint64) []*refavax.TransferableOutput {
	return []*refavax.TransferableOutput{{
		Asset: refavax.Asset{ID: w.avax},
		Out:   &refsecp256k1fx.TransferOutput{Amt: amount, OutputOwners: *w.owner()},
	}}
}

// balances returns the key's AVAX on the X-Chain and its unlocked AVAX on the P-Chain.
func (w *refWallets) balances(t *testing.T, ctx context.Context) (x, p uint64) {
	t.Helper()
	xb, err := w.xClient.GetBalance(ctx, w.addr, "AVAX", false)
	require.NoError(t, err)
	pb, err := w.pClient.GetBalance(ctx, []refids.ShortID{w.addr})
	require.NoError(t, err)
	return uint64(xb.Balance), uint64(pb.Unlocked)
}

// atomic returns the number of atomic UTXOs source exported to the key on the chain of client.
func (w *refWallets) atomic(t *testing.T, ctx context.Context, client utxoClient, source string) int {
	t.Helper()
	utxos, _, _, err := client.GetAtomicUTXOs(ctx, []refids.ShortID{w.addr}, source, 100, refids.ShortEmpty, refids.Empty)
	require.NoError(t, err)
	return len(utxos)
}

// TestReferenceWalletAtomic has the reference's Go wallet move AVAX X→P and P→X on a node: each
// ExportTx and ImportTx it builds (its UTXO choice, its fees: the X-Chain's static fee, the
// P-Chain's dynamic fee from its own complexity) is accepted; the export shows in the other
// chain's getUTXOs with sourceChain until the import takes it; the balances move by the amounts
// less the fees.
func TestReferenceWalletAtomic(t *testing.T) {
	t.Parallel()
	r, _ := startPX(t)
	ctx := t.Context()
	w := newRefWallets(t, r.url)
	x0, p0 := w.balances(t, ctx)

	// X → P.
	_, err := w.x.IssueExportTx(refids.Empty, w.out(3_000_000_000))
	require.NoError(t, err)
	require.Equal(t, 1, w.atomic(t, ctx, w.pClient, "X"))
	x1, p1 := w.balances(t, ctx)
	require.Equal(t, x0-3_000_000_000-1_000_000, x1, "the X-Chain's fee")
	require.Equal(t, p0, p1)
	imp, err := w.p.IssueImportTx(w.xChainID, w.owner())
	require.NoError(t, err)
	require.Zero(t, w.atomic(t, ctx, w.pClient, "X"))
	pFee := 3_000_000_000 - imp.Unsigned.Outputs()[0].Out.Amount()
	require.NotZero(t, pFee)
	_, p2 := w.balances(t, ctx)
	require.Equal(t, p1+3_000_000_000-pFee, p2)

	// P → X.
	_, err = w.p.IssueExportTx(w.xChainID, w.out(1_000_000_000))
	require.NoError(t, err)
	require.Equal(t, 1, w.atomic(t, ctx, w.xClient, "P"))
	_, p3 := w.balances(t, ctx)
	require.Less(t, p3, p2-1_000_000_000, "the export and its fee")
	_, err = w.x.IssueImportTx(refids.Empty, w.owner())
	require.NoError(t, err)
	require.Zero(t, w.atomic(t, ctx, w.xClient, "P"))
	x4, _ := w.balances(t, ctx)
	require.Equal(t, x1+1_000_000_000-1_000_000, x4)
}
