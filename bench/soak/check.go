package main

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

// container is the part of an Index API container the soak reads (node-api.md §5.5).
type container struct {
	ID    string `json:"id"`
	Bytes string `json:"bytes"`
	Index uint64 `json:"index,string"`
}

// lastAccepted calls index.getLastAccepted on chain alias's block index.
func lastAccepted(ctx context.Context, c *wallet.Client, alias string) (container, error) {
	var ct container
	err := c.Call(ctx, "/ext/index/"+alias+"/block", "index.getLastAccepted", map[string]string{"encoding": "hex"}, &ct)
	return ct, err
}

// isNoContainers reports whether err is the Index API's answer on an empty index.
func isNoContainers(err error) bool {
	e, ok := errors.AsType[*jsonrpc.Error](err)
	return ok && e.Message == noContainers
}

// checker collects broken invariants.
type checker struct {
	broken []string
	passed []string
}

// expect records the invariant what as passed if err is nil, else as broken.
func (c *checker) expect(what string, err error) {
	if err != nil {
		c.broken = append(c.broken, fmt.Sprintf("%s: %v", what, err))
		return
	}
	c.passed = append(c.passed, what)
}

// checkEVM checks an EVM sender after the load: every tx it saw accepted has a successful
// receipt, its nonce moved by exactly its txs, its balance by exactly their value and fees, and
// the credited account's by exactly their credits.
func (c *checker) checkEVM(ctx context.Context, e *evmSender) {
	name := e.s.chain + " " + e.s.kind
	var missing error
	for _, h := range e.hashes {
		r, err := e.ec.TransactionReceipt(ctx, h)
		if err == nil && r.Status != 1 {
			err = errReverted
		}
		if err != nil {
			missing = fmt.Errorf("tx %s: %w", h, err)
			break
		}
	}
	c.expect(fmt.Sprintf("%s: all %d accepted txs have receipts", name, len(e.hashes)), missing)

	nonce, err := e.ec.NonceAt(ctx, e.from, nil)
	if err == nil && nonce != e.startNonce+uint64(len(e.hashes)) {
		err = fmt.Errorf("%w: nonce %d, want %d + %d", errMismatch, nonce, e.startNonce, len(e.hashes))
	}
	c.expect(name+": sender nonce = txs sent", err)

	bal, err := e.ec.BalanceAt(ctx, e.from, nil)
	want := new(big.Int).Sub(e.startBalance, e.spent)
	if err == nil && bal.Cmp(want) != 0 {
		err = fmt.Errorf("%w: balance %s, want %s − %s = %s", errMismatch, bal, e.startBalance, e.spent, want)
	}
	c.expect(name+": sender balance = start − value − fees", err)

	got, err := e.ec.BalanceAt(ctx, e.creditTo, nil)
	want = new(big.Int).Add(e.creditedStart, e.credited)
	if err == nil && got.Cmp(want) != 0 {
		err = fmt.Errorf("%w: balance of %s %s, want %s", errMismatch, e.creditTo, got, want)
	}
	c.expect(name+": recipient balance = start + credits", err)
}

// checkMintLogs checks that the L1's native minter logged one NativeCoinMinted per mint.
func (c *checker) checkMintLogs(ctx context.Context, ec *ethclient.Client, mints int, rangeCap uint64) {
	head, err := ec.BlockNumber(ctx)
	n := 0
	for from := uint64(0); err == nil && from <= head; from += rangeCap {
		var logs []types.Log
		logs, err = ec.FilterLogs(ctx, ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(from),
			ToBlock:   new(big.Int).SetUint64(min(from+rangeCap-1, head)),
			Addresses: []common.Address{l1params.NativeMinterAddress},
		})
		n += len(logs)
	}
	if err == nil && n != mints {
		err = fmt.Errorf("%w: %d NativeCoinMinted logs, want %d", errMismatch, n, mints)
	}
	c.expect("L1 mint: eth_getLogs finds one NativeCoinMinted per mint", err)
}

// checkAVAX checks an X- or P-Chain sender: every tx it saw accepted still has the accepted
// status, and the recipient's balance moved by exactly what was sent.
func (c *checker) checkAVAX(ctx context.Context, a *avaxSender) {
	var bad error
	for _, id := range a.txs {
		st, err := a.status(ctx, id)
		if err == nil && st != a.accepted {
			err = fmt.Errorf("%w: status %q, want %q", errMismatch, st, a.accepted)
		}
		if err != nil {
			bad = fmt.Errorf("tx %s: %w", id, err)
			break
		}
	}
	c.expect(fmt.Sprintf("%s: all %d accepted txs are %s", a.s.chain, len(a.txs), a.accepted), bad)
	got, err := a.balance(ctx)
	want := a.startBalance + uint64(len(a.txs))*a.amount
	if err == nil && got != want {
		err = fmt.Errorf("%w: balance of %s %d, want %d", errMismatch, a.to, got, want)
	}
	c.expect(a.s.chain+": recipient balance = start + sent", err)
}

// checkIndexEVM checks that an EVM chain's block index ends at its last accepted block: the
// same ID (the block hash), at position height − 1 (genesis is never indexed, §5.2).
func (c *checker) checkIndexEVM(ctx context.Context, w *wallet.Client, alias, name string, ec *ethclient.Client) {
	what := name + ": index last container = last accepted block"
	h, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		c.expect(what, err)
		return
	}
	ct, err := lastAccepted(ctx, w, alias)
	if h.Number.Sign() == 0 {
		if isNoContainers(err) {
			err = nil
		} else if err == nil {
			err = fmt.Errorf("%w: chain at genesis, index has %s", errMismatch, ct.ID)
		}
		c.expect(what, err)
		return
	}
	if err == nil {
		if want := ids.ID(h.Hash()).String(); ct.ID != want || ct.Index != h.Number.Uint64()-1 {
			err = fmt.Errorf("%w: index %d is %s, last accepted block %d is %s", errMismatch, ct.Index, ct.ID, h.Number, want)
		}
	}
	c.expect(what, err)
}

// checkIndexAVAX does the same for the X- or P-Chain, whose blocks are compared byte for byte
// (getBlockByHeight of the last height against the index's bytes, both hex with checksum).
func (c *checker) checkIndexAVAX(ctx context.Context, w *wallet.Client, alias, service string) {
	what := alias + ": index last container = last accepted block"
	path := "/ext/bc/" + alias
	var h struct {
		Height uint64 `json:"height,string"`
	}
	if err := w.Call(ctx, path, service+".getHeight", nil, &h); err != nil {
		c.expect(what, err)
		return
	}
	ct, err := lastAccepted(ctx, w, alias)
	if h.Height == 0 {
		if isNoContainers(err) {
			err = nil
		} else if err == nil {
			err = fmt.Errorf("%w: chain at genesis, index has %s", errMismatch, ct.ID)
		}
		c.expect(what, err)
		return
	}
	if err != nil {
		c.expect(what, err)
		return
	}
	var b struct {
		Block string `json:"block"`
	}
	err = w.Call(ctx, path, service+".getBlockByHeight", map[string]any{"height": fmt.Sprint(h.Height), "encoding": "hex"}, &b)
	if err == nil && (b.Block != ct.Bytes || ct.Index != h.Height-1) {
		err = fmt.Errorf("%w: index %d (%s) is not block %d", errMismatch, ct.Index, ct.ID, h.Height)
	}
	c.expect(what, err)
}
