package evm_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// The L1 test chain (testdata/l1-genesis.json): chain ID 99999 on a local
// network, genesis at 1700000000 (after the local Durango, Etna and
// Granite), every precompile enabled at genesis with the same roles: the
// funded key is admin, l1Manager manager, l1Enabled enabled; l1None has no
// role except in the transaction allow list, where it is enabled;
// l1Outsider has none anywhere. All five hold 1000 coins.
const (
	l1GenesisTime = 1_700_000_000
	l1NetworkID   = 12345
)

var (
	l1ChainID    = big.NewInt(99999)
	l1Blockchain = ids.ID{'L', '1'}
	// feeRecipient is the node's fee recipient (Config.Coinbase).
	feeRecipient = common.HexToAddress("0x00000000000000000000000000000000000fee01")
	oneCoin      = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
)

// l1Key returns the test key named name ("manager", "enabled", "none",
// "outsider"); "admin" is the funded key.
func l1Key(t testing.TB, name string) *ecdsa.PrivateKey {
	t.Helper()
	if name == "admin" {
		return fundedKey(t)
	}
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte("cornice-l1-test-" + name)))
	require.NoError(t, err)
	return k
}

func l1Addr(t testing.TB, name string) common.Address {
	return crypto.PubkeyToAddress(l1Key(t, name).PublicKey)
}

func l1Genesis(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "l1-genesis.json"))
	require.NoError(t, err)
	return b
}

// l1Node is an L1 VM over a database in a directory, driven by hand as the
// acceptance pipeline drives it (build, verify, accept), on a fake clock,
// with its RPC handler served by an httptest server.
type l1Node struct {
	db  *storage.DB
	vm  *evm.VM
	clk *clock.Fake
	endpoint
}

// startL1 opens the L1 test chain in dir with the upgrade file upgrade (nil
// for none) on clk.
func startL1(t *testing.T, dir string, upgrade []byte, clk *clock.Fake) (*l1Node, error) {
	t.Helper()
	return startL1With(t, dir, upgrade, nil, nil, clk)
}

// startL1With is startL1 with the chain's config.json file (nil for
// none), logging to log (nil: the test's output); edits change the
// chain's context before the VM is made.
func startL1With(t testing.TB, dir string, upgrade, file []byte, log *slog.Logger, clk *clock.Fake, edits ...func(*chains.Context)) (*l1Node, error) {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	c := chains.Context{
		NetworkID: l1NetworkID,
		Chain:     chains.Chain{ID: l1Blockchain, Name: "l1"},
		Genesis:   l1Genesis(t),
		Upgrade:   upgrade,
		Config:    file,
		DB:        db.Prefixed(storage.PrefixEVM),
		Log:       log,
		Clock:     clk,
	}
	for _, edit := range edits {
		edit(&c)
	}
	vm, err := evm.NewL1(t.Context(), evm.Config{Coinbase: feeRecipient}, c)
	if err != nil {
		require.NoError(t, db.Close())
		return nil, err
	}
	return serveVM(t, db, vm, clk), nil
}

// serveVM serves vm's /rpc on a test server and returns the node the tests drive, stopped (the
// database closed too) at the end of the test.
func serveVM(t testing.TB, db *storage.DB, vm *evm.VM, clk *clock.Fake) *l1Node {
	t.Helper()
	handlers, err := vm.Handlers(t.Context())
	require.NoError(t, err)
	n := &l1Node{db: db, vm: vm, clk: clk, endpoint: serveRPC(t, handlers["/rpc"])}
	t.Cleanup(n.stop)
	return n
}

// l1Clock is a fake clock 10 s after the L1 test chain's genesis.
func l1Clock() *clock.Fake { return clock.NewFake(time.Unix(l1GenesisTime+10, 0)) }

// newL1 starts the L1 test chain in a new directory, at l1Clock.
func newL1(t *testing.T) *l1Node {
	t.Helper()
	n, _ := newRestartableL1(t, nil)
	return n
}

// newRestartableL1 starts the L1 test chain with upgrade in a new directory, at l1Clock, and
// returns it with a function that starts it again, with an upgrade, on the same directory and
// clock (the node before must be stopped).
func newRestartableL1(t *testing.T, upgrade []byte) (*l1Node, func(upgrade []byte) (*l1Node, error)) {
	t.Helper()
	dir, clk := t.TempDir(), l1Clock()
	n, err := startL1(t, dir, upgrade, clk)
	require.NoError(t, err)
	return n, func(upgrade []byte) (*l1Node, error) { return startL1(t, dir, upgrade, clk) }
}

func (n *l1Node) stop() {
	if n.vm == nil {
		return
	}
	n.close()
	_ = n.vm.Close()
	_ = n.db.Close()
	n.vm = nil
}

// build builds a block from the mempool and accepts it, as the pipeline
// does.
func (n *l1Node) build(t testing.TB) *types.Block {
	t.Helper()
	ctx := t.Context()
	blk, err := n.vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, blk.Verify(ctx))
	batch := n.db.NewBatch()
	require.NoError(t, blk.Accept(ctx, batch))
	require.NoError(t, batch.Commit())
	require.NoError(t, n.vm.Accepted(ctx, blk))
	return blk.(*evm.Block).Eth()
}

// send signs and sends a transaction from key (next pending nonce, 1 gwei
// tip, 1000 gwei fee cap).
func (n *l1Node) send(t testing.TB, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, gas uint64, data []byte) (*types.Transaction, error) {
	t.Helper()
	nonce, err := n.client.PendingNonceAt(t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	require.NoError(t, err)
	return n.sendNonce(t, key, nonce, big.NewInt(params1Gwei), to, value, gas, data)
}

const params1Gwei = 1_000_000_000

func (n *l1Node) sendNonce(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, tip *big.Int, to *common.Address, value *big.Int, gas uint64, data []byte) (*types.Transaction, error) {
	t.Helper()
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(l1ChainID), &types.DynamicFeeTx{
		ChainID: l1ChainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: big.NewInt(1000 * params1Gwei),
		Gas: gas, To: to, Value: value, Data: data,
	})
	return tx, n.client.SendTransaction(t.Context(), tx)
}

// mustSend sends a transaction that the mempool takes.
func (n *l1Node) mustSend(t testing.TB, key *ecdsa.PrivateKey, to *common.Address, gas uint64, data []byte) *types.Transaction {
	t.Helper()
	tx, err := n.send(t, key, to, nil, gas, data)
	require.NoError(t, err)
	return tx
}

// receipt returns the receipt of an accepted transaction.
func (n *l1Node) receipt(t testing.TB, tx *types.Transaction) *types.Receipt {
	t.Helper()
	r, err := n.client.TransactionReceipt(t.Context(), tx.Hash())
	require.NoError(t, err)
	return r
}

// call runs eth_call of data to to from from on the latest block.
func (n *l1Node) call(t *testing.T, from, to common.Address, data []byte) ([]byte, error) {
	t.Helper()
	return n.client.CallContract(t.Context(), ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
}

// raw calls method with params and returns the result's bytes as sent.
func (n *l1Node) raw(t *testing.T, method string, params ...any) (string, error) {
	t.Helper()
	var res json.RawMessage
	err := n.rpc.Call(&res, method, params...)
	return string(res), err
}

func pack(t testing.TB, a abi.ABI, name string, args ...any) []byte {
	t.Helper()
	b, err := a.Pack(name, args...)
	require.NoError(t, err)
	return b
}

func ptrAddr(a common.Address) *common.Address { return &a }

// TestL1Genesis checks the genesis block and state: the precompile
// accounts (nonce 1, code 0x01), the alloc overriding the native minter's
// initial mint, the header fields of l1-evm.md §4.1.
func TestL1Genesis(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	ctx := t.Context()
	g, err := n.client.BlockByNumber(ctx, big.NewInt(0))
	require.NoError(t, err)
	require.Equal(t, uint64(l1GenesisTime), g.Time())
	require.Equal(t, uint64(8_000_000), g.GasLimit())
	require.Equal(t, big.NewInt(25_000_000_000), g.BaseFee())
	require.NotNil(t, g.Header().ParentBeaconRoot)
	for _, m := range l1params.Modules() {
		code, err := n.client.CodeAt(ctx, m.Address, nil)
		require.NoError(t, err)
		require.Equal(t, []byte{1}, code, m.Key)
		nonce, err := n.client.NonceAt(ctx, m.Address, nil)
		require.NoError(t, err)
		require.Equal(t, uint64(1), nonce, m.Key)
	}
	// The alloc sets the balance after the initial mint of 1000 wei.
	bal, err := n.client.BalanceAt(ctx, l1Addr(t, "enabled"), nil)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Mul(big.NewInt(1000), oneCoin), bal)
	var hdr map[string]any
	require.NoError(t, n.rpc.Call(&hdr, "eth_getBlockByNumber", "0x0", false))
	require.Equal(t, "0x0", hdr["blockGasCost"])
	id, err := n.client.ChainID(ctx)
	require.NoError(t, err)
	require.Equal(t, l1ChainID, id)
}

// TestL1ExtraMethods pins the JSON of the four L1 methods on the test
// genesis (l1-evm.md §1.2–§1.5, §6), byte for byte, and their parameter
// handling.
func TestL1ExtraMethods(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	golden := func(m string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "l1-"+m+".json"))
		require.NoError(t, err)
		return string(b[:len(b)-1])
	}
	tests := []struct {
		name, method string
		params       []any
		want         string
	}{
		{"chain config", "eth_getChainConfig", nil, golden("eth_getChainConfig")},
		{"fee config of the head", "eth_feeConfig", nil, golden("eth_feeConfig")},
		{"fee config null", "eth_feeConfig", []any{nil}, golden("eth_feeConfig")},
		{"fee config accepted", "eth_feeConfig", []any{"accepted"}, golden("eth_feeConfig")},
		{"fee config by number", "eth_feeConfig", []any{"0x0"}, golden("eth_feeConfig")},
		{"precompiles at the head", "eth_getActivePrecompilesAt", nil, golden("eth_getActivePrecompilesAt")},
		{"precompiles at genesis time", "eth_getActivePrecompilesAt", []any{l1GenesisTime}, golden("eth_getActivePrecompilesAt")},
		{"precompiles before genesis", "eth_getActivePrecompilesAt", []any{l1GenesisTime - 1}, "{}"},
		{"rules at the head", "eth_getActiveRulesAt", nil, golden("eth_getActiveRulesAt")},
		{"rules before Durango", "eth_getActiveRulesAt", []any{1_600_000_000}, `{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,"IsByzantium":true,"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,"IsBerlin":true,"IsLondon":true,"IsMerge":true,"IsShanghai":false,"IsCancun":false,"IsPrague":false,"IsVerkle":false},"networkRules":{"IsSubnetEVM":true,"IsDurango":false,"IsEtna":false,"IsFortuna":false,"IsGranite":false,"IsHelicon":false},"precompiles":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := n.raw(t, tt.method, tt.params...)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}

	errTests := []struct {
		name, method string
		params       []any
		code         int
		want         string
	}{
		{"hex timestamp", "eth_getActivePrecompilesAt", []any{"0x10"}, -32602, "invalid argument 0: json: cannot unmarshal string into Go value of type uint64"},
		{"hex timestamp rules", "eth_getActiveRulesAt", []any{"0x10"}, -32602, "invalid argument 0: json: cannot unmarshal string into Go value of type uint64"},
		{"chain config argument", "eth_getChainConfig", []any{1}, -32602, "too many arguments, want at most 0"},
		{"fee config of an unfinalized block", "eth_feeConfig", []any{"0x5"}, -32000, "cannot query unfinalized data"},
		{"fee config of an unknown hash", "eth_feeConfig", []any{common.Hash{1}}, -32000, "header for hash not found"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := n.raw(t, tt.method, tt.params...)
			require.EqualError(t, err, tt.want)
			require.Equal(t, tt.code, rpcCode(t, err))
		})
	}
}

// TestL1MethodsOnCChain checks that the C-Chain has none of the L1 methods.
func TestL1MethodsOnCChain(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	var res json.RawMessage
	err := n.rpc.Call(&res, "eth_feeConfig")
	require.EqualError(t, err, "the method eth_feeConfig does not exist/is not available")
}

// TestL1AllowListRoles checks who may change roles in each allow list
// (l1-evm.md §5.1): an admin anything, a manager only between None and
// Enabled, the others nothing; readAllowList answers anyone.
func TestL1AllowListRoles(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	al := precompile.AllowListABI()
	target := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	lists := []struct {
		key  string
		addr common.Address
	}{
		{l1params.DeployerAllowListKey, l1params.DeployerAllowListAddress},
		{l1params.NativeMinterKey, l1params.NativeMinterAddress},
		{l1params.TxAllowListKey, l1params.TxAllowListAddress},
		{l1params.FeeManagerKey, l1params.FeeManagerAddress},
		{l1params.RewardManagerKey, l1params.RewardManagerAddress},
	}
	tests := []struct {
		caller, fn string
		wantErr    string // "" when allowed
	}{
		{"admin", "setEnabled", ""},
		{"admin", "setAdmin", ""},
		{"admin", "setManager", ""},
		{"manager", "setEnabled", ""},
		{"manager", "setAdmin", "from role: NoRole, to role: AdminRole"},
		{"manager", "setManager", "from role: NoRole, to role: ManagerRole"},
		{"enabled", "setEnabled", "from role: NoRole, to role: EnabledRole"},
		{"none", "setEnabled", "from role: NoRole, to role: EnabledRole"},
	}
	for _, l := range lists {
		for _, tt := range tests {
			t.Run(l.key+"/"+tt.caller+"/"+tt.fn, func(t *testing.T) {
				caller := l1Addr(t, tt.caller)
				_, err := n.call(t, caller, l.addr, pack(t, al, tt.fn, target))
				if tt.wantErr == "" {
					require.NoError(t, err)
					return
				}
				require.EqualError(t, err, "cannot modify allow list: modify address: "+caller.Hex()+", "+tt.wantErr)
			})
		}
		t.Run(l.key+"/readAllowList", func(t *testing.T) {
			for name, want := range map[string]int64{"admin": 2, "manager": 3, "enabled": 1, "outsider": 0} {
				out, err := n.call(t, l1Addr(t, "outsider"), l.addr, pack(t, al, "readAllowList", l1Addr(t, name)))
				require.NoError(t, err)
				require.Equal(t, common.BigToHash(big.NewInt(want)).Bytes(), out, name)
			}
		})
	}

	// A real change: the manager enables the outsider in the tx allow list,
	// who may then send.
	outsider := l1Key(t, "outsider")
	_, err := n.send(t, outsider, ptrAddr(target), big.NewInt(1), 21_000, nil)
	require.EqualError(t, err, "cannot issue transaction from non-allow listed address: "+l1Addr(t, "outsider").Hex())
	tx := n.mustSend(t, l1Key(t, "manager"), ptrAddr(l1params.TxAllowListAddress), 100_000, pack(t, al, "setEnabled", l1Addr(t, "outsider")))
	n.build(t)
	r := n.receipt(t, tx)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 1) // RoleSet
	require.Equal(t, l1params.TxAllowListAddress, r.Logs[0].Address)
	tx, err = n.send(t, outsider, ptrAddr(target), big.NewInt(1), 21_000, nil)
	require.NoError(t, err)
	n.build(t)
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, tx).Status)

	// A failed role change in a block consumes all its gas.
	tx = n.mustSend(t, l1Key(t, "enabled"), ptrAddr(l1params.TxAllowListAddress), 100_000, pack(t, al, "setAdmin", target))
	n.build(t)
	r = n.receipt(t, tx)
	require.Equal(t, types.ReceiptStatusFailed, r.Status)
	require.Equal(t, uint64(100_000), r.GasUsed)
}

// TestL1NativeMinter checks minting (l1-evm.md §5.4): enabled roles mint
// and the balance grows; others are refused.
func TestL1NativeMinter(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	ctx := t.Context()
	nm := precompile.NativeMinterABI()
	to := common.HexToAddress("0x00000000000000000000000000000000000000b1")
	amount := big.NewInt(123_456)
	for _, who := range []string{"admin", "manager", "enabled"} {
		_, err := n.call(t, l1Addr(t, who), l1params.NativeMinterAddress, pack(t, nm, "mintNativeCoin", to, amount))
		require.NoError(t, err, who)
	}
	none := l1Addr(t, "none")
	_, err := n.call(t, none, l1params.NativeMinterAddress, pack(t, nm, "mintNativeCoin", to, amount))
	require.EqualError(t, err, "non-enabled cannot mint: "+none.Hex())

	tx := n.mustSend(t, l1Key(t, "enabled"), ptrAddr(l1params.NativeMinterAddress), 100_000, pack(t, nm, "mintNativeCoin", to, amount))
	denied := n.mustSend(t, l1Key(t, "none"), ptrAddr(l1params.NativeMinterAddress), 100_000, pack(t, nm, "mintNativeCoin", to, amount))
	n.build(t)
	r := n.receipt(t, tx)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 1) // NativeCoinMinted
	require.Equal(t, types.ReceiptStatusFailed, n.receipt(t, denied).Status)
	bal, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Equal(t, amount, bal)
}

// feeCall packs setFeeConfig with f.
func feeCall(t *testing.T, f l1params.FeeConfig) []byte {
	t.Helper()
	return pack(t, precompile.FeeManagerABI(), "setFeeConfig", f.GasLimit, new(big.Int).SetUint64(f.TargetBlockRate), f.MinBaseFee,
		f.TargetGas, f.BaseFeeChangeDenominator, f.MinBlockGasCost, f.MaxBlockGasCost, f.BlockGasCostStep)
}

// TestL1FeeManager checks a fee config change through the fee manager
// (l1-evm.md §3.4, §3.11, §5.5): it shows in eth_feeConfig from the block
// that made it, with lastChangedAt, and applies from the next block (gas
// limit, base fee). Under load the base fee then rises over the low target,
// and falls back once the load is gone.
func TestL1FeeManager(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	ctx := t.Context()
	none := l1Addr(t, "none")
	cfg := l1params.DefaultFeeConfig()
	cfg.GasLimit = big.NewInt(9_000_000)
	cfg.MinBaseFee = big.NewInt(30_000_000_000)
	cfg.TargetGas = big.NewInt(50_000)
	cfg.BaseFeeChangeDenominator = big.NewInt(10)
	_, err := n.call(t, none, l1params.FeeManagerAddress, feeCall(t, cfg))
	require.EqualError(t, err, "non-enabled cannot change fee config: "+none.Hex())
	for _, who := range []string{"admin", "manager", "enabled"} {
		_, err := n.call(t, l1Addr(t, who), l1params.FeeManagerAddress, feeCall(t, cfg))
		require.NoError(t, err, who)
	}
	bad := cfg.Copy()
	bad.TargetGas = big.NewInt(0)
	_, err = n.call(t, l1Addr(t, "admin"), l1params.FeeManagerAddress, feeCall(t, bad))
	require.EqualError(t, err, "cannot verify fee config: targetGas cannot be less than or equal to 0: targetGas = 0")

	tx := n.mustSend(t, fundedKey(t), ptrAddr(l1params.FeeManagerAddress), 300_000, feeCall(t, cfg))
	b1 := n.build(t)
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, tx).Status)
	require.Equal(t, uint64(8_000_000), b1.GasLimit())

	var before, after l1params.FeeConfigResult
	require.NoError(t, n.rpc.Call(&before, "eth_feeConfig", "0x0"))
	require.True(t, before.FeeConfig.Equal(&[]l1params.FeeConfig{l1params.DefaultFeeConfig()}[0]))
	require.Equal(t, big.NewInt(0), before.LastChangedAt)
	require.NoError(t, n.rpc.Call(&after, "eth_feeConfig"))
	require.True(t, after.FeeConfig.Equal(&cfg), "%+v", after.FeeConfig)
	require.Equal(t, big.NewInt(1), after.LastChangedAt)
	got, err := n.raw(t, "eth_feeConfig", "latest")
	require.NoError(t, err)
	require.Equal(t, `{"feeConfig":{"gasLimit":9000000,"targetBlockRate":2,"minBaseFee":30000000000,"targetGas":50000,"baseFeeChangeDenominator":10,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},"lastChangedAt":1}`, got)
	// The precompile's own view agrees.
	out, err := n.call(t, none, l1params.FeeManagerAddress, pack(t, precompile.FeeManagerABI(), "getFeeConfigLastChangedAt"))
	require.NoError(t, err)
	require.Equal(t, common.BigToHash(big.NewInt(1)).Bytes(), out)

	// Block 2 follows the new config: its gas limit, and its base fee
	// (this window holds block 1's gas, far over the target of 50,000).
	to := common.HexToAddress("0x00000000000000000000000000000000000000c1")
	key := l1Key(t, "enabled")
	for range 5 {
		_, err := n.send(t, key, &to, big.NewInt(1), 21_000, nil)
		require.NoError(t, err)
	}
	b2 := n.build(t)
	require.Equal(t, uint64(9_000_000), b2.GasLimit())
	require.Len(t, b2.Transactions(), 5)
	require.Equal(t, 1, b2.BaseFee().Cmp(b1.BaseFee()), "base fee %s after %s", b2.BaseFee(), b1.BaseFee())
	// Under load (105,000 gas a block against 50,000 over 10 s) it keeps
	// rising.
	fees := []*big.Int{b2.BaseFee()}
	for range 3 {
		n.clk.Advance(time.Second)
		for range 5 {
			_, err := n.send(t, key, &to, big.NewInt(1), 21_000, nil)
			require.NoError(t, err)
		}
		blk := n.build(t)
		require.Equal(t, 1, blk.BaseFee().Cmp(fees[len(fees)-1]))
		fees = append(fees, blk.BaseFee())
	}
	// Without load, 30 s later, it falls back toward the minimum.
	n.clk.Advance(30 * time.Second)
	_, err = n.send(t, key, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, err)
	low := n.build(t)
	require.Equal(t, -1, low.BaseFee().Cmp(fees[len(fees)-1]))
	require.GreaterOrEqual(t, low.BaseFee().Cmp(cfg.MinBaseFee), 0)
	base, err := n.client.SuggestGasPrice(ctx)
	require.NoError(t, err)
	require.Positive(t, base.Sign())
}

// TestL1RewardManager checks the coinbase rule (l1-evm.md §3.9, §5.6):
// the blackhole by default; the reward address once set; the node's fee
// recipient once fee recipients are allowed; the blackhole again once
// rewards are disabled. Each change applies from the next block.
func TestL1RewardManager(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	rm := precompile.RewardManagerABI()
	reward := common.HexToAddress("0x00000000000000000000000000000000000000d1")
	none := l1Addr(t, "none")
	_, err := n.call(t, none, l1params.RewardManagerAddress, pack(t, rm, "setRewardAddress", reward))
	require.EqualError(t, err, "non-enabled cannot call setRewardAddress: "+none.Hex())
	for _, who := range []string{"admin", "manager", "enabled"} {
		_, err := n.call(t, l1Addr(t, who), l1params.RewardManagerAddress, pack(t, rm, "setRewardAddress", reward))
		require.NoError(t, err, who)
	}
	to := common.HexToAddress("0x00000000000000000000000000000000000000d2")
	steps := []struct {
		fn       string
		args     []any
		coinbase common.Address // of the block after
	}{
		{"setRewardAddress", []any{reward}, reward},
		{"allowFeeRecipients", nil, feeRecipient},
		{"disableRewards", nil, evm.BlackholeAddr},
	}
	key := fundedKey(t)
	tx := n.mustSend(t, key, &to, 21_000, nil)
	blk := n.build(t)
	require.Equal(t, evm.BlackholeAddr, blk.Coinbase())
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, tx).Status)
	for _, s := range steps {
		tx := n.mustSend(t, key, ptrAddr(l1params.RewardManagerAddress), 100_000, pack(t, rm, s.fn, s.args...))
		n.build(t)
		require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, tx).Status, s.fn)
		before, err := n.client.BalanceAt(t.Context(), s.coinbase, nil)
		require.NoError(t, err)
		tx = n.mustSend(t, key, &to, 21_000, nil)
		blk := n.build(t)
		require.Equal(t, s.coinbase, blk.Coinbase(), s.fn)
		r := n.receipt(t, tx)
		// The whole fee goes to the coinbase.
		after, err := n.client.BalanceAt(t.Context(), s.coinbase, nil)
		require.NoError(t, err)
		fee := new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed))
		require.Equal(t, new(big.Int).Add(before, fee), after, s.fn)
	}
}

// TestL1TxAllowList checks the transaction allow list (l1-evm.md §5.3):
// refused at admission with Subnet-EVM's text, not checked in eth_call and
// eth_estimateGas, and a pooled transaction whose sender lost its role is
// dropped from the block being built.
func TestL1TxAllowList(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	ctx := t.Context()
	outsider := l1Addr(t, "outsider")
	to := common.HexToAddress("0x00000000000000000000000000000000000000e1")
	_, err := n.send(t, l1Key(t, "outsider"), &to, big.NewInt(1), 21_000, nil)
	require.EqualError(t, err, "cannot issue transaction from non-allow listed address: "+outsider.Hex())
	require.Equal(t, -32000, rpcCode(t, err))
	_, err = n.call(t, outsider, to, nil)
	require.NoError(t, err)
	gas, err := n.client.EstimateGas(ctx, ethereum.CallMsg{From: outsider, To: &to, Value: big.NewInt(1)})
	require.NoError(t, err)
	require.Equal(t, uint64(21_000), gas)

	// none is enabled when its transfer enters the pool; the admin's
	// setNone, with a higher tip, runs first in the block, so the
	// transfer is dropped.
	noneKey := l1Key(t, "none")
	late, err := n.sendNonce(t, noneKey, 0, big.NewInt(params1Gwei), &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, err)
	setNone, err := n.sendNonce(t, fundedKey(t), 0, big.NewInt(10*params1Gwei), ptrAddr(l1params.TxAllowListAddress), nil, 100_000,
		pack(t, precompile.AllowListABI(), "setNone", l1Addr(t, "none")))
	require.NoError(t, err)
	blk := n.build(t)
	require.Len(t, blk.Transactions(), 1)
	require.Equal(t, setNone.Hash(), blk.Transactions()[0].Hash())
	_, err = n.client.TransactionReceipt(ctx, late.Hash())
	require.ErrorIs(t, err, ethereum.NotFound)
	_, pending, err := n.client.TransactionByHash(ctx, late.Hash())
	require.ErrorIs(t, err, ethereum.NotFound, "pending %v", pending)
}

// factoryInit is init code deploying factoryRuntime: runtime code that
// CREATEs an empty contract and returns its address (zero when the
// creation failed).
var (
	factoryRuntime = []byte{0x5f, 0x5f, 0x5f, 0xf0, 0x5f, 0x52, 0x60, 0x20, 0x5f, 0xf3}
	factoryInit    = append([]byte{0x60, byte(len(factoryRuntime)), 0x80, 0x60, 9, 0x5f, 0x39, 0x5f, 0xf3}, factoryRuntime...)
)

// TestL1DeployerAllowList checks the deployer allow list (l1-evm.md §5.2):
// a top-level creation by an origin without a role fails with all its gas
// (and Subnet-EVM's text in eth_call and eth_estimateGas); a nested CREATE
// through a factory follows tx.origin, not the factory.
func TestL1DeployerAllowList(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	ctx := t.Context()
	none, enabled := l1Addr(t, "none"), l1Addr(t, "enabled")

	want := "tx.origin " + none.Hex() + " is not authorized to deploy a contract"
	_, err := n.client.CallContract(ctx, ethereum.CallMsg{From: none, Data: factoryInit}, nil)
	require.EqualError(t, err, want)
	_, err = n.client.EstimateGas(ctx, ethereum.CallMsg{From: none, Data: factoryInit})
	require.EqualError(t, err, want)
	denied, err := n.send(t, l1Key(t, "none"), nil, nil, 200_000, factoryInit)
	require.NoError(t, err)
	deploy := n.mustSend(t, l1Key(t, "enabled"), nil, 200_000, factoryInit)
	n.build(t)
	r := n.receipt(t, denied)
	require.Equal(t, types.ReceiptStatusFailed, r.Status)
	require.Equal(t, uint64(200_000), r.GasUsed)
	r = n.receipt(t, deploy)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	factory := r.ContractAddress
	code, err := n.client.CodeAt(ctx, factory, nil)
	require.NoError(t, err)
	require.Equal(t, factoryRuntime, code)

	// Nested: the factory creates for an enabled origin, not for none.
	out, err := n.call(t, none, factory, nil)
	require.NoError(t, err)
	require.Equal(t, make([]byte, 32), out)
	out, err = n.call(t, enabled, factory, nil)
	require.NoError(t, err)
	require.Equal(t, common.LeftPadBytes(crypto.CreateAddress(factory, 1).Bytes(), 32), out)
	byNone := n.mustSend(t, l1Key(t, "none"), &factory, 200_000, nil)
	n.build(t)
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, byNone).Status)
	code, err = n.client.CodeAt(ctx, crypto.CreateAddress(factory, 1), nil)
	require.NoError(t, err)
	require.Empty(t, code)
	nonce, err := n.client.NonceAt(ctx, factory, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(2), nonce) // the failed CREATE still bumped it
}

// TestL1Warp checks getBlockchainID (l1-evm.md §5.7): the chain's own
// blockchain ID.
func TestL1Warp(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	out, err := n.call(t, l1Addr(t, "none"), l1params.WarpAddress, pack(t, precompile.WarpABI(), "getBlockchainID"))
	require.NoError(t, err)
	require.Equal(t, l1Blockchain[:], out)
}

// TestL1PrecompileUpgrades checks an upgrade file that disables the native
// minter at t1 and enables it again at t2 with other roles (l1-evm.md §4.5,
// §5.0): eth_getActiveRulesAt shows it before, not between, and with t2
// after; the disable wipes the account (code, nonce, storage); the
// re-enable starts from fresh storage.
func TestL1PrecompileUpgrades(t *testing.T) {
	t.Parallel()
	const t1, t2 = l1GenesisTime + 100, l1GenesisTime + 200
	none := l1Addr(t, "none")
	upgrade := []byte(`{"precompileUpgrades":[` +
		`{"contractNativeMinterConfig":{"blockTimestamp":1700000100,"disable":true}},` +
		`{"contractNativeMinterConfig":{"blockTimestamp":1700000200,"adminAddresses":["` + none.Hex() + `"]}}]}`)
	n, err := startL1(t, t.TempDir(), upgrade, l1Clock())
	require.NoError(t, err)
	ctx := t.Context()
	admin := l1Addr(t, "admin")
	adminSlot := common.BytesToHash(admin.Bytes())

	rules := func(ts *uint64) l1params.ActiveRules {
		var r l1params.ActiveRules
		if ts == nil {
			require.NoError(t, n.rpc.Call(&r, "eth_getActiveRulesAt"))
		} else {
			require.NoError(t, n.rpc.Call(&r, "eth_getActiveRulesAt", *ts))
		}
		return r
	}
	at := func(ts uint64) *uint64 { return &ts }
	require.Equal(t, l1params.PrecompileTimestamp{Timestamp: l1GenesisTime}, rules(nil).Precompiles[l1params.NativeMinterKey])
	require.Equal(t, l1params.PrecompileTimestamp{Timestamp: l1GenesisTime}, rules(at(t1 - 1)).Precompiles[l1params.NativeMinterKey])
	require.NotContains(t, rules(at(t1)).Precompiles, l1params.NativeMinterKey)
	require.Equal(t, l1params.PrecompileTimestamp{Timestamp: t2}, rules(at(t2)).Precompiles[l1params.NativeMinterKey])
	cfg, err := n.raw(t, "eth_getChainConfig")
	require.NoError(t, err)
	require.Contains(t, cfg, `"upgrades":{"precompileUpgrades":[{"contractNativeMinterConfig":{"blockTimestamp":1700000100,"disable":true}},`+
		`{"contractNativeMinterConfig":{"adminAddresses":["`+strings.ToLower(none.Hex())+`"],"blockTimestamp":1700000200}}]}}`)

	to := common.HexToAddress("0x00000000000000000000000000000000000000f1")
	key := fundedKey(t)
	n.mustSend(t, key, &to, 21_000, nil)
	n.build(t)
	role, err := n.client.StorageAt(ctx, l1params.NativeMinterAddress, adminSlot, nil)
	require.NoError(t, err)
	require.Equal(t, common.BigToHash(big.NewInt(2)).Bytes(), role)

	// At t1 the block starts by disabling the precompile: a mint is a plain
	// call to an empty account and does nothing.
	n.clk.Set(time.Unix(t1, 0))
	mint := n.mustSend(t, key, ptrAddr(l1params.NativeMinterAddress), 100_000,
		pack(t, precompile.NativeMinterABI(), "mintNativeCoin", to, big.NewInt(5)))
	n.build(t)
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, mint).Status)
	bal, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Zero(t, bal.Sign())
	require.NotContains(t, rules(nil).Precompiles, l1params.NativeMinterKey)
	code, err := n.client.CodeAt(ctx, l1params.NativeMinterAddress, nil)
	require.NoError(t, err)
	require.Empty(t, code)
	nonce, err := n.client.NonceAt(ctx, l1params.NativeMinterAddress, nil)
	require.NoError(t, err)
	require.Zero(t, nonce)
	role, err = n.client.StorageAt(ctx, l1params.NativeMinterAddress, adminSlot, nil)
	require.NoError(t, err)
	require.Equal(t, make([]byte, 32), role)
	var active map[string]json.RawMessage
	require.NoError(t, n.rpc.Call(&active, "eth_getActivePrecompilesAt"))
	require.NotContains(t, active, l1params.NativeMinterKey)

	// At t2 it is back, with only the new roles.
	n.clk.Set(time.Unix(t2, 0))
	n.mustSend(t, key, &to, 21_000, nil)
	n.build(t)
	require.Equal(t, l1params.PrecompileTimestamp{Timestamp: t2}, rules(nil).Precompiles[l1params.NativeMinterKey])
	code, err = n.client.CodeAt(ctx, l1params.NativeMinterAddress, nil)
	require.NoError(t, err)
	require.Equal(t, []byte{1}, code)
	al := precompile.AllowListABI()
	for name, want := range map[string]int64{"admin": 0, "none": 2} {
		out, err := n.call(t, none, l1params.NativeMinterAddress, pack(t, al, "readAllowList", l1Addr(t, name)))
		require.NoError(t, err)
		require.Equal(t, common.BigToHash(big.NewInt(want)).Bytes(), out, name)
	}
	_, err = n.call(t, admin, l1params.NativeMinterAddress, pack(t, precompile.NativeMinterABI(), "mintNativeCoin", to, big.NewInt(5)))
	require.EqualError(t, err, "non-enabled cannot mint: "+admin.Hex())
}

// TestL1Restart checks that a restart on the same database keeps the
// chain's state and config, accepts an upgrade file that changes only the
// future, and refuses one that changes the past (l1-evm.md §4.4, §4.5).
func TestL1Restart(t *testing.T) {
	t.Parallel()
	n, restart := newRestartableL1(t, nil)
	clk, ctx := n.clk, t.Context()
	cfg := l1params.DefaultFeeConfig()
	cfg.GasLimit = big.NewInt(10_000_000)
	n.mustSend(t, fundedKey(t), ptrAddr(l1params.FeeManagerAddress), 300_000, feeCall(t, cfg))
	n.build(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000f2")
	n.mustSend(t, fundedKey(t), &to, 21_000, nil)
	head := n.build(t)
	chainCfg, err := n.raw(t, "eth_getChainConfig")
	require.NoError(t, err)
	feeCfg, err := n.raw(t, "eth_feeConfig")
	require.NoError(t, err)
	n.stop()

	// The same config: everything is as it was, and the chain goes on.
	n, err = restart(nil)
	require.NoError(t, err)
	num, err := n.client.BlockNumber(ctx)
	require.NoError(t, err)
	require.Equal(t, head.NumberU64(), num)
	got, err := n.raw(t, "eth_getChainConfig")
	require.NoError(t, err)
	require.Equal(t, chainCfg, got)
	got, err = n.raw(t, "eth_feeConfig")
	require.NoError(t, err)
	require.Equal(t, feeCfg, got)
	require.Contains(t, feeCfg, `"gasLimit":10000000`)
	bal, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Zero(t, bal.Sign())
	clk.Advance(time.Second)
	tx := n.mustSend(t, fundedKey(t), &to, 21_000, nil)
	blk := n.build(t)
	require.Equal(t, uint64(10_000_000), blk.GasLimit())
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, tx).Status)
	n.stop()

	// An upgrade in the future is compatible.
	future := []byte(`{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1700001000,"disable":true}}]}`)
	n, err = restart(future)
	require.NoError(t, err)
	got, err = n.raw(t, "eth_getChainConfig")
	require.NoError(t, err)
	require.Contains(t, got, `"upgrades":{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1700001000,"disable":true}}]}`)
	n.stop()

	// One that would have applied before the head is not.
	past := []byte(`{"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1700000005,"disable":true}}]}`)
	_, err = restart(past)
	var compat *params.ConfigCompatError
	require.ErrorAs(t, err, &compat)
	require.ErrorContains(t, err, "cannot retroactively enable PrecompileUpgrade[1]")
	// Nor one that moves Granite, active at the head.
	moved := []byte(`{"networkUpgradeOverrides":{"graniteTimestamp":1700000005}}`)
	_, err = restart(moved)
	require.ErrorAs(t, err, &compat)
	require.ErrorContains(t, err, "Granite fork block timestamp")

	// The stored config is still the last one started with: the future
	// upgrade can go away before it applies.
	n, err = restart(nil)
	require.NoError(t, err)
	num, err = n.client.BlockNumber(ctx)
	require.NoError(t, err)
	require.Equal(t, head.NumberU64()+1, num)
}

// TestL1ChainFile checks the L1's config.json: feeRecipient is the
// coinbase once fee recipients are allowed, rpc-gas-cap caps eth_call,
// api-max-blocks-per-request caps eth_getLogs, unknown keys are logged
// once and ignored, and a malformed file keeps the chain from starting.
func TestL1ChainFile(t *testing.T) {
	t.Parallel()
	recipient := common.HexToAddress("0x00000000000000000000000000000000000fee02")
	file := []byte(`{"feeRecipient":"` + recipient.Hex() + `","rpc-gas-cap":100000,"api-max-blocks-per-request":1,"pruning-enabled":false,"log-level":"info"}`)
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	n, err := startL1With(t, t.TempDir(), nil, file, log, l1Clock())
	require.NoError(t, err)
	// Counted by message: storage may add warnings of its own (Pebble's low-disk-space one).
	require.Equal(t, 1, strings.Count(logs.String(), `level=WARN msg="ignoring unsupported keys of the chain's config.json" keys="[log-level pruning-enabled]"`), logs.String())

	// The reward manager lets block producers choose: the file's recipient.
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000d3")
	n.mustSend(t, key, ptrAddr(l1params.RewardManagerAddress), 100_000, pack(t, precompile.RewardManagerABI(), "allowFeeRecipients"))
	require.Equal(t, evm.BlackholeAddr, n.build(t).Coinbase())
	n.mustSend(t, key, &to, 21_000, nil)
	require.Equal(t, recipient, n.build(t).Coinbase())

	// GAS at the start of the call: the cap less the intrinsic 21,000 and
	// the 2 of GAS itself.
	var out hexutil.Bytes
	gasCode := common.FromHex("5a5f5260205ff3")
	require.NoError(t, n.rpc.Call(&out, "eth_call", map[string]any{"to": probeAddr}, "latest", codeAt(probeAddr, gasCode)))
	require.Equal(t, uint64(100_000-21_000-2), new(big.Int).SetBytes(out).Uint64())

	_, err = n.client.FilterLogs(t.Context(), ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: big.NewInt(1)})
	require.EqualError(t, err, "exceed maximum block range 1: blocks 0 to 1 are 2 blocks")
	_, err = n.client.FilterLogs(t.Context(), ethereum.FilterQuery{FromBlock: big.NewInt(1), ToBlock: big.NewInt(1)})
	require.NoError(t, err)

	tests := []struct {
		name, file, wantErr string
	}{
		{"malformed", `{"rpc-gas-cap":`, "unexpected end of JSON input"},
		{"wrong type", `{"rpc-gas-cap":"1"}`, "rpc-gas-cap: json: cannot unmarshal string into Go value of type uint64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := startL1With(t, t.TempDir(), nil, []byte(tt.file), nil, l1Clock())
			require.EqualError(t, err, "chain config file "+l1Blockchain.String()+"/config.json: "+tt.wantErr)
		})
	}
}
