package e2e_test

import (
	"errors"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

func xAmount(ux *xtxs.UTXO) uint64 { return ux.Out.(*secp256k1fx.TransferOutput).Amount }

func pAmountOf(ux *txs.UTXO) uint64 { return ux.Out.(*secp256k1fx.TransferOutput).Amount }

// xAVAX returns avm.getBalance's AVAX balance of addr.
func (xn *xNode) xAVAX(addr string) uint64 {
	xn.t.Helper()
	var reply struct {
		Balance uint64 `json:"balance,string"`
	}
	xn.call("/ext/bc/X", "avm.getBalance", map[string]string{"address": addr, "assetID": "AVAX"}, &reply)
	return reply.Balance
}

// atomicAVAX sums the amounts of utxos, read with getUTXOs' sourceChain by the wallet's X or P.
func atomicAVAX[U any](t *testing.T, utxos []U, err error, amount func(U) uint64) uint64 {
	t.Helper()
	require.NoError(t, err)
	var sum uint64
	for _, ux := range utxos {
		sum += amount(ux)
	}
	return sum
}

// TestTransfers moves AVAX X→P and P→X with the wallet, then with `cornice x|p export|import` and
// `cornice transfer`: each half pays its chain's fee, what is exported waits in shared memory
// until it is imported, and the AVAX on X, on P and in shared memory add up to the start less the
// fees at every step.
func TestTransfers(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	ewoq := localKey(t)
	x, p := xn.wallet(ewoq), xn.pWallet(ewoq)
	pending := func() uint64 {
		xu, err := x.AtomicUTXOs(t.Context(), "P")
		onX := atomicAVAX(t, xu, err, xAmount)
		pu, err := p.AtomicUTXOs(t.Context(), "X")
		return onX + atomicAVAX(t, pu, err, pAmountOf)
	}
	total := func() uint64 { return xn.xAVAX(x.Address()) + xn.pBalance(p.Address()) + pending() }
	start := total()
	var fees uint64

	// X → P with the wallet.
	tx, fee, err := x.Export(t.Context(), "P", "", 10_000_000_000)
	require.NoError(t, err)
	require.Equal(t, uint64(1_000_000), fee)
	issue(t, x, tx)
	fees += fee
	require.Equal(t, uint64(10_000_000_000), pending())
	require.Equal(t, start-fees, total())
	ptx, fee, err := p.Import(t.Context(), "X")
	require.NoError(t, err)
	require.NotZero(t, fee)
	pIssue(t, p, ptx)
	fees += fee
	require.Zero(t, pending())
	require.Equal(t, start-fees, total())

	// Nothing left to import; importing the same tx again is refused by the node.
	_, _, err = p.Import(t.Context(), "X")
	require.ErrorIs(t, err, wallet.ErrNothingToImport)
	_, err = p.Issue(t.Context(), ptx)
	rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "couldn't issue tx: failed verification: failed execution: standard tx "+ptx.ID().String()+
		" failed execution: failed to get shared memory: not found", rpcErr.Message)
	// An export larger than the balance: the wallet refuses it before the node sees it.
	_, _, err = x.Export(t.Context(), "P", "", xn.xAVAX(x.Address()))
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds)
	require.Equal(t, start-fees, total())

	// P → X with the CLI, the amount in AVAX; the fees are shown.
	code, stdout, stderr := runCLI(t, "p", "export", "--node-uri", xn.base, "--to", "X", "--amount", "2.5AVAX")
	require.Zero(t, code, stderr)
	m := regexp.MustCompile(`(?m)^txID: \w+\nexported: 2.5 AVAX \(2500000000 nAVAX\)\nfee: [0-9.]+ AVAX \((\d+) nAVAX\)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	fees += mustUint(t, m[1])
	require.Equal(t, uint64(2_500_000_000), pending())
	code, stdout, stderr = runCLI(t, "x", "import", "--node-uri", xn.base, "--from", "P")
	require.Zero(t, code, stderr)
	require.Regexp(t, `(?m)^txID: \w+\nimported: 2.499 AVAX \(2499000000 nAVAX\)\nfee: 0.001 AVAX \(1000000 nAVAX\)\nstatus: Accepted\n$`, stdout)
	fees += 1_000_000
	require.Equal(t, start-fees, total())

	// Both halves in one command.
	code, stdout, stderr = runCLI(t, "transfer", "--node-uri", xn.base, "--from", "X", "--to", "P", "--amount", "1000000000")
	require.Zero(t, code, stderr)
	m = regexp.MustCompile(`(?m)^export txID: \w+\nexported: 1 AVAX \(1000000000 nAVAX\)\nexport fee: 0.001 AVAX \(1000000 nAVAX\)\n` +
		`import txID: \w+\nimported: [0-9.]+ AVAX \((\d+) nAVAX\)\nimport fee: [0-9.]+ AVAX \((\d+) nAVAX\)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, uint64(1_000_000_000), mustUint(t, m[1])+mustUint(t, m[2]))
	fees += 1_000_000 + mustUint(t, m[2])
	require.Zero(t, pending())
	require.Equal(t, start-fees, total())

	code, _, stderr = runCLI(t, "transfer", "--node-uri", xn.base, "--from", "X", "--to", "X", "--amount", "1")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `transfers move AVAX between X, P and C: --from "X" --to "X"`)
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return v
}
