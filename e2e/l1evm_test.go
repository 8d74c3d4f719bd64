package e2e_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// The L1 EVM suite (issue #6 §7): real nodes on port 0, L1s made with `cornice l1 create` from
// testdata/l1/genesis.json, used through ethclient and raw JSON-RPC. The fixture's genesis is at
// 1700000000, after the local network's Durango, Etna and Granite (1607144400), so managers and
// warp may be active at genesis. Every precompile is enabled at 1700000000 with the same roles:
// admin, manager and enabled are the keys of those names; in the transaction allow list the key
// "none" is enabled too, so that it can send transactions while having no role anywhere else;
// "outsider" has no role at all. All five hold 1000 coins; 0x…bbbb holds a contract that loops
// until it runs out of gas; 0x…1111 gets 1000 wei from the minter's initialMint. Each test runs
// its own node, so they run in parallel.

const (
	// l1Fixtures holds the genesis and the expected results of the suite.
	l1Fixtures = "testdata/l1"
	// l1FixtureChainID is the chain ID in testdata/l1/genesis.json.
	l1FixtureChainID = 77701
	// l1FixtureTime is the genesis timestamp and every genesis precompile's activation time.
	l1FixtureTime = 1_700_000_000
	// l1GasFeeCap and l1GasTip are what every transaction of the suite offers.
	l1GasFeeCap = 500_000_000_000
	l1GasTip    = 1_000_000_000
	// l1MinBaseFee is the fixture's minBaseFee.
	l1MinBaseFee = 25_000_000_000
)

var (
	// l1Burner loops until it runs out of gas: a transaction to it uses its whole gas limit.
	l1Burner = common.HexToAddress("0x000000000000000000000000000000000000bbbb")
	// l1MintedAtGenesis gets the minter's initialMint of 1000 wei.
	l1MintedAtGenesis = common.HexToAddress("0x0000000000000000000000000000000000001111")
	// l1Blackhole is the coinbase while rewards are disabled (l1-evm.md §3.9).
	l1Blackhole = common.HexToAddress("0x0100000000000000000000000000000000000000")
	l1Coin      = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
)

// l1Key returns the fixture key of that name: admin, manager, enabled, none or outsider.
func l1Key(t testing.TB, name string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte("cornice-l1evm-" + name)))
	require.NoError(t, err)
	return k
}

func l1Addr(t testing.TB, name string) common.Address {
	t.Helper()
	return crypto.PubkeyToAddress(l1Key(t, name).PublicKey)
}

// l1Fixture returns testdata/l1/<name>, without a trailing newline.
func l1Fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(l1Fixtures, name))
	require.NoError(t, err)
	return strings.TrimSuffix(string(b), "\n")
}

// l1FixtureGenesis returns the fixture genesis, with chain ID chainID instead of the fixture's
// when chainID is not 0 (one node takes one L1 per genesis: the same bytes reuse the chain).
func l1FixtureGenesis(t testing.TB, chainID int) []byte {
	t.Helper()
	b := []byte(l1Fixture(t, "genesis.json"))
	if chainID != 0 {
		b = bytes.Replace(b, []byte(`"chainId": 77701`), []byte(fmt.Sprintf(`"chainId": %d`, chainID)), 1)
	}
	return b
}

// l1Node is a node as `cornice run` builds it, in a data directory that outlives restarts.
type l1Node struct {
	t      testing.TB
	dir    string
	modify func(*config.Config)
	xn     *xNode
	chains []*l1Chain
}

// l1Chain is one L1 on an l1Node, with clients on its RPC URL.
type l1Chain struct {
	node         *l1Node
	blockchainID string
	url          string
	rc           *rpc.Client
	eth          *ethclient.Client
	chainID      *big.Int
}

// startL1Node starts a node in a fresh data directory; modify changes its config.
func startL1Node(t testing.TB, modify func(*config.Config)) *l1Node {
	t.Helper()
	if modify == nil {
		modify = func(*config.Config) {}
	}
	n := &l1Node{t: t, dir: t.TempDir(), modify: modify}
	n.xn = startXNodeWith(t, n.dir, modify)
	// Runs before the node's own cleanup: the clients go first.
	t.Cleanup(n.closeClients)
	return n
}

// createL1 runs `cornice l1 create` with genesis on the node and dials the new chain.
func (n *l1Node) createL1(genesis []byte) *l1Chain {
	n.t.Helper()
	file := filepath.Join(n.t.TempDir(), "genesis.json")
	require.NoError(n.t, os.WriteFile(file, genesis, 0o600))
	code, stdout, stderr := runCLI(n.t, "l1", "create", "--genesis", file, "--node-uri", n.xn.base)
	require.Equal(n.t, 0, code, stderr)
	m := l1Out.FindStringSubmatch(stdout)
	require.NotNil(n.t, m, stdout)
	require.Equal(n.t, "created", m[6])
	require.Equal(n.t, n.xn.base+"/ext/bc/"+m[1]+"/rpc", m[3])
	c := &l1Chain{node: n, blockchainID: m[1]}
	c.dial()
	n.chains = append(n.chains, c)
	return c
}

// dial connects to the chain at the node's current address (a restarted node has a new port).
func (c *l1Chain) dial() {
	t := c.node.t
	t.Helper()
	c.url = c.node.xn.base + "/ext/bc/" + c.blockchainID + "/rpc"
	c.connect(t, c.node.xn.hc)
}

// connect makes the chain's clients to c.url with hc.
func (c *l1Chain) connect(t testing.TB, hc *http.Client) {
	t.Helper()
	var err error
	c.rc, err = rpc.DialOptions(t.Context(), c.url, rpc.WithHTTPClient(hc))
	require.NoError(t, err)
	c.eth = ethclient.NewClient(c.rc)
	c.chainID, err = c.eth.ChainID(t.Context())
	require.NoError(t, err)
}

func (n *l1Node) closeClients() {
	for _, c := range n.chains {
		c.rc.Close()
	}
}

// restart stops the node and starts it again on the same data directory, then dials its
// chains again.
func (n *l1Node) restart() {
	n.t.Helper()
	n.closeClients()
	n.xn.stop()
	n.xn = startXNodeWith(n.t, n.dir, n.modify)
	for _, c := range n.chains {
		c.dial()
	}
}

// raw posts one JSON-RPC request with the given params (JSON text) to the chain and returns the
// response body as sent, without its trailing newline.
func (c *l1Chain) raw(t testing.TB, method, params string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	_, b, err := jsonrpc.NewClient(c.url, c.node.xn.hc).Post(t.Context(), "", []byte(body))
	require.NoError(t, err)
	return strings.TrimSuffix(string(b), "\n")
}

// rawResult is the exact body of a successful response with result.
func rawResult(result string) string { return `{"jsonrpc":"2.0","id":1,"result":` + result + `}` }

// rawError is the exact body of an error response.
func rawError(code int, message string) string {
	msg, _ := json.Marshal(message)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"error":{"code":%d,"message":%s}}`, code, msg)
}

// sign signs a dynamic-fee transaction from key with the given nonce; to nil is a creation.
func (c *l1Chain) sign(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, data []byte, value *big.Int, gas uint64) *types.Transaction {
	t.Helper()
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.chainID), &types.DynamicFeeTx{
		ChainID:   c.chainID,
		Nonce:     nonce,
		GasTipCap: big.NewInt(l1GasTip),
		GasFeeCap: big.NewInt(l1GasFeeCap),
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	require.NoError(t, err)
	return tx
}

// nonce is key's next nonce: every transaction of the suite is mined before the next is signed,
// except where a test counts nonces itself.
func (c *l1Chain) nonce(t testing.TB, key *ecdsa.PrivateKey) uint64 {
	t.Helper()
	n, err := c.eth.NonceAt(t.Context(), crypto.PubkeyToAddress(key.PublicKey), nil)
	require.NoError(t, err)
	return n
}

// send sends a transaction from key and waits for its receipt.
func (c *l1Chain) send(t testing.TB, key *ecdsa.PrivateKey, to *common.Address, data []byte, value *big.Int, gas uint64) *types.Receipt {
	t.Helper()
	tx := c.sign(t, key, c.nonce(t, key), to, data, value, gas)
	require.NoError(t, c.eth.SendTransaction(t.Context(), tx))
	return c.receipt(t, tx.Hash())
}

// receipt waits for the receipt of the transaction hash.
func (c *l1Chain) receipt(t testing.TB, hash common.Hash) *types.Receipt {
	t.Helper()
	var r *types.Receipt
	require.Eventually(t, func() bool {
		var err error
		r, err = c.eth.TransactionReceipt(t.Context(), hash)
		return err == nil
	}, acceptWait, 5*time.Millisecond, "no receipt for %s", hash)
	return r
}

// transfer sends 1 wei from key to a fixed address and returns the receipt.
func (c *l1Chain) transfer(t testing.TB, key *ecdsa.PrivateKey) *types.Receipt {
	t.Helper()
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	r := c.send(t, key, &to, nil, big.NewInt(1), 21_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	return r
}

// call runs eth_call from from to to at the latest block.
func (c *l1Chain) call(t testing.TB, from common.Address, to *common.Address, data []byte) ([]byte, error) {
	t.Helper()
	return c.eth.CallContract(t.Context(), ethereum.CallMsg{From: from, To: to, Data: data}, nil)
}

// header returns the header of block number n.
func (c *l1Chain) header(t testing.TB, n *big.Int) *types.Header {
	t.Helper()
	h, err := c.eth.HeaderByNumber(t.Context(), n)
	require.NoError(t, err)
	return h
}

func (c *l1Chain) balance(t testing.TB, addr common.Address) *big.Int {
	t.Helper()
	return balanceOf(t, c.eth, addr)
}

// balanceOf returns addr's balance at the latest block of eth's chain.
func balanceOf(t testing.TB, eth *ethclient.Client, addr common.Address) *big.Int {
	t.Helper()
	b, err := eth.BalanceAt(t.Context(), addr, nil)
	require.NoError(t, err)
	return b
}

// headOf returns the number of the latest block of eth's chain.
func headOf(t testing.TB, eth *ethclient.Client) uint64 {
	t.Helper()
	n, err := eth.BlockNumber(t.Context())
	require.NoError(t, err)
	return n
}

// requireRPCError checks that err is a JSON-RPC error with the code and the exact message.
func requireRPCError(t testing.TB, err error, code int, message string) {
	t.Helper()
	require.Error(t, err)
	rerr, ok := errors.AsType[rpc.Error](err)
	require.True(t, ok, "%T %v", err, err)
	require.Equal(t, code, rerr.ErrorCode(), err.Error())
	require.Equal(t, message, err.Error())
}

// requireAllGasUsed checks a receipt of a transaction whose execution failed.
func requireAllGasUsed(t testing.TB, r *types.Receipt, gas uint64) {
	t.Helper()
	require.Equal(t, types.ReceiptStatusFailed, r.Status)
	require.Equal(t, gas, r.GasUsed, "a failed precompile call consumes all gas")
}

func pack(t testing.TB, a abi.ABI, method string, args ...any) []byte {
	t.Helper()
	b, err := a.Pack(method, args...)
	require.NoError(t, err)
	return b
}

func word(n uint64) []byte { return common.BigToHash(new(big.Int).SetUint64(n)).Bytes() }

// TestL1EVMFixtureKeys checks that the fixture's addresses are those of the suite's keys.
func TestL1EVMFixtureKeys(t *testing.T) {
	t.Parallel()
	g := l1Fixture(t, "genesis.json")
	for _, name := range []string{"admin", "manager", "enabled", "none", "outsider"} {
		require.Contains(t, g, strings.TrimPrefix(l1Addr(t, name).Hex(), "0x"), name)
	}
}

// TestL1EVMChainConfig pins eth_getChainConfig, eth_getActiveRulesAt,
// eth_getActivePrecompilesAt and eth_feeConfig for the fixture, byte for byte (l1-evm.md §1.2–
// §1.5, §4.6, §6; issue #6 §5: eip150Hash included, networkRules for avalancheRules).
func TestL1EVMChainConfig(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	require.Equal(t, int64(l1FixtureChainID), c.chainID.Int64())

	tests := []struct {
		name, method, params, want string
	}{
		{"chain config", "eth_getChainConfig", `[]`, rawResult(l1Fixture(t, "eth_getChainConfig.json"))},
		{"chain config, too many arguments", "eth_getChainConfig", `[1]`, rawError(-32602, "too many arguments, want at most 0")},
		{"rules after genesis", "eth_getActiveRulesAt", `[1750000000]`, rawResult(l1Fixture(t, "eth_getActiveRulesAt.json"))},
		{"rules at the head", "eth_getActiveRulesAt", `[]`, rawResult(l1Fixture(t, "eth_getActiveRulesAt.json"))},
		{"rules at null", "eth_getActiveRulesAt", `[null]`, rawResult(l1Fixture(t, "eth_getActiveRulesAt.json"))},
		{"rules before Durango", "eth_getActiveRulesAt", `[1600000000]`, rawResult(l1Fixture(t, "eth_getActiveRulesAt-1600000000.json"))},
		{"rules, hex timestamp", "eth_getActiveRulesAt", `["0x10"]`,
			rawError(-32602, "invalid argument 0: json: cannot unmarshal string into Go value of type uint64")},
		{"precompiles after genesis", "eth_getActivePrecompilesAt", `[1750000000]`, rawResult(l1Fixture(t, "eth_getActivePrecompilesAt.json"))},
		{"precompiles at the head", "eth_getActivePrecompilesAt", `[]`, rawResult(l1Fixture(t, "eth_getActivePrecompilesAt.json"))},
		{"precompiles before activation", "eth_getActivePrecompilesAt", `[1699999999]`, rawResult(`{}`)},
		{"fee config", "eth_feeConfig", `[]`, rawResult(`{"feeConfig":` + l1FeeConfigJSON(8_000_000, 2, l1MinBaseFee, 15_000_000, 36, 0, 1_000_000, 200_000) + `,"lastChangedAt":0}`)},
		{"fee config at genesis", "eth_feeConfig", `["0x0"]`, rawResult(`{"feeConfig":` + l1FeeConfigJSON(8_000_000, 2, l1MinBaseFee, 15_000_000, 36, 0, 1_000_000, 200_000) + `,"lastChangedAt":0}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, c.raw(t, tt.method, tt.params))
		})
	}

	t.Run("genesis state", func(t *testing.T) {
		t.Parallel()
		// Each enabled precompile has code 0x01 and nonce 1 (l1-evm.md §5.0); the alloc and
		// initialMint are in place.
		for _, addr := range []common.Address{l1params.DeployerAllowListAddress, l1params.NativeMinterAddress,
			l1params.TxAllowListAddress, l1params.FeeManagerAddress, l1params.RewardManagerAddress, l1params.WarpAddress} {
			code, err := c.eth.CodeAt(t.Context(), addr, nil)
			require.NoError(t, err)
			require.Equal(t, []byte{1}, code, addr.Hex())
			nonce, err := c.eth.NonceAt(t.Context(), addr, nil)
			require.NoError(t, err)
			require.Equal(t, uint64(1), nonce, addr.Hex())
		}
		require.Equal(t, big.NewInt(1000), c.balance(t, l1MintedAtGenesis))
		require.Equal(t, new(big.Int).Mul(big.NewInt(1000), l1Coin), c.balance(t, l1Addr(t, "outsider")))
		g := c.header(t, big.NewInt(0))
		require.Equal(t, uint64(l1FixtureTime), g.Time)
		require.Equal(t, big.NewInt(l1MinBaseFee), g.BaseFee)
		require.Equal(t, uint64(8_000_000), g.GasLimit)
	})
}

// l1FeeConfigJSON is a fee config as eth_feeConfig prints it: numbers, in the reference's order.
func l1FeeConfigJSON(gasLimit, targetBlockRate, minBaseFee, targetGas, denominator, minBlockGasCost, maxBlockGasCost, step uint64) string {
	return fmt.Sprintf(`{"gasLimit":%d,"targetBlockRate":%d,"minBaseFee":%d,"targetGas":%d,"baseFeeChangeDenominator":%d,"minBlockGasCost":%d,"maxBlockGasCost":%d,"blockGasCostStep":%d}`,
		gasLimit, targetBlockRate, minBaseFee, targetGas, denominator, minBlockGasCost, maxBlockGasCost, step)
}

// TestL1EVMAllowListRoles runs every allow-list function of the five allow-list precompiles as
// each role (l1-evm.md §5.1) through eth_call, then checks with transactions that a permitted
// change sticks and logs RoleSet and a refused one fails with all its gas used.
func TestL1EVMAllowListRoles(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	a := precompile.AllowListABI()
	admin, manager, enabled := l1Addr(t, "admin"), l1Addr(t, "manager"), l1Addr(t, "enabled")
	outsider := l1Addr(t, "outsider")
	fresh := common.HexToAddress("0x000000000000000000000000000000000000f00d")
	lists := []struct {
		name string
		addr common.Address
	}{
		{"deployer", l1params.DeployerAllowListAddress},
		{"minter", l1params.NativeMinterAddress},
		{"tx", l1params.TxAllowListAddress},
		{"fee manager", l1params.FeeManagerAddress},
		{"reward manager", l1params.RewardManagerAddress},
	}
	callers := []struct {
		role string
		addr common.Address
		has  precompile.Role
	}{
		{"admin", admin, precompile.RoleAdmin},
		{"manager", manager, precompile.RoleManager},
		{"enabled", enabled, precompile.RoleEnabled},
		{"none", outsider, precompile.RoleNone},
	}
	// The setters, on targets of known roles: which callers may make each change.
	setters := []struct {
		fn       string
		target   common.Address
		from, to precompile.Role
		allowed  []precompile.Role
	}{
		{"setAdmin", fresh, precompile.RoleNone, precompile.RoleAdmin, []precompile.Role{precompile.RoleAdmin}},
		{"setManager", fresh, precompile.RoleNone, precompile.RoleManager, []precompile.Role{precompile.RoleAdmin}},
		{"setEnabled", fresh, precompile.RoleNone, precompile.RoleEnabled, []precompile.Role{precompile.RoleAdmin, precompile.RoleManager}},
		{"setNone", fresh, precompile.RoleNone, precompile.RoleNone, []precompile.Role{precompile.RoleAdmin, precompile.RoleManager}},
		{"setNone", enabled, precompile.RoleEnabled, precompile.RoleNone, []precompile.Role{precompile.RoleAdmin, precompile.RoleManager}},
		{"setNone", admin, precompile.RoleAdmin, precompile.RoleNone, []precompile.Role{precompile.RoleAdmin}},
		{"setEnabled", manager, precompile.RoleManager, precompile.RoleEnabled, []precompile.Role{precompile.RoleAdmin}},
		{"setAdmin", enabled, precompile.RoleEnabled, precompile.RoleAdmin, []precompile.Role{precompile.RoleAdmin}},
	}
	// The matrix is read-only; the transactions below run after it.
	t.Run("matrix", func(t *testing.T) {
		for _, l := range lists {
			for _, caller := range callers {
				t.Run(l.name+"/"+caller.role, func(t *testing.T) {
					t.Parallel()
					// readAllowList: anyone, of anyone.
					out, err := c.call(t, caller.addr, &l.addr, pack(t, a, "readAllowList", caller.addr))
					require.NoError(t, err)
					require.Equal(t, word(uint64(caller.has)), out)
					out, err = c.call(t, caller.addr, &l.addr, pack(t, a, "readAllowList", manager))
					require.NoError(t, err)
					require.Equal(t, word(uint64(precompile.RoleManager)), out)

					for _, s := range setters {
						_, err := c.call(t, caller.addr, &l.addr, pack(t, a, s.fn, s.target))
						if slices.Contains(s.allowed, caller.has) {
							require.NoError(t, err, "%s(%s)", s.fn, s.target)
							continue
						}
						requireRPCError(t, err, -32000, fmt.Sprintf("cannot modify allow list: modify address: %s, from role: %s, to role: %s",
							caller.addr.Hex(), s.from, s.to))
					}
				})
			}
		}
	})

	t.Run("transactions", func(t *testing.T) {
		minter := l1params.NativeMinterAddress
		target1 := common.HexToAddress("0x000000000000000000000000000000000000f001")
		target2 := common.HexToAddress("0x000000000000000000000000000000000000f002")
		role := func(addr common.Address) []byte {
			out, err := c.call(t, outsider, &minter, pack(t, a, "readAllowList", addr))
			require.NoError(t, err)
			return out
		}

		// A manager enables an address: RoleSet(role, account, sender) with oldRole as data.
		r := c.send(t, l1Key(t, "manager"), &minter, pack(t, a, "setEnabled", target1), nil, 200_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		require.Equal(t, word(1), role(target1))
		require.Len(t, r.Logs, 1)
		log := r.Logs[0]
		require.Equal(t, minter, log.Address)
		require.Equal(t, []common.Hash{a.Events["RoleSet"].ID, common.BytesToHash(word(1)),
			common.BytesToHash(target1.Bytes()), common.BytesToHash(manager.Bytes())}, log.Topics)
		require.Equal(t, word(0), log.Data)

		// An enabled address may not: the call fails and consumes all gas.
		r = c.send(t, l1Key(t, "enabled"), &minter, pack(t, a, "setEnabled", target2), nil, 200_000)
		requireAllGasUsed(t, r, 200_000)
		require.Empty(t, r.Logs)
		require.Equal(t, word(0), role(target2))

		// The admin makes "none" a manager, which then may enable target2 but not make it admin.
		r = c.send(t, l1Key(t, "admin"), &minter, pack(t, a, "setManager", l1Addr(t, "none")), nil, 200_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		require.Equal(t, word(uint64(precompile.RoleManager)), role(l1Addr(t, "none")))
		r = c.send(t, l1Key(t, "none"), &minter, pack(t, a, "setAdmin", target2), nil, 200_000)
		requireAllGasUsed(t, r, 200_000)
		r = c.send(t, l1Key(t, "none"), &minter, pack(t, a, "setEnabled", target2), nil, 200_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		require.Equal(t, word(1), role(target2))

		// The admin demotes the manager: its next change is refused.
		r = c.send(t, l1Key(t, "admin"), &minter, pack(t, a, "setNone", manager), nil, 200_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		_, err := c.call(t, manager, &minter, pack(t, a, "setNone", target1))
		requireRPCError(t, err, -32000, fmt.Sprintf("cannot modify allow list: modify address: %s, from role: EnabledRole, to role: NoRole", manager.Hex()))
	})
}

// TestL1EVMTxAllowList checks the transaction allow list (l1-evm.md §5.3): a sender without a
// role is refused at eth_sendRawTransaction with the reference's text, eth_call is not checked,
// and a role given or taken away by a manager takes effect.
func TestL1EVMTxAllowList(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	a := precompile.AllowListABI()
	txList := l1params.TxAllowListAddress
	outsiderKey := l1Key(t, "outsider")
	outsider := l1Addr(t, "outsider")
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	refusal := "cannot issue transaction from non-allow listed address: " + outsider.Hex()

	tx := c.sign(t, outsiderKey, 0, &to, nil, big.NewInt(1), 21_000)
	requireRPCError(t, c.eth.SendTransaction(t.Context(), tx), -32000, refusal)
	b, err := tx.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, rawError(-32000, refusal), c.raw(t, "eth_sendRawTransaction", `["`+hexutil.Encode(b)+`"]`))

	// eth_call skips the check.
	_, err = c.call(t, outsider, &to, nil)
	require.NoError(t, err)

	// "none" is enabled in this list only: it may transact.
	c.transfer(t, l1Key(t, "none"))

	// A manager enables the outsider, then takes the role away.
	r := c.send(t, l1Key(t, "manager"), &txList, pack(t, a, "setEnabled", outsider), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	c.transfer(t, outsiderKey)
	r = c.send(t, l1Key(t, "manager"), &txList, pack(t, a, "setNone", outsider), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	tx = c.sign(t, outsiderKey, c.nonce(t, outsiderKey), &to, nil, big.NewInt(1), 21_000)
	requireRPCError(t, c.eth.SendTransaction(t.Context(), tx), -32000, refusal)
}

// Hand-assembled contracts. storage: set(uint256) stores at slot 0, get() returns it (the one
// e2e/js/check.mjs deploys). factory: any call CREATEs an empty contract and returns its
// address, 0 when the creation failed.
const (
	l1StorageRuntime = "60003560e01c806360fe47b114601e5780636d4ce63c14602657600080fd5b600435600055005b60005460005260206000f3"
	l1StorageInit    = "603280600b6000396000f3"
	l1FactoryRuntime = "600060006000f060005260206000f3"
	l1FactoryInit    = "600f80600b6000396000f3"
)

// TestL1EVMDeployerAllowList checks the deployer allow list (l1-evm.md §5.2): an address with a
// role deploys; one without is refused at the top level (status 0, all gas used) and in a
// nested CREATE, and eth_call reports the reference's text.
func TestL1EVMDeployerAllowList(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	storage := common.FromHex(l1StorageInit + l1StorageRuntime)
	none := l1Addr(t, "none")

	for _, name := range []string{"admin", "manager", "enabled"} {
		r := c.send(t, l1Key(t, name), nil, storage, nil, 300_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status, name)
		code, err := c.eth.CodeAt(t.Context(), r.ContractAddress, nil)
		require.NoError(t, err)
		require.Equal(t, common.FromHex(l1StorageRuntime), code, name)
	}

	r := c.send(t, l1Key(t, "none"), nil, storage, nil, 300_000)
	requireAllGasUsed(t, r, 300_000)
	code, err := c.eth.CodeAt(t.Context(), r.ContractAddress, nil)
	require.NoError(t, err)
	require.Empty(t, code)
	_, err = c.call(t, none, nil, storage)
	requireRPCError(t, err, -32000, "tx.origin "+none.Hex()+" is not authorized to deploy a contract")

	// Through a factory: the admin's call creates, "none"'s CREATE fails (address 0) while the
	// call itself succeeds.
	r = c.send(t, l1Key(t, "admin"), nil, common.FromHex(l1FactoryInit+l1FactoryRuntime), nil, 300_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	factory := r.ContractAddress
	out, err := c.call(t, l1Addr(t, "admin"), &factory, nil)
	require.NoError(t, err)
	require.Len(t, out, 32)
	require.NotEqual(t, common.Hash{}, common.BytesToHash(out))
	out, err = c.call(t, none, &factory, nil)
	require.NoError(t, err)
	require.Equal(t, make([]byte, 32), out, "a nested CREATE by a non-allowed tx.origin fails")
	r = c.send(t, l1Key(t, "none"), &factory, nil, nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	// The refused CREATE still bumped the factory's nonce (it starts at 1), as in the reference,
	// and left nothing at the address it would have made.
	nonce, err := c.eth.NonceAt(t.Context(), factory, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(2), nonce)
	code, err = c.eth.CodeAt(t.Context(), crypto.CreateAddress(factory, 1), nil)
	require.NoError(t, err)
	require.Empty(t, code)

	// Made an enabled deployer by the admin, "none" deploys.
	a := precompile.AllowListABI()
	deployer := l1params.DeployerAllowListAddress
	r = c.send(t, l1Key(t, "admin"), &deployer, pack(t, a, "setEnabled", none), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	r = c.send(t, l1Key(t, "none"), nil, storage, nil, 300_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
}

// TestL1EVMNativeMinter checks mintNativeCoin (l1-evm.md §5.4): initialMint at genesis; an
// enabled or manager address mints and NativeCoinMinted is logged; an address without a role is
// refused with all gas used and the reference's text.
func TestL1EVMNativeMinter(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	m := precompile.NativeMinterABI()
	minter := l1params.NativeMinterAddress
	to := common.HexToAddress("0x000000000000000000000000000000000000a11c")
	five := new(big.Int).Mul(big.NewInt(5), l1Coin)

	require.Equal(t, big.NewInt(1000), c.balance(t, l1MintedAtGenesis))
	r := c.send(t, l1Key(t, "enabled"), &minter, pack(t, m, "mintNativeCoin", to, five), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, five, c.balance(t, to))
	require.Len(t, r.Logs, 1)
	require.Equal(t, minter, r.Logs[0].Address)
	require.Equal(t, []common.Hash{m.Events["NativeCoinMinted"].ID, common.BytesToHash(l1Addr(t, "enabled").Bytes()),
		common.BytesToHash(to.Bytes())}, r.Logs[0].Topics)
	require.Equal(t, common.BigToHash(five).Bytes(), r.Logs[0].Data)

	r = c.send(t, l1Key(t, "manager"), &minter, pack(t, m, "mintNativeCoin", to, big.NewInt(7)), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	want := new(big.Int).Add(five, big.NewInt(7))
	require.Equal(t, want, c.balance(t, to))

	r = c.send(t, l1Key(t, "none"), &minter, pack(t, m, "mintNativeCoin", to, five), nil, 200_000)
	requireAllGasUsed(t, r, 200_000)
	require.Equal(t, want, c.balance(t, to))
	_, err := c.call(t, l1Addr(t, "none"), &minter, pack(t, m, "mintNativeCoin", to, five))
	requireRPCError(t, err, -32000, "non-enabled cannot mint: "+l1Addr(t, "none").Hex())
	_, err = c.call(t, l1Addr(t, "admin"), &minter, pack(t, m, "mintNativeCoin", to, five))
	require.NoError(t, err)
}

// TestL1EVMFeeManager checks setFeeConfig (l1-evm.md §3.4, §3.11, §5.5): the change made in
// block N shows in eth_feeConfig from N on with lastChangedAt N, applies to block N+1 (gas
// limit, minimum base fee), and a caller without a role is refused.
func TestL1EVMFeeManager(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	f := precompile.FeeManagerABI()
	fm := l1params.FeeManagerAddress
	oldConfig := l1FeeConfigJSON(8_000_000, 2, l1MinBaseFee, 15_000_000, 36, 0, 1_000_000, 200_000)
	newConfig := l1FeeConfigJSON(9_000_000, 3, 30_000_000_000, 18_000_000, 48, 0, 2_000_000, 100_000)
	u := func(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
	input := pack(t, f, "setFeeConfig", u(9_000_000), u(3), u(30_000_000_000), u(18_000_000), u(48), u(0), u(2_000_000), u(100_000))

	out, err := c.call(t, l1Addr(t, "outsider"), &fm, pack(t, f, "getFeeConfigLastChangedAt"))
	require.NoError(t, err)
	require.Equal(t, word(0), out)

	// Refused without a role.
	r := c.send(t, l1Key(t, "none"), &fm, input, nil, 400_000)
	requireAllGasUsed(t, r, 400_000)
	_, err = c.call(t, l1Addr(t, "none"), &fm, input)
	requireRPCError(t, err, -32000, "non-enabled cannot change fee config: "+l1Addr(t, "none").Hex())
	require.Equal(t, rawResult(`{"feeConfig":`+oldConfig+`,"lastChangedAt":0}`), c.raw(t, "eth_feeConfig", `[]`))

	// An invalid config is refused by the verification.
	bad := pack(t, f, "setFeeConfig", u(9_000_000), u(0), u(30_000_000_000), u(18_000_000), u(48), u(0), u(2_000_000), u(100_000))
	_, err = c.call(t, l1Addr(t, "enabled"), &fm, bad)
	requireRPCError(t, err, -32000, "cannot verify fee config: targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0")

	r = c.send(t, l1Key(t, "enabled"), &fm, input, nil, 400_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 1)
	require.Equal(t, f.Events["FeeConfigChanged"].ID, r.Logs[0].Topics[0])
	n := r.BlockNumber.Uint64()
	blockN := c.header(t, r.BlockNumber)
	require.Equal(t, uint64(8_000_000), blockN.GasLimit, "block N runs on the old config")
	require.Equal(t, big.NewInt(l1MinBaseFee), blockN.BaseFee)

	changed := rawResult(`{"feeConfig":` + newConfig + `,"lastChangedAt":` + fmt.Sprint(n) + `}`)
	require.Equal(t, changed, c.raw(t, "eth_feeConfig", `[]`))
	require.Equal(t, changed, c.raw(t, "eth_feeConfig", fmt.Sprintf(`["0x%x"]`, n)))
	require.Equal(t, rawResult(`{"feeConfig":`+oldConfig+`,"lastChangedAt":0}`), c.raw(t, "eth_feeConfig", fmt.Sprintf(`["0x%x"]`, n-1)))
	out, err = c.call(t, l1Addr(t, "outsider"), &fm, pack(t, f, "getFeeConfigLastChangedAt"))
	require.NoError(t, err)
	require.Equal(t, word(n), out)
	out, err = c.call(t, l1Addr(t, "outsider"), &fm, pack(t, f, "getFeeConfig"))
	require.NoError(t, err)
	require.Equal(t, input[4:], out)

	// Block N+1 runs on the new config: its gas limit, and the base fee raised to the new minimum.
	r = c.transfer(t, l1Key(t, "admin"))
	require.Equal(t, n+1, r.BlockNumber.Uint64())
	next := c.header(t, r.BlockNumber)
	require.Equal(t, uint64(9_000_000), next.GasLimit)
	require.Equal(t, big.NewInt(30_000_000_000), next.BaseFee)
	// eth_getChainConfig keeps the genesis fee config (l1-evm.md §4.6).
	require.Equal(t, rawResult(l1Fixture(t, "eth_getChainConfig.json")), c.raw(t, "eth_getChainConfig", `[]`))
}

// TestL1EVMRewardManager checks the reward manager (l1-evm.md §3.9, §5.6): the blackhole is the
// coinbase at first; setRewardAddress in block N makes the address the coinbase of block N+1
// on, which then gets that block's fees; disableRewards brings the blackhole back.
func TestL1EVMRewardManager(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	rm := precompile.RewardManagerABI()
	mgr := l1params.RewardManagerAddress
	reward := common.HexToAddress("0x000000000000000000000000000000000000face")
	outsider := l1Addr(t, "outsider")

	first := c.transfer(t, l1Key(t, "admin"))
	require.Equal(t, l1Blackhole, c.header(t, first.BlockNumber).Coinbase)
	out, err := c.call(t, outsider, &mgr, pack(t, rm, "currentRewardAddress"))
	require.NoError(t, err)
	require.Equal(t, common.BytesToHash(l1Blackhole.Bytes()).Bytes(), out)
	out, err = c.call(t, outsider, &mgr, pack(t, rm, "areFeeRecipientsAllowed"))
	require.NoError(t, err)
	require.Equal(t, word(0), out)

	r := c.send(t, l1Key(t, "none"), &mgr, pack(t, rm, "setRewardAddress", reward), nil, 200_000)
	requireAllGasUsed(t, r, 200_000)
	_, err = c.call(t, l1Addr(t, "none"), &mgr, pack(t, rm, "setRewardAddress", reward))
	requireRPCError(t, err, -32000, "non-enabled cannot call setRewardAddress: "+l1Addr(t, "none").Hex())
	_, err = c.call(t, l1Addr(t, "admin"), &mgr, pack(t, rm, "setRewardAddress", common.Address{}))
	requireRPCError(t, err, -32000, "reward address cannot be empty")

	r = c.send(t, l1Key(t, "enabled"), &mgr, pack(t, rm, "setRewardAddress", reward), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, l1Blackhole, c.header(t, r.BlockNumber).Coinbase, "block N's coinbase follows N-1's state")
	require.Len(t, r.Logs, 1)
	require.Equal(t, []common.Hash{rm.Events["RewardAddressChanged"].ID, common.BytesToHash(l1Addr(t, "enabled").Bytes()),
		common.BytesToHash(l1Blackhole.Bytes()), common.BytesToHash(reward.Bytes())}, r.Logs[0].Topics)
	out, err = c.call(t, outsider, &mgr, pack(t, rm, "currentRewardAddress"))
	require.NoError(t, err)
	require.Equal(t, common.BytesToHash(reward.Bytes()).Bytes(), out)

	next := c.transfer(t, l1Key(t, "admin"))
	require.Equal(t, reward, c.header(t, next.BlockNumber).Coinbase)
	fee := new(big.Int).Mul(new(big.Int).SetUint64(next.GasUsed), next.EffectiveGasPrice)
	require.Equal(t, fee, c.balance(t, reward), "the whole fee goes to the coinbase")
	next = c.transfer(t, l1Key(t, "admin"))
	require.Equal(t, reward, c.header(t, next.BlockNumber).Coinbase)

	r = c.send(t, l1Key(t, "manager"), &mgr, pack(t, rm, "disableRewards"), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	next = c.transfer(t, l1Key(t, "admin"))
	require.Equal(t, l1Blackhole, c.header(t, next.BlockNumber).Coinbase)
}

// TestL1EVMUpgrade disables the native minter and the transaction allow list with an
// upgrade.json a few seconds ahead (l1-evm.md §4.5, §5.0): the L1 is created, the node stopped,
// the file written into the chain's directory of --chain-config-dir and the node restarted.
// eth_getChainConfig shows the upgrade; eth_getActiveRulesAt and eth_getActivePrecompilesAt
// show both precompiles before and not after; once a block reaches the time, the minter's
// account is gone (minting does nothing) and the outsider may transact.
func TestL1EVMUpgrade(t *testing.T) {
	t.Parallel()
	cfgDir := filepath.Join(t.TempDir(), "chains")
	n := startL1Node(t, func(c *config.Config) { c.ChainConfigDir = cfgDir })
	c := n.createL1(l1FixtureGenesis(t, 0))
	c.transfer(t, l1Key(t, "admin"))
	n.closeClients()
	n.xn.stop()

	// The node's clock is real: the upgrade is 5 s ahead of now, far enough for the restart.
	at := uint64(clock.Real{}.Now().Unix()) + 5
	upgrade := fmt.Sprintf(`{"precompileUpgrades":[{"contractNativeMinterConfig":{"blockTimestamp":%d,"disable":true}},{"txAllowListConfig":{"blockTimestamp":%d,"disable":true}}]}`, at, at)
	require.NoError(t, os.MkdirAll(filepath.Join(cfgDir, c.blockchainID), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, c.blockchainID, "upgrade.json"), []byte(upgrade), 0o600))
	n.xn = startXNodeWith(t, n.dir, n.modify)
	c.dial()

	wantConfig := strings.TrimSuffix(l1Fixture(t, "eth_getChainConfig.json"), `"upgrades":{}}`) + `"upgrades":` + upgrade + `}`
	require.Equal(t, rawResult(wantConfig), c.raw(t, "eth_getChainConfig", `[]`))

	var before, after l1Rules
	require.NoError(t, c.rc.CallContext(t.Context(), &before, "eth_getActiveRulesAt", at-1))
	require.NoError(t, c.rc.CallContext(t.Context(), &after, "eth_getActiveRulesAt", at))
	all := []string{"contractDeployerAllowListConfig", "contractNativeMinterConfig", "feeManagerConfig",
		"rewardManagerConfig", "txAllowListConfig", "warpConfig"}
	remaining := []string{"contractDeployerAllowListConfig", "feeManagerConfig", "rewardManagerConfig", "warpConfig"}
	require.Equal(t, all, before.keys())
	require.Equal(t, remaining, after.keys())
	require.Equal(t, uint64(l1FixtureTime), after.Precompiles["feeManagerConfig"].Timestamp)
	var active map[string]json.RawMessage
	require.NoError(t, c.rc.CallContext(t.Context(), &active, "eth_getActivePrecompilesAt", at))
	require.Len(t, active, len(remaining))
	require.NotContains(t, active, "txAllowListConfig")

	// Before the upgrade: the outsider is refused, minting works, the minter has its code.
	m := precompile.NativeMinterABI()
	minter := l1params.NativeMinterAddress
	to := common.HexToAddress("0x000000000000000000000000000000000000a11c")
	outsiderKey := l1Key(t, "outsider")
	tx := c.sign(t, outsiderKey, 0, &to, nil, big.NewInt(1), 21_000)
	requireRPCError(t, c.eth.SendTransaction(t.Context(), tx), -32000,
		"cannot issue transaction from non-allow listed address: "+l1Addr(t, "outsider").Hex())
	r := c.send(t, l1Key(t, "enabled"), &minter, pack(t, m, "mintNativeCoin", to, big.NewInt(3)), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Less(t, c.header(t, r.BlockNumber).Time, at)
	require.Equal(t, big.NewInt(3), c.balance(t, to))

	// Blocks until one reaches the upgrade time.
	require.Eventually(t, func() bool {
		r := c.transfer(t, l1Key(t, "admin"))
		return c.header(t, r.BlockNumber).Time >= at
	}, 15*time.Second, 200*time.Millisecond)

	var head l1Rules
	require.NoError(t, c.rc.CallContext(t.Context(), &head, "eth_getActiveRulesAt"))
	require.Equal(t, remaining, head.keys())
	code, err := c.eth.CodeAt(t.Context(), minter, nil)
	require.NoError(t, err)
	require.Empty(t, code, "a disabled precompile's account is deleted")
	r = c.send(t, l1Key(t, "enabled"), &minter, pack(t, m, "mintNativeCoin", to, big.NewInt(3)), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status, "a call to an empty account")
	require.Empty(t, r.Logs)
	require.Equal(t, big.NewInt(3), c.balance(t, to), "nothing is minted once disabled")
	c.transfer(t, outsiderKey)
}

// l1Rules is the part of eth_getActiveRulesAt's result the upgrade test reads.
type l1Rules struct {
	Precompiles map[string]struct {
		Timestamp uint64 `json:"timestamp"`
	} `json:"precompiles"`
}

// keys returns the precompiles' keys, sorted.
func (r l1Rules) keys() []string {
	var ks []string
	for k := range r.Precompiles {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestL1EVMBaseFee loads the L1 with blocks that use nearly all their gas (l1-evm.md §3.6): once
// the 10-second window holds more than targetGas, each block's base fee rises; once the load
// has left the window, it falls back to minBaseFee. eth_feeHistory reports the same base fees.
// It takes the window's 10 s of wall time: the node's clock is real.
func TestL1EVMBaseFee(t *testing.T) {
	t.Parallel()
	c := startL1Node(t, nil).createL1(l1FixtureGenesis(t, 0))
	admin := l1Key(t, "admin")
	const heavy = 7_900_000 // one transaction fills a block of 8M
	const load = 5

	nonce := c.nonce(t, admin)
	var txs []*types.Transaction
	for i := range load {
		tx := c.sign(t, admin, nonce+uint64(i), &l1Burner, nil, nil, heavy)
		require.NoError(t, c.eth.SendTransaction(t.Context(), tx))
		txs = append(txs, tx)
	}
	var fees []*big.Int
	var first, last *big.Int
	for i, tx := range txs {
		r := c.receipt(t, tx.Hash())
		require.Equal(t, uint64(heavy), r.GasUsed, "the burner uses all gas")
		if i == 0 {
			first = r.BlockNumber
		}
		last = r.BlockNumber
	}
	for n := first.Int64(); n <= last.Int64(); n++ {
		fees = append(fees, c.header(t, big.NewInt(n)).BaseFee)
	}
	t.Logf("base fees under load: %v", fees)
	require.Equal(t, big.NewInt(l1MinBaseFee), fees[0], "the first loaded block starts from the minimum")
	peak := fees[len(fees)-1]
	require.Equal(t, 1, peak.Cmp(big.NewInt(l1MinBaseFee)), "the base fee rose under load: %v", fees)
	for i := 1; i < len(fees); i++ {
		require.GreaterOrEqual(t, fees[i].Cmp(fees[i-1]), 0, "the base fee does not fall under load: %v", fees)
	}

	var got struct {
		OldestBlock   string   `json:"oldestBlock"`
		BaseFeePerGas []string `json:"baseFeePerGas"`
	}
	require.NoError(t, c.rc.CallContext(t.Context(), &got, "eth_feeHistory", hexutil.EncodeUint64(uint64(len(fees))), hexutil.EncodeBig(last), []float64{}))
	require.Equal(t, hexutil.EncodeBig(first), got.OldestBlock)
	require.GreaterOrEqual(t, len(got.BaseFeePerGas), len(fees))
	for i, f := range fees {
		require.Equal(t, hexutil.EncodeBig(f), got.BaseFeePerGas[i], "eth_feeHistory base fee of block %d", first.Int64()+int64(i))
	}

	// Once the load has left the 10-second window, eth_baseFee (the base fee of a block built
	// now) drops below the peak; the next blocks fall back to the minimum.
	require.Eventually(t, func() bool {
		var fee hexutil.Big
		require.NoError(t, c.rc.CallContext(t.Context(), &fee, "eth_baseFee"))
		return fee.ToInt().Cmp(peak) < 0
	}, 30*time.Second, 100*time.Millisecond)
	r := c.transfer(t, admin)
	fell := c.header(t, r.BlockNumber).BaseFee
	require.Equal(t, -1, fell.Cmp(peak), "the base fee falls once the load has left the window")
	require.Eventually(t, func() bool {
		r := c.transfer(t, admin)
		return c.header(t, r.BlockNumber).BaseFee.Cmp(big.NewInt(l1MinBaseFee)) == 0
	}, acceptWait, 10*time.Millisecond)
}

// TestL1EVMTwoL1sAndRestart runs two L1s from the fixture (different chain IDs) in one node:
// each has its own state and precompile storage, and a restart keeps both.
func TestL1EVMTwoL1sAndRestart(t *testing.T) {
	t.Parallel()
	n := startL1Node(t, nil)
	a := n.createL1(l1FixtureGenesis(t, 77711))
	b := n.createL1(l1FixtureGenesis(t, 77712))
	require.NotEqual(t, a.blockchainID, b.blockchainID)
	require.Equal(t, int64(77711), a.chainID.Int64())
	require.Equal(t, int64(77712), b.chainID.Int64())

	al := precompile.AllowListABI()
	m := precompile.NativeMinterABI()
	f := precompile.FeeManagerABI()
	txList, minter, fm := l1params.TxAllowListAddress, l1params.NativeMinterAddress, l1params.FeeManagerAddress
	outsiderKey := l1Key(t, "outsider")
	outsider := l1Addr(t, "outsider")
	to := common.HexToAddress("0x000000000000000000000000000000000000a11c")
	refusal := "cannot issue transaction from non-allow listed address: " + outsider.Hex()

	// On A: the outsider is enabled and 7 coins are minted. On B: the fee config changes.
	r := a.send(t, l1Key(t, "admin"), &txList, pack(t, al, "setEnabled", outsider), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	a.transfer(t, outsiderKey)
	seven := new(big.Int).Mul(big.NewInt(7), l1Coin)
	r = a.send(t, l1Key(t, "enabled"), &minter, pack(t, m, "mintNativeCoin", to, seven), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	u := func(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
	r = b.send(t, l1Key(t, "admin"), &fm, pack(t, f, "setFeeConfig", u(8_000_000), u(2), u(40_000_000_000), u(15_000_000), u(36), u(0), u(1_000_000), u(200_000)), nil, 400_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	bChanged := r.BlockNumber.Uint64()

	check := func() {
		t.Helper()
		require.Equal(t, seven, a.balance(t, to))
		require.Zero(t, b.balance(t, to).Sign())
		tx := b.sign(t, outsiderKey, 0, &to, nil, big.NewInt(1), 21_000)
		requireRPCError(t, b.eth.SendTransaction(t.Context(), tx), -32000, refusal)
		require.Equal(t, rawResult(`{"feeConfig":`+l1FeeConfigJSON(8_000_000, 2, l1MinBaseFee, 15_000_000, 36, 0, 1_000_000, 200_000)+`,"lastChangedAt":0}`),
			a.raw(t, "eth_feeConfig", `[]`))
		require.Equal(t, rawResult(`{"feeConfig":`+l1FeeConfigJSON(8_000_000, 2, 40_000_000_000, 15_000_000, 36, 0, 1_000_000, 200_000)+
			`,"lastChangedAt":`+fmt.Sprint(bChanged)+`}`), b.raw(t, "eth_feeConfig", `[]`))
		wantA := strings.Replace(l1Fixture(t, "eth_getChainConfig.json"), `"chainId":77701`, `"chainId":77711`, 1)
		require.Equal(t, rawResult(wantA), a.raw(t, "eth_getChainConfig", `[]`))
	}
	check()
	headA, headB := headOf(t, a.eth), headOf(t, b.eth)

	n.restart()
	require.Equal(t, int64(77711), a.chainID.Int64())
	require.Equal(t, int64(77712), b.chainID.Int64())
	for _, x := range []struct {
		c    *l1Chain
		head uint64
	}{{a, headA}, {b, headB}} {
		got, err := x.c.eth.BlockNumber(t.Context())
		require.NoError(t, err)
		require.Equal(t, x.head, got)
	}
	check()
	// Both chains go on: the outsider still transacts on A, and B's blocks use the new minimum.
	a.transfer(t, outsiderKey)
	r = b.transfer(t, l1Key(t, "admin"))
	require.Equal(t, big.NewInt(40_000_000_000), b.header(t, r.BlockNumber).BaseFee)
}
