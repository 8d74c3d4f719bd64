package e2e_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"
)

// proposerVMState is what the proposervm API answers for one chain.
type proposerVMState struct {
	height string
	epoch  map[string]string
}

func (xn *xNode) proposerVM(chain string) proposerVMState {
	xn.t.Helper()
	var s proposerVMState
	var h struct {
		Height string `json:"height"`
	}
	xn.call("/ext/bc/"+chain+"/proposervm", "proposervm.getProposedHeight", struct{}{}, &h)
	s.height = h.Height
	xn.call("/ext/bc/"+chain+"/proposervm", "proposervm.getCurrentEpoch", struct{}{}, &s.epoch)
	return s
}

// TestProposerVM checks the proposervm API of the P- and C-Chains (docs/api.md): the proposed
// height is the P-Chain's height, which a P-Chain tx moves; the epoch is the first, opened at the
// chain's last accepted block's time, at that height. The X-Chain has no such route, as in the
// reference.
func TestProposerVM(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	cTime := func() string {
		var head struct {
			Time hexutil.Uint64 `json:"timestamp"`
		}
		xn.call("/ext/bc/C/rpc", "eth_getBlockByNumber", []any{"latest", false}, &head)
		return strconv.FormatUint(uint64(head.Time), 10)
	}
	check := func(pHeight uint64) {
		t.Helper()
		h := strconv.FormatUint(pHeight, 10)
		var ts struct {
			Timestamp time.Time `json:"timestamp"`
		}
		xn.call("/ext/bc/P", "platform.getTimestamp", nil, &ts)
		p := proposerVMState{height: h, epoch: map[string]string{"number": "1", "startTime": strconv.FormatInt(ts.Timestamp.Unix(), 10), "pChainHeight": h}}
		require.Equal(t, p, xn.proposerVM("P"))
		require.Equal(t, p, xn.proposerVM("platform"), "the P-Chain's aliases serve it too")
		require.Equal(t, proposerVMState{height: h, epoch: map[string]string{"number": "1", "startTime": cTime(), "pChainHeight": h}},
			xn.proposerVM("C"))
	}
	check(xn.lcHeight())

	// A P-Chain block moves the height every chain would be built with.
	ewoq := localKey(t)
	p := xn.pWallet(ewoq)
	tx, _, err := p.Export(t.Context(), "X", "", 1_000_000_000)
	require.NoError(t, err)
	pIssue(t, p, tx)
	require.Equal(t, uint64(1), xn.lcHeight())
	check(1)

	resp, err := xn.hc.Post(xn.base+"/ext/bc/X/proposervm", "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"proposervm.getProposedHeight","params":{}}`))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}
