package e2e_test

import (
	"bytes"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/wallet"
)

// cState is what TestCChainAtomic compares across a restart.
type cState struct {
	balance   string
	lastBlock index.Container
	status    map[string]any
}

func (xn *xNode) cState(addr common.Address, txID ids.ID) cState {
	xn.t.Helper()
	var s cState
	var bal hexutil.Big
	xn.call("/ext/bc/C/rpc", "eth_getBalance", []any{addr, "latest"}, &bal)
	s.balance = bal.String()
	xn.call("/ext/index/C/block", "index.getLastAccepted", map[string]string{"encoding": "hex"}, &s.lastBlock)
	xn.call("/ext/bc/C/avax", "avax.getAtomicTxStatus", map[string]ids.ID{"txID": txID}, &s.status)
	return s
}

// cAVAX is eth_getBalance of addr in nAVAX; the test's amounts leave no wei below a nAVAX.
func (xn *xNode) cAVAX(addr common.Address) uint64 {
	xn.t.Helper()
	var bal hexutil.Big
	xn.call("/ext/bc/C/rpc", "eth_getBalance", []any{addr, "latest"}, &bal)
	q, r := new(big.Int).DivMod(bal.ToInt(), big.NewInt(1e9), new(big.Int))
	require.Zero(xn.t, r.Sign(), "balance %s wei is not whole nAVAX", bal.ToInt())
	return q.Uint64()
}

// TestCChainAtomic moves AVAX X → C → X and C → P with `cornice transfer`, `cornice c export` and
// `cornice p import`: each half pays its chain's fee, the AVAX on X, P and C and in shared memory
// add up to the start less the fees, the block that carries an atomic tx is the C-Chain index's
// last, with the tx in its bytes, and all of it survives a restart; `cornice c import` with
// nothing exported and an export above the balance are refused.
func TestCChainAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xn := startXNode(t, dir)
	ewoq := localKey(t)
	x, p := xn.wallet(ewoq), xn.pWallet(ewoq)
	c, err := wallet.NewC(t.Context(), xn.client, ewoq, clock.Real{})
	require.NoError(t, err)
	pending := func() uint64 {
		var sum uint64
		for _, source := range []string{"P", "C"} {
			xu, err := x.AtomicUTXOs(t.Context(), source)
			sum += atomicAVAX(t, xu, err, xAmount)
		}
		pu, err := p.AtomicUTXOs(t.Context(), "C")
		sum += atomicAVAX(t, pu, err, pAmountOf)
		for _, source := range []string{"X", "P"} {
			cu, err := c.AtomicUTXOs(t.Context(), source)
			sum += atomicAVAX(t, cu, err, xAmount)
		}
		return sum
	}
	total := func() uint64 {
		return xn.xAVAX(x.Address()) + xn.pBalance(p.Address()) + xn.cAVAX(c.EthAddress()) + pending()
	}
	start := total()
	var fees uint64
	transfer := regexp.MustCompile(`(?m)^export txID: (\w+)\nexported: .* AVAX \((\d+) nAVAX\)\nexport fee: .* AVAX \((\d+) nAVAX\)\n` +
		`import txID: (\w+)\nimported: .* AVAX \((\d+) nAVAX\)\nimport fee: .* AVAX \((\d+) nAVAX\)\nstatus: Accepted\n$`)

	// X → C: the C balance gains what was exported less the import's fee.
	cBefore := xn.cAVAX(c.EthAddress())
	code, stdout, stderr := runCLI(t, "transfer", "--node-uri", xn.base, "--from", "X", "--to", "C", "--amount", "2AVAX")
	require.Zero(t, code, stderr)
	m := transfer.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, "2000000000", m[2])
	imported, importFee := mustUint(t, m[5]), mustUint(t, m[6])
	require.Equal(t, uint64(2_000_000_000), imported+importFee)
	require.NotZero(t, importFee)
	require.Equal(t, cBefore+imported, xn.cAVAX(c.EthAddress()))
	fees += mustUint(t, m[3]) + importFee
	require.Zero(t, pending())
	require.Equal(t, start-fees, total())

	// C → X, both halves; then C → P with `c export` and `p import`.
	xBefore := xn.xAVAX(x.Address())
	code, stdout, stderr = runCLI(t, "transfer", "--node-uri", xn.base, "--from", "C", "--to", "X", "--amount", "1AVAX")
	require.Zero(t, code, stderr)
	m = transfer.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, xBefore+mustUint(t, m[5]), xn.xAVAX(x.Address()))
	fees += mustUint(t, m[3]) + mustUint(t, m[6])
	require.Equal(t, start-fees, total())

	code, stdout, stderr = runCLI(t, "c", "export", "--node-uri", xn.base, "--to", "P", "--amount", "1000000000")
	require.Zero(t, code, stderr)
	m = regexp.MustCompile(`^txID: (\w+)\nexported: 1 AVAX \(1000000000 nAVAX\)\nfee: .* AVAX \((\d+) nAVAX\)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	txID, err := ids.FromString(m[1])
	require.NoError(t, err)
	fees += mustUint(t, m[2])
	require.Equal(t, uint64(1_000_000_000), pending())
	require.Equal(t, start-fees, total())

	// The export's block is the C-Chain index's last, with the tx in its bytes.
	ethAddr := c.EthAddress()
	s := xn.cState(ethAddr, txID)
	require.Equal(t, "Accepted", s.status["status"])
	var tx struct {
		Tx          string `json:"tx"`
		BlockHeight string `json:"blockHeight"`
	}
	xn.call("/ext/bc/C/avax", "avax.getAtomicTx", map[string]any{"txID": txID, "encoding": "hex"}, &tx)
	require.Equal(t, s.status["blockHeight"], tx.BlockHeight)
	signed, err := ids.Hex.Decode(tx.Tx)
	require.NoError(t, err)
	block, err := ids.Hex.Decode(s.lastBlock.Bytes)
	require.NoError(t, err)
	require.True(t, bytes.Contains(block, signed[2:]), "the index's last C-Chain block carries the tx")
	var head struct {
		Hash      common.Hash `json:"hash"`
		MixHash   common.Hash `json:"mixHash"`
		Number    hexutil.Uint64
		ExtraData hexutil.Bytes `json:"blockExtraData"`
	}
	xn.call("/ext/bc/C/rpc", "eth_getBlockByNumber", []any{"latest", false}, &head)
	require.Equal(t, ids.ID(head.Hash).String(), s.lastBlock.ID)
	require.Equal(t, crypto.Keccak256Hash(head.ExtraData), head.MixHash)
	require.Equal(t, tx.BlockHeight, strconv.FormatUint(uint64(head.Number), 10))

	// A restart keeps all of it, and the pending AVAX is still there to import.
	xn.stop()
	xn = startXNode(t, dir)
	require.Equal(t, s, xn.cState(ethAddr, txID))
	x, p = xn.wallet(ewoq), xn.pWallet(ewoq)
	c, err = wallet.NewC(t.Context(), xn.client, ewoq, clock.Real{})
	require.NoError(t, err)
	require.Equal(t, start-fees, total())
	code, stdout, stderr = runCLI(t, "p", "import", "--node-uri", xn.base, "--from", "C")
	require.Zero(t, code, stderr)
	m = regexp.MustCompile(`(?m)^txID: \w+\nimported: .* AVAX \((\d+) nAVAX\)\nfee: .* AVAX \((\d+) nAVAX\)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	fees += mustUint(t, m[2])
	require.Zero(t, pending())
	require.Equal(t, start-fees, total())

	// Refusals change nothing.
	code, stdout, stderr = runCLI(t, "c", "import", "--node-uri", xn.base, "--from", "X")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "cornice: "+wallet.ErrNothingToImport.Error())
	fresh, err := wallet.ParseKey("0x" + "11" + localKeyHex[2:])
	require.NoError(t, err)
	code, stdout, stderr = runCLI(t, "c", "export", "--node-uri", xn.base, "--to", "X", "--amount", "1", "--key", fresh.String())
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "cornice: avax.issueTx: insufficient funds\n", stderr)
	_, _, err = c.Export(t.Context(), "Q", "", 1)
	require.ErrorIs(t, err, wallet.ErrWrongChain)
	require.Equal(t, start-fees, total())
	require.Equal(t, s.lastBlock, xn.cState(ethAddr, txID).lastBlock, "nothing refused changed the C-Chain")
}
