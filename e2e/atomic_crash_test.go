package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	catomic "github.com/cornice-node/cornice/vms/evm/atomic"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// TestAtomicKill kills a node process (the node of `cornice run`, TestL1KillChild) with SIGKILL
// during a burst of exports and imports between X, P and C in all six directions, again and
// again, and checks after every restart that no AVAX was lost or made: the local key's AVAX on X,
// on P and on C (its EVM balance, whole nAVAX) plus what waits in shared memory for it, plus
// every fee the accepted txs burned, is the start's, to the nAVAX (issue #14 §5). The fees are
// read from the accepted txs themselves (the X-Chain's tx index, the P- and C-Chains' block
// indexes): inputs less outputs, imports and exports included. A last round imports whatever
// waits and checks again.
func TestAtomicKill(t *testing.T) {
	const kills = 6
	rng, dir, key := startKillTest(t, kills)

	var start uint64
	for run := 0; ; run++ {
		child := startL1KillChild(t, dir)
		w := openAtomicWallets(t, child, key)
		total, moves := atomicTotal(t, child, w)
		t.Logf("run %d: atomic txs accepted so far by chain: %v", run, moves)
		if run == 0 {
			start = total
		}
		require.Equal(t, start, total, "run %d: AVAX on X, P and C, in shared memory and burned", run)
		child.RequireNoErrorLogs(t)
		if run == kills {
			// Whatever waits in shared memory can still be imported.
			routes(func(source, dest string) {
				require.NoError(t, importAll(t.Context(), w.mover(dest), source), "%s→%s", source, dest)
			})
			total, moves := atomicTotal(t, child, w)
			require.Equal(t, start, total)
			for _, chain := range atomicChains {
				require.Greater(t, moves[chain], 2*kills, "too few atomic txs were accepted on %s for the kills to land among them", chain)
			}
			child.stop(t)
			return
		}
		ctx, cancel := context.WithCancel(t.Context())
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			errs   []error
			killed atomic.Bool // from then on, the node's silence is no error
			// moved counts each source's completed moves: the kill waits for minMoves of each,
			// so that a slow machine (a loaded CI) still kills among accepted txs.
			moved [3]atomic.Int64
		)
		// One goroutine per source chain, exporting to the other two in turn and importing there:
		// only it spends its chain's UTXOs (or, on C, the account's nonce) and only it imports
		// what it exported, so the burst's own txs never conflict.
		for i, source := range atomicChains {
			wg.Go(func() {
				for n := 0; ctx.Err() == nil; n++ {
					dest := atomicChains[(i+1+n%2)%len(atomicChains)]
					err := moveAVAX(ctx, w.mover(source), w.mover(dest), dest, source)
					if err != nil && ctx.Err() == nil && !killed.Load() {
						mu.Lock()
						errs = append(errs, fmt.Errorf("%s→%s: %w", source, dest, err))
						mu.Unlock()
						return
					}
					if err == nil {
						moved[i].Add(1)
					}
				}
			})
		}
		delay := time.Duration(rng.IntN(1500)+100) * time.Millisecond
		pause(t.Context(), delay)
		// Then at least minMoves of each source, bounded: a source that stopped on an error
		// has nothing more to wait for.
		waitCtx, waitCancel := context.WithTimeout(t.Context(), 2*time.Minute)
		for fewMoves(&moved) && !failed(&mu, &errs) && pause(waitCtx, 10*time.Millisecond) {
		}
		waitCancel()
		killed.Store(true)
		child.kill()
		cancel()
		wg.Wait()
		require.Empty(t, errs, "the node refused a transaction")
		t.Logf("run %d: killed after %s", run, delay)
	}
}

// minMoves is how many moves each source completes, at least, before TestAtomicKill kills the
// node: with the kills' count, enough accepted atomic txs on every chain for the test to mean
// something.
const minMoves = 2

// fewMoves reports whether a source has completed fewer than minMoves moves.
func fewMoves(moved *[3]atomic.Int64) bool {
	for i := range moved {
		if moved[i].Load() < minMoves {
			return true
		}
	}
	return false
}

// failed reports whether errs, guarded by mu, holds an error.
func failed(mu *sync.Mutex, errs *[]error) bool {
	mu.Lock()
	defer mu.Unlock()
	return len(*errs) > 0
}

// atomicChains are the aliases of the chains AVAX moves between.
var atomicChains = []string{"X", "P", "C"}

// routes calls f with every pair of distinct chains of atomicChains.
func routes(f func(source, dest string)) {
	for _, source := range atomicChains {
		for _, dest := range atomicChains {
			if source != dest {
				f(source, dest)
			}
		}
	}
}

// atomicWallets are the key's wallets on X, P and C.
type atomicWallets struct {
	x *wallet.X
	p *wallet.P
	c *wallet.C
}

// mover returns the mover of the chain alias.
func (w atomicWallets) mover(alias string) mover {
	switch alias {
	case "X":
		return walletMover[*xtxs.Tx]{w.x}
	case "P":
		return walletMover[*txs.Tx]{w.p}
	}
	return walletMover[*wallet.CTx]{w.c}
}

// atomicWallet is what the burst needs of wallet.X, wallet.P and wallet.C, whose txs are of type T.
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

// pending is the AVAX source exported to the key on dest that waits in shared memory.
func (w atomicWallets) pending(t *testing.T, source, dest string) uint64 {
	t.Helper()
	switch dest {
	case "P":
		utxos, err := w.p.AtomicUTXOs(t.Context(), source)
		return atomicAVAX(t, utxos, err, pAmountOf)
	case "X":
		utxos, err := w.x.AtomicUTXOs(t.Context(), source)
		return atomicAVAX(t, utxos, err, xAmount)
	}
	utxos, err := w.c.AtomicUTXOs(t.Context(), source)
	return atomicAVAX(t, utxos, err, xAmount)
}

func openAtomicWallets(t *testing.T, c *l1KillChild, key *wallet.Key) atomicWallets {
	t.Helper()
	x, err := wallet.NewX(t.Context(), c.client, key, clock.Real{})
	require.NoError(t, err)
	p, err := wallet.NewP(t.Context(), c.client, key, clock.Real{})
	require.NoError(t, err)
	cw, err := wallet.NewC(t.Context(), c.client, key, clock.Real{})
	require.NoError(t, err)
	return atomicWallets{x: x, p: p, c: cw}
}

// atomicTotal returns the key's AVAX on X and on P (every UTXO it owns) and on C (its EVM
// balance, which must be whole nAVAX), what waits for it in shared memory in all six directions,
// and what every accepted tx of X, P and C burned; and how many of those txs are imports and
// exports, by chain.
func atomicTotal(t *testing.T, c *l1KillChild, w atomicWallets) (total uint64, moves map[string]int) {
	t.Helper()
	moves = make(map[string]int)
	ctx := t.Context()
	avax := w.x.Builder().AVAXAssetID
	xu, err := w.x.UTXOs(ctx)
	require.NoError(t, err)
	for _, ux := range xu {
		if ux.AssetID == avax {
			total += xAmount(ux)
		}
	}
	routes(func(source, dest string) { total += w.pending(t, source, dest) })
	pu, err := w.p.UTXOs(ctx)
	require.NoError(t, err)
	for _, ux := range pu {
		if to, ok := ux.Out.(*secp256k1fx.TransferOutput); ok {
			total += to.Amount
		} // locked genesis outputs never move
	}
	var bal hexutil.Big
	c.call(t, "/ext/bc/C/rpc", "eth_getBalance", []any{w.c.EthAddress(), "latest"}, &bal)
	nAVAX, wei := new(big.Int).DivMod(bal.ToInt(), big.NewInt(1e9), new(big.Int))
	require.Zero(t, wei.Sign(), "the EVM balance %s wei is not whole nAVAX", bal.ToInt())
	total += nAVAX.Uint64()

	for _, c := range readIndex(t, c, "/ext/index/X/tx") {
		tx, err := xtxs.ParseTx(c)
		require.NoError(t, err)
		total += xBurned(tx)
		switch tx.Unsigned().(type) {
		case *xtxs.ImportTx, *xtxs.ExportTx:
			moves["X"]++
		}
	}
	for _, c := range readIndex(t, c, "/ext/index/P/block") {
		blk, err := txs.ParseBlock(c)
		require.NoError(t, err)
		for _, tx := range blk.Txs() {
			total += pBurned(tx)
			switch tx.Unsigned().(type) {
			case *txs.ImportTx, *txs.ExportTx:
				moves["P"]++
			}
		}
	}
	for _, b := range readIndex(t, c, "/ext/index/C/block") {
		for _, tx := range cAtomicTxs(t, b) {
			burned, err := tx.Burned(avax)
			require.NoError(t, err)
			total += burned
			moves["C"]++
		}
	}
	return total, moves
}

// cAtomicTxs returns the atomic txs of a C-Chain block's bytes: a block that carries some is the
// RLP list [go-ethereum block, batch], any other the go-ethereum block alone (docs/decisions.md).
func cAtomicTxs(t *testing.T, b []byte) []*catomic.Tx {
	t.Helper()
	if rlp.DecodeBytes(b, new(types.Block)) == nil {
		return nil
	}
	var withBatch struct {
		Block *types.Block
		Batch []byte
	}
	require.NoError(t, rlp.DecodeBytes(b, &withBatch))
	txs, err := catomic.ParseBatch(withBatch.Batch)
	require.NoError(t, err)
	return txs
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
	var out [][]byte
	for _, ct := range c.readIndex(t, path) {
		b, err := ids.HexNC.Decode(ct.Bytes)
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}
