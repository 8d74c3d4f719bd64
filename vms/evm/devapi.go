package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/config"
)

// The developer methods (issue #16), with the names, parameters and answers of anvil 1.x:
// hardhatAPI's methods are served as anvil_* and hardhat_*, timeAPI's as anvil_* and evm_*,
// anvilAPI's as anvil_* only, evmMineAPI's as evm_mine; devEthAPI adds
// eth_sendUnsignedTransaction and lets eth_sendTransaction send from an impersonated account.
// They are registered only when Config.DevMethods is set; otherwise they answer "method not
// found".

// devServices returns the developer methods' services by namespace.
func (vm *VM) devServices() []struct {
	name string
	svc  any
} {
	return []struct {
		name string
		svc  any
	}{
		{"anvil", &hardhatAPI{vm: vm}},
		{"anvil", &timeAPI{vm: vm}},
		{"anvil", &anvilAPI{vm: vm}},
		{"hardhat", &hardhatAPI{vm: vm}},
		{"evm", &timeAPI{vm: vm}},
		{"evm", &evmMineAPI{vm: vm}},
		{"eth", &devEthAPI{vm: vm}},
	}
}

// devNum is a number as anvil takes one: a JSON number, or a string, hexadecimal after 0x or
// decimal, of at most 256 bits.
type devNum struct{ v uint256.Int }

func (n *devNum) UnmarshalJSON(b []byte) error {
	text := string(b)
	if s, err := jsonString(b); err == nil {
		text = s
	}
	var v big.Int
	ok := false
	if rest, hasPrefix := strings.CutPrefix(strings.ToLower(text), "0x"); hasPrefix {
		_, ok = v.SetString(rest, 16)
	} else {
		_, ok = v.SetString(text, 10)
	}
	switch {
	case !ok || v.Sign() < 0:
		return fmt.Errorf("invalid number %s", b)
	case v.BitLen() > 256:
		return fmt.Errorf("number %s is above 2^256-1", text)
	}
	n.v.SetFromBig(&v)
	return nil
}

// u64 returns n as a uint64, or an invalid-params error naming what it is.
func (n devNum) u64(what string) (uint64, error) {
	if !n.v.IsUint64() {
		return 0, invalidParams("%s %s is above 2^64-1", what, n.v.Dec())
	}
	return n.v.Uint64(), nil
}

func jsonString(b []byte) (string, error) {
	var s string
	err := json.Unmarshal(b, &s)
	return s, err
}

// devBytes is a hex string, with or without 0x, of an even number of digits.
type devBytes []byte

func (d *devBytes) UnmarshalJSON(b []byte) error {
	s, err := jsonString(b)
	if err != nil {
		return fmt.Errorf("invalid hex %s: not a string", b)
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if len(digits)%2 != 0 {
		return fmt.Errorf("invalid hex %q: odd number of digits", s)
	}
	out, err := hex.DecodeString(digits)
	if err != nil {
		return fmt.Errorf("invalid hex %q: %w", s, err)
	}
	*d = out
	return nil
}

// timestampError is anvil's answer for a block time before the last block's.
func devTimestampError(t uint64) error {
	return invalidParams("Timestamp error: %d is lower than previous block's timestamp", t)
}

// hardhatAPI holds the methods anvil serves under both anvil_* and hardhat_*.
type hardhatAPI struct{ vm *VM }

// Mine is anvil_mine/hardhat_mine: n blocks (default 1), interval seconds apart when given,
// built at once whatever the pool holds.
func (a *hardhatAPI) Mine(ctx context.Context, n, interval *devNum) error {
	count, every := uint64(1), uint64(0)
	var err error
	if n != nil {
		if count, err = n.u64("block count"); err != nil {
			return err
		}
	}
	if interval != nil {
		if every, err = interval.u64("interval"); err != nil {
			return err
		}
	}
	if count > math.MaxInt32 {
		return invalidParams("block count %d is too large", count)
	}
	var at uint64
	if every != 0 {
		at = max(a.vm.now(), a.vm.currentHead().Time())
	}
	return a.vm.dev.mine(ctx, int(count), at, every)
}

// SetBalance is anvil_setBalance/hardhat_setBalance.
func (a *hardhatAPI) SetBalance(ctx context.Context, addr common.Address, balance devNum) error {
	return a.vm.devEdit(ctx, "setBalance", []any{addr, (*hexutil.U256)(&balance.v)}, func(st *state.StateDB) error {
		st.SetBalance(addr, &balance.v, tracing.BalanceChangeUnspecified)
		return nil
	})
}

// SetCode is anvil_setCode/hardhat_setCode.
func (a *hardhatAPI) SetCode(ctx context.Context, addr common.Address, code devBytes) error {
	return a.vm.devEdit(ctx, "setCode", []any{addr, hexutil.Bytes(code)}, func(st *state.StateDB) error {
		st.SetCode(addr, code, tracing.CodeChangeUnspecified)
		return nil
	})
}

// SetNonce is anvil_setNonce/hardhat_setNonce.
func (a *hardhatAPI) SetNonce(ctx context.Context, addr common.Address, nonce devNum) error {
	n, err := nonce.u64("nonce")
	if err != nil {
		return err
	}
	return a.vm.devEdit(ctx, "setNonce", []any{addr, hexutil.Uint64(n)}, func(st *state.StateDB) error {
		st.SetNonce(addr, n, tracing.NonceChangeUnspecified)
		return nil
	})
}

// SetStorageAt is anvil_setStorageAt/hardhat_setStorageAt: true once set.
func (a *hardhatAPI) SetStorageAt(ctx context.Context, addr common.Address, slot devNum, value common.Hash) (bool, error) {
	key := common.Hash(slot.v.Bytes32())
	err := a.vm.devEdit(ctx, "setStorageAt", []any{addr, key, value}, func(st *state.StateDB) error {
		st.SetState(addr, key, value)
		return nil
	})
	return err == nil, err
}

// ImpersonateAccount is anvil_impersonateAccount/hardhat_impersonateAccount: eth_sendTransaction
// from addr needs no key until StopImpersonatingAccount.
func (a *hardhatAPI) ImpersonateAccount(addr common.Address) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.impersonated[addr] = true
}

// StopImpersonatingAccount is anvil_stopImpersonatingAccount/hardhat_stopImpersonatingAccount.
func (a *hardhatAPI) StopImpersonatingAccount(addr common.Address) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.impersonated, addr)
}

// AutoImpersonateAccount is anvil_autoImpersonateAccount/hardhat_autoImpersonateAccount: every
// account is impersonated while on.
func (a *hardhatAPI) AutoImpersonateAccount(on bool) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.auto = on
}

// DropTransaction is anvil_dropTransaction/hardhat_dropTransaction: the hash of the pooled
// transaction it removed, null when there was none.
func (a *hardhatAPI) DropTransaction(h common.Hash) *common.Hash {
	if a.vm.pool.get(h) == nil {
		return nil
	}
	a.vm.pool.remove(h)
	return &h
}

// DropAllTransactions is anvil_dropAllTransactions/hardhat_dropAllTransactions.
func (a *hardhatAPI) DropAllTransactions() { a.vm.pool.clear() }

// Reset is anvil_reset/hardhat_reset: the chain goes back to its genesis (blocks, state, pool,
// snapshots, impersonations, overrides). Forking is not supported: a fork URL or block number is
// refused.
func (a *hardhatAPI) Reset(ctx context.Context, opts *json.RawMessage) error {
	if opts != nil && !bytes.Equal(bytes.TrimSpace(*opts), []byte("null")) {
		var o struct {
			Forking *struct {
				JSONRPCURL  string          `json:"jsonRpcUrl"`
				BlockNumber json.RawMessage `json:"blockNumber"`
			} `json:"forking"`
		}
		if err := json.Unmarshal(*opts, &o); err != nil {
			return invalidParams("invalid reset options: %v", err)
		}
		// viem's reset() sends {"forking": {}} when given nothing: that is a plain reset.
		if f := o.Forking; f != nil && (f.JSONRPCURL != "" || (len(f.BlockNumber) > 0 && !bytes.Equal(f.BlockNumber, []byte("null")))) {
			return invalidParams("forking is not supported: anvil_reset resets the chain to its genesis")
		}
	}
	return a.vm.dev.do(ctx, a.vm.dev.reset)
}

// SetCoinbase is anvil_setCoinbase/hardhat_setCoinbase: the coinbase of the blocks built from now on.
func (a *hardhatAPI) SetCoinbase(addr common.Address) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.coinbase = &addr
}

// SetMinGasPrice is anvil_setMinGasPrice/hardhat_setMinGasPrice: as anvil, refused on a chain
// with EIP-1559, which every EVM chain here is.
func (a *hardhatAPI) SetMinGasPrice(devNum) error {
	return invalidParams("anvil_setMinGasPrice is not supported when EIP-1559 is active")
}

// SetNextBlockBaseFeePerGas is anvil_setNextBlockBaseFeePerGas/hardhat_setNextBlockBaseFeePerGas:
// the next block's base fee.
func (a *hardhatAPI) SetNextBlockBaseFeePerGas(fee devNum) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.baseFee = fee.v.ToBig()
}

// SetLoggingEnabled is anvil_setLoggingEnabled/hardhat_setLoggingEnabled: whether the chain logs
// the transactions it takes in and the state edits.
func (a *hardhatAPI) SetLoggingEnabled(on bool) { a.vm.dev.logging.Store(on) }

// GetAutomine is anvil_getAutomine/hardhat_getAutomine.
func (a *hardhatAPI) GetAutomine() bool {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.automine
}

// Metadata is anvil_metadata/hardhat_metadata, with anvil's fields.
func (a *hardhatAPI) Metadata() map[string]any {
	d := a.vm.dev
	head := a.vm.currentHead()
	snaps := make(map[string]any)
	d.mu.Lock()
	for id, s := range d.snapshots {
		snaps[hexutil.EncodeUint64(id)] = []any{s.block.NumberU64(), s.block.Hash()}
	}
	d.mu.Unlock()
	return map[string]any{
		"clientVersion":     config.Current(),
		"clientSemver":      config.Version,
		"chainId":           a.vm.chainCfg.ChainID.Uint64(),
		"instanceId":        d.instance,
		"latestBlockNumber": head.NumberU64(),
		"latestBlockHash":   head.Hash(),
		"forkedNetwork":     nil,
		"snapshots":         snaps,
	}
}

// DumpState is anvil_dumpState/hardhat_dumpState: the state as anvil's gzipped JSON (devdump.go).
func (a *hardhatAPI) DumpState(ctx context.Context, _ *bool) (hexutil.Bytes, error) {
	return a.vm.dumpState(ctx)
}

// LoadState is anvil_loadState/hardhat_loadState: merges a dump into the state; true once done.
func (a *hardhatAPI) LoadState(ctx context.Context, blob hexutil.Bytes) (bool, error) {
	if err := a.vm.loadState(ctx, blob); err != nil {
		return false, err
	}
	return true, nil
}

// timeAPI holds the methods anvil serves under both anvil_* and evm_*.
type timeAPI struct{ vm *VM }

// SetAutomine is evm_setAutomine/anvil_setAutomine; on stops interval mining.
func (a *timeAPI) SetAutomine(on bool) { a.vm.dev.setAutomine(on) }

// SetIntervalMining is evm_setIntervalMining/anvil_setIntervalMining: a block every secs
// seconds (automine goes off), 0 stops it.
func (a *timeAPI) SetIntervalMining(secs uint64) error {
	if secs > math.MaxInt32 {
		return invalidParams("interval %d is too large", secs)
	}
	a.vm.dev.setInterval(time.Duration(secs) * time.Second)
	return nil
}

// IncreaseTime is evm_increaseTime/anvil_increaseTime: block times move forward by secs; the
// answer is the total offset in seconds.
func (a *timeAPI) IncreaseTime(secs devNum) (int64, error) {
	n, err := secs.u64("seconds")
	if err != nil || n > math.MaxInt32 {
		return 0, invalidParams("seconds %s is too large", secs.v.Dec())
	}
	return a.vm.dev.offset.Add(int64(n)), nil
}

// SetNextBlockTimestamp is evm_setNextBlockTimestamp/anvil_setNextBlockTimestamp: the next
// block's time, not before the last block's.
func (a *timeAPI) SetNextBlockTimestamp(ts devNum) error {
	t, err := ts.u64("timestamp")
	if err != nil {
		return err
	}
	if t < a.vm.currentHead().Time() {
		return devTimestampError(t)
	}
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nextTime = t
	return nil
}

// SetBlockGasLimit is evm_setBlockGasLimit/anvil_setBlockGasLimit: the gas limit of the blocks
// built from now on; true once set.
func (a *timeAPI) SetBlockGasLimit(limit devNum) (bool, error) {
	n, err := limit.u64("gas limit")
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, invalidParams("gas limit must be above 0")
	}
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.gasLimit = n
	return true, nil
}

// Snapshot is evm_snapshot/anvil_snapshot: the ID of a snapshot of the chain.
func (a *timeAPI) Snapshot(ctx context.Context) (hexutil.Uint64, error) {
	var id uint64
	err := a.vm.dev.do(ctx, func(context.Context) error {
		id = a.vm.dev.snapshot()
		return nil
	})
	return hexutil.Uint64(id), err
}

// Revert is evm_revert/anvil_revert: the chain goes back to snapshot id, which is then gone with
// every later one; false for an unknown ID (another chain's, or one reverted already).
func (a *timeAPI) Revert(ctx context.Context, id devNum) (bool, error) {
	if !id.v.IsUint64() {
		return false, nil
	}
	var ok bool
	err := a.vm.dev.do(ctx, func(ctx context.Context) error {
		var err error
		ok, err = a.vm.dev.revert(ctx, id.v.Uint64())
		return err
	})
	return ok, err
}

// anvilAPI holds the methods anvil serves under anvil_* only.
type anvilAPI struct{ vm *VM }

// SetBlockTimestampInterval is anvil_setBlockTimestampInterval: each block's time is its
// parent's plus secs.
func (a *anvilAPI) SetBlockTimestampInterval(secs uint64) {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tsInterval = secs
}

// RemoveBlockTimestampInterval is anvil_removeBlockTimestampInterval: whether one was set.
func (a *anvilAPI) RemoveBlockTimestampInterval() bool {
	d := a.vm.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	had := d.tsInterval != 0
	d.tsInterval = 0
	return had
}

// NodeInfo is anvil_nodeInfo, with anvil's fields.
func (a *anvilAPI) NodeInfo() map[string]any {
	vm := a.vm
	head := vm.currentHead()
	return map[string]any{
		"currentBlockNumber":    hexutil.Uint64(head.NumberU64()),
		"currentBlockTimestamp": head.Time(),
		"currentBlockHash":      head.Hash(),
		"hardFork":              vm.chainCfg.LatestFork(head.Time()).String(),
		"transactionOrder":      "fees",
		"environment": map[string]any{
			"baseFee":  (*hexutil.Big)(vm.nextBaseFee(head)),
			"chainId":  vm.chainCfg.ChainID.Uint64(),
			"gasLimit": hexutil.Uint64(head.GasLimit()),
			"gasPrice": (*hexutil.Big)(new(big.Int).Add(vm.nextBaseFee(head), vm.suggestTip(head))),
		},
		"forkConfig": map[string]any{"forkUrl": nil, "forkBlockNumber": nil, "forkRetryBackoff": nil},
	}
}

// evmMineAPI is evm_mine.
type evmMineAPI struct{ vm *VM }

// Mine is evm_mine: one block, or opts.blocks, at opts' timestamp when given (a number alone is
// the timestamp); the answer is "0x0", as anvil's.
func (a *evmMineAPI) Mine(ctx context.Context, opts *json.RawMessage) (string, error) {
	var o struct {
		Timestamp *devNum `json:"timestamp"`
		Blocks    *devNum `json:"blocks"`
	}
	if opts != nil && !bytes.Equal(bytes.TrimSpace(*opts), []byte("null")) {
		var ts devNum
		if err := json.Unmarshal(*opts, &ts); err == nil {
			o.Timestamp = &ts
		} else if err := json.Unmarshal(*opts, &o); err != nil {
			return "", invalidParams("invalid mine options: %v", err)
		}
	}
	count := uint64(1)
	if o.Blocks != nil {
		var err error
		if count, err = o.Blocks.u64("block count"); err != nil {
			return "", err
		}
		if count > math.MaxInt32 {
			return "", invalidParams("block count %d is too large", count)
		}
	}
	var at uint64
	if o.Timestamp != nil {
		var err error
		if at, err = o.Timestamp.u64("timestamp"); err != nil {
			return "", err
		}
		if at < a.vm.currentHead().Time() {
			return "", devTimestampError(at)
		}
	}
	if err := a.vm.dev.mine(ctx, int(count), at, 0); err != nil {
		return "", err
	}
	return "0x0", nil
}

// devEthAPI is the eth namespace's part of the developer methods.
type devEthAPI struct{ vm *VM }

// SendTransaction is eth_sendTransaction: from an impersonated account it is sent without a
// signature; from any other it answers as before (the node holds no keys).
func (a *devEthAPI) SendTransaction(ctx context.Context, args txArgs) (common.Hash, error) {
	d := a.vm.dev
	d.mu.Lock()
	ok := d.auto || (args.From != nil && d.impersonated[*args.From])
	d.mu.Unlock()
	if !ok {
		return common.Hash{}, errUnknownAccount
	}
	return a.SendUnsignedTransaction(ctx, args)
}

// SendUnsignedTransaction is eth_sendUnsignedTransaction: args, filled as eth_fillTransaction
// does, sent from args.from without a signature.
func (a *devEthAPI) SendUnsignedTransaction(ctx context.Context, args txArgs) (common.Hash, error) {
	if args.From == nil {
		return common.Hash{}, invalidParams("from is required")
	}
	from := *args.From
	if err := (&ethAPI{vm: a.vm}).setDefaults(ctx, &args); err != nil {
		return common.Hash{}, err
	}
	tx, err := a.vm.dev.unsigned(args.toTx(), from)
	if err != nil {
		return common.Hash{}, err
	}
	if err := a.vm.sendAndLog(tx); err != nil {
		a.vm.dev.forgetSender(tx.Hash())
		return common.Hash{}, err
	}
	return tx.Hash(), nil
}

// devEdit runs a state edit on the engine goroutine (devState.edit).
func (vm *VM) devEdit(ctx context.Context, method string, params any, fn func(*state.StateDB) error) error {
	return vm.dev.do(ctx, func(context.Context) error { return vm.dev.edit(method, params, fn) })
}

// unsigned gives tx a stand-in signature that names from (so that two senders' otherwise equal
// transactions differ) and records from as its sender, in memory and on disk.
func (d *devState) unsigned(tx *types.Transaction, from common.Address) (*types.Transaction, error) {
	sig := make([]byte, 65)
	copy(sig[12:32], from[:])
	sig[63] = 1
	signer := d.vm.signer.(devSigner).Signer
	tx, err := tx.WithSignature(signer, sig)
	if err != nil {
		return nil, err
	}
	h := tx.Hash()
	if err := d.vm.kv.view.Put(devKey(devSenderPrefix, h[:]), from[:]); err != nil {
		return nil, fmt.Errorf("record sender of %s: %w", h, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.senders[h] = from
	return tx, nil
}

// forgetSender drops the recorded sender of a transaction that was not taken in.
func (d *devState) forgetSender(h common.Hash) {
	d.mu.Lock()
	delete(d.senders, h)
	d.mu.Unlock()
	if err := d.vm.kv.view.Delete(devKey(devSenderPrefix, h[:])); err != nil {
		d.vm.log.Warn("forget sender of a refused transaction", "tx", h, "err", err)
	}
}
