package e2e_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// TestAtomicKill kills a node process (the node of `cornice run`, TestL1KillChild) with SIGKILL
// during a burst of X→P and P→X exports and imports, again and again, and checks after every
// restart that no AVAX was lost or made: the local key's AVAX on X and P plus what waits in
// shared memory for it, plus every fee the accepted txs burned, is the start's, to the nAVAX
// (issue #14 §5). The fees are read from the accepted txs themselves (the X-Chain's tx index, the
// P-Chain's block index): inputs less outputs, imports and exports included. A last round
// imports whatever waits and checks again.
func TestAtomicKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a node process 6 times")
	}
	t.Parallel()
	rng := l1KillSeed(t)
	const kills = 6
	dir := t.TempDir()
	key, err := wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)

	var start uint64
	for run := 0; ; run++ {
		child := startL1KillChild(t, dir)
		x, p := openAtomicWallets(t, child, key)
		total, moves := atomicTotal(t, child, x, p)
		t.Logf("run %d: %d atomic txs accepted so far", run, moves)
		if run == 0 {
			start = total
		}
		require.Equal(t, start, total, "run %d: AVAX on X, on P, in shared memory and burned", run)
		child.RequireNoErrorLogs(t)
		if run == kills {
			// Whatever waits in shared memory can still be imported.
			for _, imp := range []func() error{
				func() error { return importAll(t.Context(), walletMover[*xtxs.Tx]{x}, "P") },
				func() error { return importAll(t.Context(), walletMover[*txs.Tx]{p}, "X") },
			} {
				require.NoError(t, imp())
			}
			total, moves := atomicTotal(t, child, x, p)
			require.Equal(t, start, total)
			require.Greater(t, moves, 2*kills, "too few atomic txs were accepted for the kills to land among them")
			child.stop(t)
			return
		}
		ctx, cancel := context.WithCancel(t.Context())
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			errs   []error
			killed atomic.Bool // from then on, the node's silence is no error
		)
		for _, move := range []func(context.Context) error{
			func(ctx context.Context) error {
				return moveAVAX(ctx, walletMover[*xtxs.Tx]{x}, walletMover[*txs.Tx]{p}, "P", "X")
			},
			func(ctx context.Context) error {
				return moveAVAX(ctx, walletMover[*txs.Tx]{p}, walletMover[*xtxs.Tx]{x}, "X", "P")
			},
		} {
			wg.Go(func() {
				for ctx.Err() == nil {
					if err := move(ctx); err != nil && ctx.Err() == nil && !killed.Load() {
						mu.Lock()
						errs = append(errs, err)
						mu.Unlock()
						return
					}
				}
			})
		}
		delay := time.Duration(rng.IntN(1500)+100) * time.Millisecond
		pause(t.Context(), delay)
		killed.Store(true)
		child.kill()
		cancel()
		wg.Wait()
		require.Empty(t, errs, "the node refused a transaction")
		t.Logf("run %d: killed after %s", run, delay)
	}
}

// atomicWallet is what the burst needs of wallet.X and wallet.P, whose txs are of type T.
type atomicWallet[T any] interface {
	Export(ctx context.Context, destination, to string, amount uint64) (T, uint64, error)
	Import(ctx context.Context, source string) (T, uint64, error)
	Issue(ctx context.Context, tx T) (ids.ID, error)
	WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error
}

// mover is one chain's half of the burst: it builds, issues and waits.
type mover interface {
	exportTo(ctx context.Context, dest string, amount uint64) error
	importFrom(ctx context.Context, source string) error
}

// walletMover is the mover of a chain's wallet.
type walletMover[T any] struct{ w atomicWallet[T] }

func (m walletMover[T]) exportTo(ctx context.Context, dest string, amount uint64) error {
	tx, _, err := m.w.Export(ctx, dest, "", amount)
	if err != nil {
		return err
	}
	return m.issueWait(ctx, tx)
}

func (m walletMover[T]) importFrom(ctx context.Context, source string) error {
	tx, _, err := m.w.Import(ctx, source)
	if err != nil {
		return err
	}
	return m.issueWait(ctx, tx)
}

// issueWait issues tx and waits until it is accepted.
func (m walletMover[T]) issueWait(ctx context.Context, tx T) error {
	id, err := m.w.Issue(ctx, tx)
	if err != nil {
		return err
	}
	return m.w.WaitAccepted(ctx, id, l1KillWait)
}

// moveAVAX exports 1 AVAX from `from` to the chain destAlias and imports it on `to`.
func moveAVAX(ctx context.Context, from, to mover, destAlias, srcAlias string) error {
	if err := from.exportTo(ctx, destAlias, 1_000_000_000); err != nil {
		return err
	}
	return importAll(ctx, to, srcAlias)
}

// importAll imports what source exported to w's key; nothing waiting is no error.
func importAll(ctx context.Context, w mover, source string) error {
	if err := w.importFrom(ctx, source); err != nil && !errors.Is(err, wallet.ErrNothingToImport) {
		return err
	}
	return nil
}

func openAtomicWallets(t *testing.T, c *l1KillChild, key *wallet.Key) (*wallet.X, *wallet.P) {
	t.Helper()
	x, err := wallet.NewX(t.Context(), c.client, key, clock.Real{})
	require.NoError(t, err)
	p, err := wallet.NewP(t.Context(), c.client, key, clock.Real{})
	require.NoError(t, err)
	return x, p
}

// atomicTotal returns the key's AVAX on X and on P (every UTXO it owns), what waits for it in
// shared memory in both directions, and what every accepted tx of X and P burned; and how many of
// those txs are imports and exports.
func atomicTotal(t *testing.T, c *l1KillChild, x *wallet.X, p *wallet.P) (total uint64, moves int) {
	t.Helper()
	ctx := t.Context()
	xu, err := x.UTXOs(ctx)
	require.NoError(t, err)
	xa, err := x.AtomicUTXOs(ctx, "P")
	require.NoError(t, err)
	for _, ux := range append(xu, xa...) {
		if ux.AssetID == x.Builder().AVAXAssetID {
			total += ux.Out.(*secp256k1fx.TransferOutput).Amount
		}
	}
	pu, err := p.UTXOs(ctx)
	require.NoError(t, err)
	pa, err := p.AtomicUTXOs(ctx, "X")
	require.NoError(t, err)
	for _, ux := range append(pu, pa...) {
		if to, ok := ux.Out.(*secp256k1fx.TransferOutput); ok {
			total += to.Amount
		} // locked genesis outputs never move
	}
	for _, c := range readIndex(t, c, "/ext/index/X/tx") {
		tx, err := xtxs.ParseTx(c)
		require.NoError(t, err)
		total += xBurned(tx)
		switch tx.Unsigned().(type) {
		case *xtxs.ImportTx, *xtxs.ExportTx:
			moves++
		}
	}
	for _, c := range readIndex(t, c, "/ext/index/P/block") {
		blk, err := txs.ParseBlock(c)
		require.NoError(t, err)
		for _, tx := range blk.Txs() {
			total += pBurned(tx)
			switch tx.Unsigned().(type) {
			case *txs.ImportTx, *txs.ExportTx:
				moves++
			}
		}
	}
	return total, moves
}

// xBurned is what an X-Chain AVAX tx burns: its inputs (imported ones too) less its outputs
// (exported ones too).
func xBurned(tx *xtxs.Tx) uint64 {
	base := tx.Unsigned().Base()
	var in, out uint64
	ins, outs := base.Ins, base.Outs
	switch u := tx.Unsigned().(type) {
	case *xtxs.ImportTx:
		ins = append(ins[:len(ins):len(ins)], u.ImportedIns...)
	case *xtxs.ExportTx:
		outs = append(outs[:len(outs):len(outs)], u.ExportedOuts...)
	}
	for _, i := range ins {
		in += i.In.Amount
	}
	for _, o := range outs {
		out += o.Out.Amount
	}
	return in - out
}

// pBurned is xBurned on the P-Chain.
func pBurned(tx *txs.Tx) uint64 {
	base := tx.Unsigned().Base()
	var in, out uint64
	ins, outs := base.Ins, base.Outs
	switch u := tx.Unsigned().(type) {
	case *txs.ImportTx:
		ins = append(ins[:len(ins):len(ins)], u.ImportedIns...)
	case *txs.ExportTx:
		outs = append(outs[:len(outs):len(outs)], u.ExportedOuts...)
	}
	for _, i := range ins {
		in += i.In.(*secp256k1fx.TransferInput).Amount
	}
	for _, o := range outs {
		out += o.Out.(*secp256k1fx.TransferOutput).Amount
	}
	return in - out
}

// readIndex returns the bytes of every container of the index at path.
func readIndex(t *testing.T, c *l1KillChild, path string) [][]byte {
	t.Helper()
	var last index.Container
	err := c.client.Call(t.Context(), path, "index.getLastAccepted", index.GetLastAcceptedArgs{Encoding: ids.HexNC}, &last)
	if err != nil && strings.Contains(err.Error(), "no containers have been accepted") {
		return nil
	}
	require.NoError(t, err, path)
	count, err := strconv.ParseUint(last.Index, 10, 64)
	require.NoError(t, err)
	var out [][]byte
	for start := uint64(0); start <= count; {
		var reply index.GetContainerRangeReply
		c.call(t, path, "index.getContainerRange", map[string]any{
			"startIndex": strconv.FormatUint(start, 10), "numToFetch": index.MaxFetch, "encoding": "hexnc",
		}, &reply)
		require.NotEmpty(t, reply.Containers)
		for _, ct := range reply.Containers {
			b, err := ids.HexNC.Decode(ct.Bytes)
			require.NoError(t, err)
			out = append(out, b)
		}
		start += uint64(len(reply.Containers))
	}
	return out
}
