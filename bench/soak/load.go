package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

// opTimeout bounds one operation: a tx from signing to acceptance, or one round of reads.
const opTimeout = 30 * time.Second

// stream is one kind of load: its counts, latencies and the first errors. It is safe for
// concurrent use.
type stream struct {
	chain, kind string

	mu sync.Mutex
	// ok counts the operations that succeeded, failed those that did not.
	ok, failed  int
	total, most time.Duration
	// firstErrs holds the first maxErrs errors.
	firstErrs []error
}

// maxErrs is how many errors a stream keeps.
const maxErrs = 5

func (s *stream) record(d time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.failed++
		if len(s.firstErrs) < maxErrs {
			s.firstErrs = append(s.firstErrs, err)
		}
		return
	}
	s.ok++
	s.total += d
	s.most = max(s.most, d)
}

// pace runs op about rate times a second until ctx is done, one at a time: each run starts
// 1/rate after the previous one started, or when it ends if it took longer. op gets a context
// of its own, bounded by opTimeout and detached from ctx, so that the end of the load never
// cuts an operation in half. op returns false to stop the stream (after an error that leaves
// it unable to go on).
func pace(ctx context.Context, clk clock.Clock, rate float64, s *stream, op func(context.Context) (bool, error)) {
	if rate <= 0 {
		return
	}
	every := time.Duration(float64(time.Second) / rate)
	for ctx.Err() == nil {
		start := clk.Now()
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
		goOn, err := op(octx)
		cancel()
		s.record(clk.Now().Sub(start), err)
		if !goOn {
			return
		}
		if wait := every - clk.Now().Sub(start); wait > 0 {
			if clock.Sleep(ctx, clk, wait) != nil {
				return
			}
		}
	}
}

// evmSender sends one kind of transaction from one key on one EVM chain, each waited for with
// eth_sendRawTransactionSync, and keeps what the invariants need. Only its stream's goroutine
// uses it until the load ends.
type evmSender struct {
	s      *stream
	ec     *ethclient.Client
	key    *ecdsa.PrivateKey
	from   common.Address
	signer types.Signer
	tip    *big.Int
	feeCap *big.Int
	// to, value, data and gas make every tx; credit is what each adds to creditTo's balance
	// (the value of a transfer, the amount of a mint).
	to       common.Address
	value    *big.Int
	data     []byte
	gas      uint64
	creditTo common.Address
	credit   *big.Int

	// Read before the load.
	startNonce                  uint64
	startBalance, creditedStart *big.Int

	// nonce is the next nonce; hashes the accepted txs; spent the value and fees they cost
	// (gasUsed × effectiveGasPrice + value); credited the sum of their credits.
	nonce    uint64
	hashes   []common.Hash
	spent    *big.Int
	credited *big.Int
}

// newEVMSender reads the chain ID, key's nonce and balance and creditTo's balance.
func newEVMSender(ctx context.Context, s *stream, ec *ethclient.Client, key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte, gas uint64, creditTo common.Address, credit *big.Int) (*evmSender, error) {
	chainID, err := ec.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.chain, err)
	}
	e := &evmSender{
		s: s, ec: ec, key: key, from: crypto.PubkeyToAddress(key.PublicKey),
		signer: types.LatestSignerForChainID(chainID),
		tip:    big.NewInt(1_000_000_000), feeCap: new(big.Int).Mul(big.NewInt(1000), big.NewInt(1_000_000_000)),
		to: to, value: value, data: data, gas: gas, creditTo: creditTo, credit: credit,
		spent: new(big.Int), credited: new(big.Int),
	}
	if e.startNonce, err = ec.NonceAt(ctx, e.from, nil); err != nil {
		return nil, fmt.Errorf("%s %s: nonce: %w", s.chain, s.kind, err)
	}
	e.nonce = e.startNonce
	if e.startBalance, err = ec.BalanceAt(ctx, e.from, nil); err != nil {
		return nil, fmt.Errorf("%s %s: balance: %w", s.chain, s.kind, err)
	}
	if e.creditedStart, err = ec.BalanceAt(ctx, creditTo, nil); err != nil {
		return nil, fmt.Errorf("%s %s: balance: %w", s.chain, s.kind, err)
	}
	return e, nil
}

// send signs the next tx, sends it with eth_sendRawTransactionSync and checks its receipt. After
// an error the sender stops: its nonce is no longer known.
func (e *evmSender) send(ctx context.Context) (bool, error) {
	tx, err := types.SignNewTx(e.key, e.signer, &types.DynamicFeeTx{
		ChainID: e.signer.ChainID(), Nonce: e.nonce, GasTipCap: e.tip, GasFeeCap: e.feeCap,
		Gas: e.gas, To: &e.to, Value: e.value, Data: e.data,
	})
	if err != nil {
		return false, err
	}
	wait := opTimeout - time.Second
	r, err := e.ec.SendTransactionSync(ctx, tx, &wait)
	if err != nil {
		return false, fmt.Errorf("nonce %d: %w", e.nonce, err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return false, fmt.Errorf("%w: tx %s (nonce %d)", errReverted, tx.Hash(), e.nonce)
	}
	e.nonce++
	e.hashes = append(e.hashes, tx.Hash())
	e.spent.Add(e.spent, new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice))
	e.spent.Add(e.spent, e.value)
	e.credited.Add(e.credited, e.credit)
	return true, nil
}

// avaxSender sends AVAX on the X- or P-Chain, one BaseTx at a time, each waited for: the
// wallet spends the key's UTXOs, so two txs at once would spend the same ones.
type avaxSender struct {
	s *stream
	// send builds, issues and waits for one tx; status reads a tx's status.
	send   func(ctx context.Context) (ids.ID, error)
	status func(ctx context.Context, id ids.ID) (string, error)
	// accepted is the status of an accepted tx ("Accepted" on X, "Committed" on P).
	accepted string
	// to receives amount with every tx; balance reads its balance.
	to      string
	amount  uint64
	balance func(ctx context.Context) (uint64, error)

	startBalance uint64
	txs          []ids.ID
}

func (a *avaxSender) op(ctx context.Context) (bool, error) {
	id, err := a.send(ctx)
	if err != nil {
		return false, err
	}
	a.txs = append(a.txs, id)
	return true, nil
}

// newXSender sends amount nAVAX to to with x.
func newXSender(ctx context.Context, s *stream, x *wallet.X, c *wallet.Client, to string, amount uint64) (*avaxSender, error) {
	avax, err := x.Asset(ctx, "AVAX")
	if err != nil {
		return nil, err
	}
	a := &avaxSender{
		s: s, accepted: "Accepted", to: to, amount: amount,
		send: func(ctx context.Context) (ids.ID, error) {
			tx, err := x.Send(ctx, to, avax.AssetID, amount)
			if err != nil {
				return ids.ID{}, err
			}
			id, err := x.Issue(ctx, tx)
			if err != nil {
				return ids.ID{}, err
			}
			return id, x.WaitAccepted(ctx, id, opTimeout)
		},
		status: x.Status,
		balance: func(ctx context.Context) (uint64, error) {
			var r struct {
				Balance uint64 `json:"balance,string"`
			}
			err := c.Call(ctx, "/ext/bc/X", "avm.getBalance", map[string]any{"address": to, "assetID": "AVAX"}, &r)
			return r.Balance, err
		},
	}
	if a.startBalance, err = a.balance(ctx); err != nil {
		return nil, fmt.Errorf("read X-Chain balance of %s: %w", to, err)
	}
	return a, nil
}

// newPSender sends amount nAVAX to to with p.
func newPSender(ctx context.Context, s *stream, p *wallet.P, c *wallet.Client, to string, amount uint64) (*avaxSender, error) {
	a := &avaxSender{
		s: s, accepted: "Committed", to: to, amount: amount,
		send: func(ctx context.Context) (ids.ID, error) {
			tx, err := p.Send(ctx, to, amount)
			if err != nil {
				return ids.ID{}, err
			}
			return p.IssueAndWait(ctx, tx, opTimeout)
		},
		status: p.Status,
		balance: func(ctx context.Context) (uint64, error) {
			var r struct {
				Balance uint64 `json:"balance,string"`
			}
			err := c.Call(ctx, "/ext/bc/P", "platform.getBalance", map[string]any{"addresses": []string{to}}, &r)
			return r.Balance, err
		},
	}
	var err error
	if a.startBalance, err = a.balance(ctx); err != nil {
		return nil, fmt.Errorf("read P-Chain balance of %s: %w", to, err)
	}
	return a, nil
}

// reader makes one round of the reads a wallet or explorer makes, on every chain.
type reader struct {
	c       *wallet.Client
	cChain  *ethclient.Client
	l1      *ethclient.Client
	l1ID    ids.ID
	xAddr   string
	allowed common.Address
	// calls counts the calls made; only the reader's goroutine touches it until the load ends.
	calls int
}

// readAllowList is keccak256("readAllowList(address)")[:4] (l1-evm.md §5.1).
var readAllowList = crypto.Keccak256([]byte("readAllowList(address)"))[:4]

// noContainers is the Index API's answer on an empty index (node-api.md §5.5): a chain that has
// accepted no block since genesis.
const noContainers = "no containers have been accepted"

func (r *reader) op(ctx context.Context) (bool, error) {
	var errs []error
	note := func(what string, err error) {
		r.calls++
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	for _, ch := range []struct {
		name string
		ec   *ethclient.Client
	}{{"C", r.cChain}, {"L1", r.l1}} {
		blk, err := ch.ec.BlockByNumber(ctx, nil)
		note(ch.name+" eth_getBlockByNumber", err)
		if err != nil {
			continue
		}
		if ch.name == "C" {
			// The C-Chain has no precompiles: a call moving 1 wei from the funded local key to
			// itself, an account without code, returns nothing.
			_, err = ch.ec.CallContract(ctx, ethereum.CallMsg{From: r.allowed, To: &r.allowed, Value: big.NewInt(1)}, nil)
		} else {
			err = r.readRole(ctx, ch.ec)
		}
		note(ch.name+" eth_call", err)
		from := new(big.Int).SetUint64(blk.NumberU64() - min(blk.NumberU64(), 100))
		_, err = ch.ec.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: from, ToBlock: blk.Number()})
		note(ch.name+" eth_getLogs", err)
	}
	var v struct {
		Validators []json.RawMessage `json:"validators"`
	}
	err := r.c.Call(ctx, "/ext/bc/P", "platform.getCurrentValidators", map[string]any{}, &v)
	if err == nil && len(v.Validators) == 0 {
		err = errNoValidators
	}
	note("platform.getCurrentValidators", err)
	var b struct {
		Balance string `json:"balance"`
	}
	note("avm.getBalance", r.c.Call(ctx, "/ext/bc/X", "avm.getBalance", map[string]any{"address": r.xAddr, "assetID": "AVAX"}, &b))
	for _, alias := range []string{"X", "P", "C", r.l1ID.String()} {
		_, err := lastAccepted(ctx, r.c, alias)
		if err != nil && isNoContainers(err) {
			err = nil
		}
		note("index.getLastAccepted "+alias, err)
	}
	return true, errors.Join(errs...)
}

// readRole calls the tx allow list's readAllowList(allowed) on the L1: allowed is the allow
// list's admin, role 2 (l1-evm.md §5.1).
func (r *reader) readRole(ctx context.Context, ec *ethclient.Client) error {
	data := append(append([]byte{}, readAllowList...), common.LeftPadBytes(r.allowed.Bytes(), 32)...)
	to := l1params.TxAllowListAddress
	out, err := ec.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return err
	}
	if got := new(big.Int).SetBytes(out); len(out) != 32 || got.Cmp(big.NewInt(2)) != 0 {
		return fmt.Errorf("%w: readAllowList(%s) = %x", errWrongRole, r.allowed, out)
	}
	return nil
}
