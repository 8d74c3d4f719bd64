package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

const (
	// transferGas is the gas of a plain transfer; mintGasLimit bounds a mintNativeCoin call
	// (about 55,000 with its event).
	transferGas  = 21000
	mintGasLimit = 100_000
	// goroutineSlack is how many goroutines more than before the load still count as back:
	// idle connections the server has not yet noticed closed, timers of caches.
	goroutineSlack = 50
	// settleFor bounds the wait for goroutines to come back after the load.
	settleFor = 10 * time.Second
	// setupWait bounds each step of creating the L1.
	setupWait = time.Minute
	// checkTimeout bounds the checks after the load.
	checkTimeout = 5 * time.Minute
)

// The amounts each tx moves: 1 gwei per EVM transfer, 1 native coin per mint, 1,000 nAVAX per X
// send (the fee is 1,000,000) and 1 mAVAX per P send.
var (
	evmValue   = big.NewInt(1_000_000_000)
	mintAmount = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
)

const (
	xAmount = 1_000
	pAmount = 1_000_000
)

// derivedKey returns a fixed key for a role of the soak, derived from its name.
func derivedKey(name string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte("cornice soak " + name)))
	if err != nil {
		panic(fmt.Sprintf("soak: derive key %q: %v", name, err)) // a hash is a valid key
	}
	return k
}

// derivedAddr returns the C-Chain address of derivedKey(name).
func derivedAddr(name string) common.Address {
	return crypto.PubkeyToAddress(derivedKey(name).PublicKey)
}

// mintData is the calldata of mintNativeCoin(to, amount) (l1-evm.md §5.4).
func mintData(to common.Address, amount *big.Int) []byte {
	d := append([]byte{}, crypto.Keccak256([]byte("mintNativeCoin(address,uint256)"))[:4]...)
	d = append(d, common.LeftPadBytes(to.Bytes(), 32)...)
	return append(d, common.LeftPadBytes(amount.Bytes(), 32)...)
}

// result is what a soak saw.
type result struct {
	dataDir  string
	l1ID     ids.ID
	loadTime time.Duration
	streams  []*stream
	reads    int
	// before is sampled after a GC before the load, after after a GC once the load has ended
	// and goroutines have settled (or settleFor has passed).
	before, after sample
	series        []sample
	errorLines    []string
	checks        checker
}

// soak runs the whole soak on a node in dir. It returns an error when it could not run (the
// node did not start, the L1 was not created); broken invariants are in the result.
func soak(ctx context.Context, clk clock.Clock, cfg cliConfig, dir string, stderr io.Writer) (res *result, err error) {
	logs := newLogCapture(stderr, cfg.logLevel)
	n, err := newSoakNode(dir, slog.New(logs))
	if err != nil {
		return nil, err
	}
	nctx, stopNode := context.WithCancel(ctx)
	done := make(chan error, 1)
	// The listener is bound: requests wait in its backlog until Run serves them.
	go func() { done <- n.Run(nctx) }()
	defer func() {
		stopNode()
		if rerr := <-done; rerr != nil {
			err = errors.Join(err, fmt.Errorf("node: %w", rerr))
		}
		if res != nil {
			res.errorLines = logs.errs.snapshot()
			res.checks.expect("the node logged no ERROR line", errorLinesErr(res.errorLines))
		}
	}()

	nodeURL := "http://" + n.HTTPAddr().String()
	fmt.Fprintf(stderr, "soak: node serves %s, data in %s\n", nodeURL, dir)
	hc := newHTTPClient(opTimeout)
	defer hc.CloseIdleConnections()
	wc, err := wallet.NewClient(nodeURL, hc)
	if err != nil {
		return nil, err
	}
	// The well-known local key, funded on X, P and C.
	key, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return nil, err
	}
	local := key.PrivateKey()
	p, err := wallet.NewP(ctx, wc, key, clk)
	if err != nil {
		return nil, fmt.Errorf("P-Chain wallet: %w", err)
	}
	x, err := wallet.NewX(ctx, wc, key, clk)
	if err != nil {
		return nil, fmt.Errorf("X-Chain wallet: %w", err)
	}

	l1Sender := derivedKey("l1 sender")
	g, err := l1Genesis(crypto.PubkeyToAddress(local.PublicKey), crypto.PubkeyToAddress(l1Sender.PublicKey))
	if err != nil {
		return nil, err
	}
	t0 := clk.Now()
	created, err := wallet.CreateL1(ctx, wc, key, wallet.L1Request{
		Genesis: g, Name: l1Name, Balance: wallet.DefaultL1Balance, Weight: wallet.DefaultL1Weight,
	}, setupWait, clk)
	if err != nil {
		return nil, fmt.Errorf("create L1: %w", err)
	}
	l1ID := created.BlockchainID
	fmt.Fprintf(stderr, "soak: L1 %s serves %s (created in %s)\n", l1ID, l1RPCURL(nodeURL, l1ID), clk.Now().Sub(t0).Round(time.Millisecond))
	cChain, err := dialEth(ctx, hc, nodeURL+"/ext/bc/C/rpc")
	if err != nil {
		return nil, err
	}
	defer cChain.Close()
	l1, err := dialEth(ctx, hc, l1RPCURL(nodeURL, l1ID))
	if err != nil {
		return nil, err
	}
	defer l1.Close()

	res = &result{dataDir: dir, l1ID: l1ID}
	streams := map[string]*stream{}
	for _, s := range []*stream{
		{chain: "C", kind: "transfer"}, {chain: "L1", kind: "transfer"}, {chain: "L1", kind: "mintNativeCoin"},
		{chain: "X", kind: "BaseTx"}, {chain: "P", kind: "BaseTx"}, {chain: "all", kind: "read rounds"},
	} {
		res.streams = append(res.streams, s)
		streams[s.chain+" "+s.kind] = s
	}
	cTo, l1To, mintTo := derivedAddr("C recipient"), derivedAddr("L1 recipient"), derivedAddr("mint recipient")
	cs, err := newEVMSender(ctx, streams["C transfer"], cChain, local, cTo, evmValue, nil, transferGas, cTo, evmValue)
	if err != nil {
		return res, err
	}
	ls, err := newEVMSender(ctx, streams["L1 transfer"], l1, l1Sender, l1To, evmValue, nil, transferGas, l1To, evmValue)
	if err != nil {
		return res, err
	}
	ms, err := newEVMSender(ctx, streams["L1 mintNativeCoin"], l1, local, l1params.NativeMinterAddress, new(big.Int),
		mintData(mintTo, mintAmount), mintGasLimit, mintTo, mintAmount)
	if err != nil {
		return res, err
	}
	avaxTo := wallet.NewKey(derivedKey("avax recipient"))
	xs, err := newXSender(ctx, streams["X BaseTx"], x, wc, avaxTo.ChainAddress("X", p.NetworkID()), xAmount)
	if err != nil {
		return res, err
	}
	ps, err := newPSender(ctx, streams["P BaseTx"], p, wc, avaxTo.ChainAddress("P", p.NetworkID()), pAmount)
	if err != nil {
		return res, err
	}
	rd := &reader{c: wc, cChain: cChain, l1: l1, l1ID: l1ID, xAddr: x.Address(), allowed: crypto.PubkeyToAddress(local.PublicKey)}

	smp := &sampler{clk: clk, dbDir: filepath.Join(dir, "db"), c: wc, cChain: cChain, l1: l1}
	hc.CloseIdleConnections()
	smp.start = clk.Now()
	res.before = smp.take(ctx, true, false)

	// The load.
	fmt.Fprintf(stderr, "soak: load for %s\n", cfg.duration)
	loadCtx, endLoad := context.WithCancel(ctx)
	defer endLoad()
	timer := clk.AfterFunc(cfg.duration, endLoad)
	defer timer.Stop()
	var wg sync.WaitGroup
	wg.Go(func() { smp.run(loadCtx, cfg.sample) })
	wg.Go(func() { pace(loadCtx, clk, cfg.cRate, cs.s, cs.send) })
	wg.Go(func() { pace(loadCtx, clk, cfg.l1Rate, ls.s, ls.send) })
	wg.Go(func() { pace(loadCtx, clk, cfg.mintRate, ms.s, ms.send) })
	wg.Go(func() { pace(loadCtx, clk, cfg.xRate, xs.s, xs.op) })
	wg.Go(func() { pace(loadCtx, clk, cfg.pRate, ps.s, ps.op) })
	wg.Go(func() { pace(loadCtx, clk, cfg.readRate, streams["all read rounds"], rd.op) })
	wg.Wait()
	res.loadTime = clk.Now().Sub(smp.start)
	res.reads = rd.calls
	res.series = smp.series()
	if ctx.Err() != nil {
		return res, ctx.Err()
	}

	// After the load: let goroutines settle, then check.
	fmt.Fprintln(stderr, "soak: load over, checking")
	hc.CloseIdleConnections()
	res.after = settle(ctx, clk, smp, res.before.goroutines+goroutineSlack)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ct := clk.AfterFunc(checkTimeout, cancel)
	defer ct.Stop()
	c := &res.checks
	var failed []error
	for _, s := range res.streams {
		if s.failed > 0 {
			failed = append(failed, fmt.Errorf("%s %s: %d failed, first: %w", s.chain, s.kind, s.failed, errors.Join(s.firstErrs...)))
		}
	}
	if len(failed) > 0 {
		c.expect("no load operation failed", fmt.Errorf("%w: %w", errLoadFailed, errors.Join(failed...)))
	} else {
		c.expect("no load operation failed", nil)
	}
	for _, e := range []*evmSender{cs, ls, ms} {
		c.checkEVM(cctx, e)
	}
	c.checkMintLogs(cctx, l1, len(ms.hashes), config.DefaultEVMLogsBlockRangeCap)
	c.checkAVAX(cctx, xs)
	c.checkAVAX(cctx, ps)
	c.checkIndexAVAX(cctx, wc, "X", "avm")
	c.checkIndexAVAX(cctx, wc, "P", "platform")
	c.checkIndexEVM(cctx, wc, "C", "C", cChain)
	c.checkIndexEVM(cctx, wc, l1ID.String(), "L1", l1)
	var leak error
	if res.after.goroutines > res.before.goroutines+goroutineSlack {
		leak = fmt.Errorf("%w: %d before the load, %d after (slack %d)", errLeak, res.before.goroutines, res.after.goroutines, goroutineSlack)
	}
	c.expect("goroutines back to the level before the load", leak)
	return res, nil
}

// settle samples, after a GC, every 250 ms until the goroutines are at most limit or settleFor
// has passed, and returns the last sample.
func settle(ctx context.Context, clk clock.Clock, smp *sampler, limit int) sample {
	deadline := clk.Now().Add(settleFor)
	for {
		s := smp.take(ctx, true, false)
		if s.goroutines <= limit || !clk.Now().Before(deadline) || clock.Sleep(ctx, clk, 250*time.Millisecond) != nil {
			return s
		}
	}
}

// errorLinesErr reports the node's ERROR lines, if any.
func errorLinesErr(lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s lines, first: %s", errNodeLog, strconv.Itoa(len(lines)), lines[0])
}
