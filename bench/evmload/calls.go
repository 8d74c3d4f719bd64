package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/clock"
)

// The storage contract, assembled by hand (the same as e2e/js/check.mjs): set(uint256) stores
// its argument at slot 0, get() returns slot 0, anything else reverts. storageInit copies the
// 50-byte runtime and returns it.
const (
	storageInit    = "603280600b6000396000f3"
	storageRuntime = "60003560e01c806360fe47b114601e5780636d4ce63c14602657600080fd5b600435600055005b60005460005260206000f3"
	// selectorSet and selectorGet are keccak256("set(uint256)")[:4] and keccak256("get()")[:4].
	selectorSet = "60fe47b1"
	selectorGet = "6d4ce63c"
)

// deployStorage deploys the storage contract from the local key, sets it to 42 and returns
// its address once both are accepted.
func deployStorage(ctx context.Context, clk clock.Clock, c *rpcClient, ch chain) (common.Address, error) {
	key, err := localKey()
	if err != nil {
		return common.Address{}, err
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	n, err := nonces(ctx, c, []common.Address{from})
	if err != nil {
		return common.Address{}, err
	}
	addr := crypto.CreateAddress(from, n[0])
	tx, err := signCreate(ch, key, n[0], common.FromHex(storageInit+storageRuntime))
	if err != nil {
		return common.Address{}, err
	}
	set := common.FromHex(selectorSet + fmt.Sprintf("%064x", 42))
	call, err := ch.sign(key, n[0]+1, addr, new(big.Int), 100_000, set)
	if err != nil {
		return common.Address{}, err
	}
	for _, raw := range [][]byte{tx, call} {
		if err := c.call(ctx, nil, "eth_sendRawTransaction", hexutil.Encode(raw)); err != nil {
			return common.Address{}, err
		}
	}
	if err := waitNonce(ctx, clk, c, from, n[0]+2); err != nil {
		return common.Address{}, err
	}
	return addr, nil
}

// signCreate signs a contract creation with code as init code.
func signCreate(ch chain, key *ecdsa.PrivateKey, nonce uint64, code []byte) ([]byte, error) {
	tx, err := types.SignNewTx(key, ch.signer, &types.DynamicFeeTx{
		ChainID: ch.id, Nonce: nonce, GasTipCap: ch.tip, GasFeeCap: ch.feeCap, Gas: 200_000, Data: code,
	})
	if err != nil {
		return nil, err
	}
	return tx.MarshalBinary()
}

// callResult is one concurrency level of eth_call.
type callResult struct {
	conns    int
	calls    int
	errors   int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (r callResult) row(label, method string) string {
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %.0f | %d | %d |", label, method, r.conns, r.calls, r.errors,
		float64(r.calls)/r.elapsed.Seconds(), r.p50.Microseconds(), r.p99.Microseconds())
}

func callHeader() string {
	return "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs |\n|---|---|---:|---:|---:|---:|---:|---:|"
}

// runCalls deploys the storage contract and calls get() with eth_call on cfg.conns connections
// until cfg.n calls are done or cfg.duration has passed. A call counts as an error unless it
// returns 42.
func runCalls(ctx context.Context, clk clock.Clock, c *rpcClient, cfg cliConfig) (callResult, error) {
	ch, err := newChain(ctx, c, cfg.feeCapGwei)
	if err != nil {
		return callResult{}, err
	}
	addr, err := deployStorage(ctx, clk, c, ch)
	if err != nil {
		return callResult{}, err
	}
	body, err := json.Marshal(newRequest(1, "eth_call", map[string]string{"to": addr.Hex(), "data": "0x" + selectorGet}, "latest"))
	if err != nil {
		return callResult{}, err
	}
	want := fmt.Sprintf(`"0x%064x"`, 42)

	ctx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	var (
		next    atomic.Int64
		errs    atomic.Int64
		mu      sync.Mutex
		samples []time.Duration
		wg      sync.WaitGroup
	)
	start := clk.Now()
	for range cfg.conns {
		wg.Go(func() {
			var mine []time.Duration
			for next.Add(1) <= int64(cfg.n) && ctx.Err() == nil {
				t0 := clk.Now()
				raw, err := c.post(ctx, body)
				if ctx.Err() != nil {
					break // cut off by -duration: neither a sample nor an error
				}
				var r reply
				if err != nil || json.Unmarshal(raw, &r) != nil || r.Error != nil || string(r.Result) != want {
					errs.Add(1)
					continue
				}
				mine = append(mine, clk.Now().Sub(t0))
			}
			mu.Lock()
			samples = append(samples, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := clk.Now().Sub(start)
	slices.Sort(samples)
	return callResult{
		conns: cfg.conns, calls: len(samples), errors: int(errs.Load()), elapsed: elapsed,
		p50: percentile(samples, 50), p99: percentile(samples, 99),
	}, nil
}

// percentile returns the nearest-rank p-th percentile of sorted samples, 0 for none.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}
