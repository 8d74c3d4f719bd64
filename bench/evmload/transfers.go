package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

// localKey returns the well-known local key (wallet.LocalKey); its address is funded in the
// local C-Chain genesis.
func localKey() (*ecdsa.PrivateKey, error) {
	k, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return nil, err
	}
	return k.PrivateKey(), nil
}

// transferGas is the gas of a plain transfer to an account without code.
const transferGas = 21000

// pollEvery is how often the acceptance watcher asks for the head.
const pollEvery = 2 * time.Millisecond

// recipient receives every transfer.
var recipient = common.HexToAddress("0x00000000000000000000000000000000000e7104")

// senderKey returns the key of the i-th sender: derived from i, so every run uses the same
// accounts and finds them funded by the previous one.
func senderKey(i int) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte("evmload sender " + strconv.Itoa(i))))
	if err != nil {
		panic(fmt.Sprintf("evmload: derive sender key %d: %v", i, err)) // a hash is a valid key
	}
	return k
}

// chain is what signing needs to know about the chain.
type chain struct {
	id     *big.Int
	signer types.Signer
	tip    *big.Int
	feeCap *big.Int
}

func (ch chain) sign(key *ecdsa.PrivateKey, nonce uint64, to common.Address, value *big.Int, gas uint64, data []byte) ([]byte, error) {
	tx, err := types.SignNewTx(key, ch.signer, &types.DynamicFeeTx{
		ChainID: ch.id, Nonce: nonce, GasTipCap: ch.tip, GasFeeCap: ch.feeCap,
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		return nil, err
	}
	return tx.MarshalBinary()
}

// newChain reads the chain ID and sets the fees every transaction of the run pays.
func newChain(ctx context.Context, c *rpcClient, feeCapGwei uint64) (chain, error) {
	var id hexutil.Big
	if err := c.call(ctx, &id, "eth_chainId"); err != nil {
		return chain{}, err
	}
	gwei := big.NewInt(1_000_000_000)
	return chain{
		id:     id.ToInt(),
		signer: types.LatestSignerForChainID(id.ToInt()),
		tip:    new(big.Int).Set(gwei),
		feeCap: new(big.Int).Mul(new(big.Int).SetUint64(feeCapGwei), gwei),
	}, nil
}

// nonces reads the accepted nonce of each address in one batch.
func nonces(ctx context.Context, c *rpcClient, addrs []common.Address) ([]uint64, error) {
	reqs := make([]request, len(addrs))
	for i, a := range addrs {
		reqs[i] = newRequest(i, "eth_getTransactionCount", a, "latest")
	}
	replies, err := c.batch(ctx, reqs)
	if err != nil {
		return nil, fmt.Errorf("read nonces: %w", err)
	}
	out := make([]uint64, len(addrs))
	for i, r := range replies {
		if r.Error != nil {
			return nil, fmt.Errorf("read nonce of %s: %w", addrs[i], r.Error)
		}
		var n hexutil.Uint64
		if err := json.Unmarshal(r.Result, &n); err != nil {
			return nil, fmt.Errorf("read nonce of %s: %w", addrs[i], err)
		}
		out[i] = uint64(n)
	}
	return out, nil
}

// waitNonce waits until addr's accepted nonce is at least want.
func waitNonce(ctx context.Context, clk clock.Clock, c *rpcClient, addr common.Address, want uint64) error {
	for {
		got, err := nonces(ctx, c, []common.Address{addr})
		if err != nil {
			return err
		}
		if got[0] >= want {
			return nil
		}
		if err := clock.Sleep(ctx, clk, 10*time.Millisecond); err != nil {
			return fmt.Errorf("wait for nonce %d of %s (at %d): %w", want, addr, got[0], err)
		}
	}
}

// transferResult is the outcome of a transfers run.
type transferResult struct {
	n, batch, conns, senders int
	// elapsed runs from the first call sent to the moment the watcher saw the last transfer
	// accepted, summed over the waves; sending is the part spent sending.
	elapsed, sending time.Duration
	blocks           int
	maxPerBlock      int
}

func (r transferResult) row(label string) string {
	return fmt.Sprintf("| %s | %d | %s | %d | %d | %.2f | %.0f | %.0f | %d | %.0f | %d |",
		label, r.n, batchLabel(r.batch), r.conns, r.senders, r.elapsed.Seconds(),
		float64(r.n)/r.elapsed.Seconds(), float64(r.n)/r.sending.Seconds(), r.blocks,
		float64(r.n)/float64(max(r.blocks, 1)), r.maxPerBlock)
}

func transferHeader() string {
	return "| target | transfers | batch | c | senders | time s | accepted/s | sent/s | blocks | txs/block | max txs/block |\n" +
		"|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
}

func batchLabel(b int) string {
	if b == 1 {
		return "none"
	}
	return strconv.Itoa(b) + " calls"
}

// runTransfers funds the senders, pre-signs cfg.n transfers and sends them in waves of cfg.wave,
// each wave timed from its first call to the acceptance of its last transfer.
func runTransfers(ctx context.Context, clk clock.Clock, c *rpcClient, cfg cliConfig, logf func(string, ...any)) (transferResult, error) {
	ch, err := newChain(ctx, c, cfg.feeCapGwei)
	if err != nil {
		return transferResult{}, err
	}
	keys := make([]*ecdsa.PrivateKey, cfg.senders)
	addrs := make([]common.Address, cfg.senders)
	for i := range keys {
		keys[i] = senderKey(i)
		addrs[i] = crypto.PubkeyToAddress(keys[i].PublicKey)
	}
	if err := fund(ctx, clk, c, ch, addrs, cfg, logf); err != nil {
		return transferResult{}, err
	}
	base, err := nonces(ctx, c, addrs)
	if err != nil {
		return transferResult{}, err
	}

	logf("signing %d transfers from %d senders", cfg.n, cfg.senders)
	raws := make([]string, cfg.n)
	one := big.NewInt(1)
	for i := range raws {
		s := i % cfg.senders
		raw, err := ch.sign(keys[s], base[s]+uint64(i/cfg.senders), recipient, one, transferGas, nil)
		if err != nil {
			return transferResult{}, err
		}
		raws[i] = hexutil.Encode(raw)
	}

	res := transferResult{n: cfg.n, batch: cfg.batch, conns: cfg.conns, senders: cfg.senders}
	for start := 0; start < cfg.n; start += cfg.wave {
		end := min(start+cfg.wave, cfg.n)
		w, err := sendWave(ctx, clk, c, cfg, raws[start:end], start)
		if err != nil {
			return res, err
		}
		res.elapsed += w.elapsed
		res.sending += w.sending
		res.blocks += w.blocks
		res.maxPerBlock = max(res.maxPerBlock, w.maxPerBlock)
		logf("wave %d–%d: accepted in %s (sent in %s), %d blocks", start, end, w.elapsed, w.sending, w.blocks)
	}

	// Every sender's nonce must have moved by exactly its transfers.
	got, err := nonces(ctx, c, addrs)
	if err != nil {
		return res, err
	}
	for s := range addrs {
		want := base[s] + uint64(cfg.n/cfg.senders)
		if s < cfg.n%cfg.senders {
			want++
		}
		if got[s] != want {
			return res, fmt.Errorf("sender %s: nonce %d after the run, want %d", addrs[s], got[s], want)
		}
	}
	return res, nil
}

// fund gives every sender enough for its share of transfers at the fee cap, from the local key.
func fund(ctx context.Context, clk clock.Clock, c *rpcClient, ch chain, addrs []common.Address, cfg cliConfig, logf func(string, ...any)) error {
	key, err := localKey()
	if err != nil {
		return err
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	start, err := nonces(ctx, c, []common.Address{from})
	if err != nil {
		return err
	}
	perSender := uint64(cfg.n/len(addrs) + 1)
	amount := new(big.Int).Mul(ch.feeCap, new(big.Int).SetUint64(perSender*transferGas))
	amount.Add(amount, new(big.Int).SetUint64(perSender))
	reqs := make([]request, len(addrs))
	for i, a := range addrs {
		raw, err := ch.sign(key, start[0]+uint64(i), a, amount, transferGas, nil)
		if err != nil {
			return err
		}
		reqs[i] = newRequest(i, "eth_sendRawTransaction", hexutil.Encode(raw))
	}
	if cfg.allowSenders {
		// The local key is the allow list's admin: it enables each sender after funding it.
		for i, a := range addrs {
			raw, err := ch.sign(key, start[0]+uint64(len(addrs)+i), l1params.TxAllowListAddress, new(big.Int), allowGas, setEnabledData(a))
			if err != nil {
				return err
			}
			reqs = append(reqs, newRequest(len(addrs)+i, "eth_sendRawTransaction", hexutil.Encode(raw)))
		}
		logf("enabling %d senders in the tx allow list", len(addrs))
	}
	logf("funding %d senders with %s wei each", len(addrs), amount)
	replies, err := c.batch(ctx, reqs)
	if err != nil {
		return fmt.Errorf("fund senders: %w", err)
	}
	for _, r := range replies {
		if r.Error != nil {
			return fmt.Errorf("fund senders: %w", r.Error)
		}
	}
	return waitNonce(ctx, clk, c, from, start[0]+uint64(len(reqs)))
}

// allowGas is the gas of a setEnabled call: the precompile's read and write of a role
// (l1-evm.md §5.1) and the call's data, with room to spare.
const allowGas = 100_000

// setEnabledData is the call data of the tx allow list's setEnabled(a).
func setEnabledData(a common.Address) []byte {
	return append(crypto.Keccak256([]byte("setEnabled(address)"))[:4:4], common.LeftPadBytes(a[:], 32)...)
}

// waveResult is the outcome of one wave.
type waveResult struct {
	elapsed, sending time.Duration
	blocks           int
	maxPerBlock      int
}

// sendWave sends raws (offset is the index of raws[0] in the run, for JSON-RPC IDs) over
// cfg.conns connections, cfg.batch calls per request, and waits until the chain has accepted as
// many transactions as were sent. Connection i sends the transactions of senders i, i+conns, …
// in order, so each sender's nonces arrive in order.
func sendWave(ctx context.Context, clk clock.Clock, c *rpcClient, cfg cliConfig, raws []string, offset int) (waveResult, error) {
	bodies := make([][][]byte, cfg.conns)
	for w := range bodies {
		var reqs []request
		flush := func() error {
			if len(reqs) == 0 {
				return nil
			}
			var v any = reqs
			if cfg.batch == 1 {
				v = reqs[0]
			}
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			bodies[w] = append(bodies[w], b)
			reqs = nil
			return nil
		}
		for i := range raws {
			if (offset+i)%cfg.senders%cfg.conns != w {
				continue
			}
			reqs = append(reqs, newRequest(offset+i, "eth_sendRawTransaction", raws[i]))
			if len(reqs) == cfg.batch {
				if err := flush(); err != nil {
					return waveResult{}, err
				}
			}
		}
		if err := flush(); err != nil {
			return waveResult{}, err
		}
	}

	var head hexutil.Uint64
	if err := c.call(ctx, &head, "eth_blockNumber"); err != nil {
		return waveResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()

	start := clk.Now()
	type watched struct {
		at          time.Time
		blocks, max int
		err         error
	}
	watch := make(chan watched, 1)
	go func() {
		at, blocks, most, err := watchAccepted(ctx, clk, c, uint64(head), len(raws))
		watch <- watched{at, blocks, most, err}
	}()

	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed int
		first  error
	)
	for w := range bodies {
		wg.Go(func() {
			for _, body := range bodies[w] {
				n, err := postSends(ctx, c, body, cfg.batch)
				if n > 0 {
					mu.Lock()
					failed += n
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	sending := clk.Now().Sub(start)
	if failed > 0 {
		cancel()
		<-watch
		return waveResult{}, sendErrors(failed, len(raws), first)
	}
	res := <-watch
	if res.err != nil {
		return waveResult{}, res.err
	}
	return waveResult{elapsed: res.at.Sub(start), sending: sending, blocks: res.blocks, maxPerBlock: res.max}, nil
}

// postSends posts one body of eth_sendRawTransaction calls and returns how many failed, with
// the first error.
func postSends(ctx context.Context, c *rpcClient, body []byte, batch int) (int, error) {
	raw, err := c.post(ctx, body)
	if err != nil {
		return batch, err
	}
	if batch == 1 {
		var r reply
		if err := json.Unmarshal(raw, &r); err != nil {
			return 1, err
		}
		if r.Error != nil {
			return 1, r.Error
		}
		return 0, nil
	}
	var rs []reply
	if err := json.Unmarshal(raw, &rs); err != nil {
		return batch, err
	}
	var (
		n     int
		first error
	)
	for _, r := range rs {
		if r.Error != nil {
			n++
			if first == nil {
				first = r.Error
			}
		}
	}
	return n, first
}

// watchAccepted polls the head until the blocks after from hold want transactions, and returns
// when it saw that, how many blocks it took and the most transactions in one of them.
func watchAccepted(ctx context.Context, clk clock.Clock, c *rpcClient, from uint64, want int) (time.Time, int, int, error) {
	var (
		seen   = from
		count  int
		blocks int
		most   int
	)
	for {
		var head hexutil.Uint64
		if err := c.call(ctx, &head, "eth_blockNumber"); err != nil {
			return time.Time{}, 0, 0, notAccepted(ctx, err, count, want)
		}
		if uint64(head) > seen {
			reqs := make([]request, 0, uint64(head)-seen)
			for n := seen + 1; n <= uint64(head); n++ {
				reqs = append(reqs, newRequest(int(n-seen), "eth_getBlockTransactionCountByNumber", hexutil.Uint64(n)))
			}
			replies, err := c.batch(ctx, reqs)
			if err != nil {
				return time.Time{}, 0, 0, notAccepted(ctx, err, count, want)
			}
			for _, r := range replies {
				var n hexutil.Uint64
				if r.Error != nil {
					return time.Time{}, 0, 0, r.Error
				}
				if err := json.Unmarshal(r.Result, &n); err != nil {
					return time.Time{}, 0, 0, err
				}
				count += int(n)
				most = max(most, int(n))
				blocks++
			}
			seen = uint64(head)
		}
		if count >= want {
			return clk.Now(), blocks, most, nil
		}
		if err := clock.Sleep(ctx, clk, pollEvery); err != nil {
			return time.Time{}, 0, 0, notAccepted(ctx, err, count, want)
		}
	}
}

func notAccepted(ctx context.Context, err error, count, want int) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %d of %d accepted", errNotAccepted, count, want)
	}
	return errors.Join(err, fmt.Errorf("%d of %d accepted", count, want))
}
