package e2e_test

import (
	"bytes"
	"context"
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

// TestCChainAtomic exports AVAX from the C-Chain to the X-Chain with `cornice c export`: the
// balance falls by the amount and the fee, the block that carries the tx is the C-Chain index's
// last, with the tx in its bytes, and all of it survives a restart; `cornice c import` with
// nothing exported and an export above the balance are refused.
func TestCChainAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xn := startXNode(t, dir)
	ewoq := common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	var before hexutil.Big
	xn.call("/ext/bc/C/rpc", "eth_getBalance", []any{ewoq, "latest"}, &before)

	code, stdout, stderr := runCLI(t, "c", "export", "--node-uri", xn.base, "--amount", "1000000000")
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`^txID: (\w+)\namount: 1000000000 nAVAX\nfee: (\d+) nAVAX\nto: (X-local1\w+)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	txID, err := ids.FromString(m[1])
	require.NoError(t, err)
	fee, err := strconv.ParseUint(m[2], 10, 64)
	require.NoError(t, err)
	require.Equal(t, "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", m[3])

	s := xn.cState(ewoq, txID)
	spent := new(big.Int).Mul(new(big.Int).SetUint64(1_000_000_000+fee), big.NewInt(1e9))
	require.Equal(t, (*hexutil.Big)(new(big.Int).Sub(before.ToInt(), spent)).String(), s.balance)
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

	xn.stop()
	xn = startXNode(t, dir)
	require.Equal(t, s, xn.cState(ewoq, txID))

	code, stdout, stderr = runCLI(t, "c", "import", "--node-uri", xn.base, "--from", "X")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "cornice: "+wallet.ErrNothingToImport.Error())

	fresh, err := wallet.ParseKey("0x" + "11" + localKeyHex[2:])
	require.NoError(t, err)
	code, stdout, stderr = runCLI(t, "c", "export", "--node-uri", xn.base, "--amount", "1", "--key", fresh.String())
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "cornice: avax.issueTx: insufficient funds\n", stderr)

	c, err := wallet.NewC(context.Background(), xn.client, fresh, clock.Real{})
	require.NoError(t, err)
	_, err = c.Export(context.Background(), "Q", 1, "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
	require.ErrorIs(t, err, wallet.ErrWrongChain)
	require.Equal(t, s.lastBlock, xn.cState(ewoq, txID).lastBlock, "nothing refused changed the chain")
}
