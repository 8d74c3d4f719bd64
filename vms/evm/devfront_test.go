package evm_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm"
)

// A block of a request to mine many tells the solo engine it may be accepted unsynced.
var _ solo.SyncDeferrer = (*evm.Block)(nil)

// TestServeDevAsGeth: the developer methods' front answers byte for byte as go-ethereum's
// server does, and declines what it does not answer. Two chains alike take the same calls in
// the same order, one through the front and one through go-ethereum's server alone, so that
// their snapshot IDs, time offsets and heights stay the same and every reply can be compared.
func TestServeDevAsGeth(t *testing.T) {
	t.Parallel()
	cfg := evm.Factory{Config: evm.Config{DevMethods: true}}
	vmOf := func(n *node) *evm.VM {
		v, ok := n.m.VM(cChainID)
		require.True(t, ok)
		return v.(*evm.VM)
	}
	a := startNodeWith(t, filepath.Join(t.TempDir(), "a"), cChainGenesis(t), cfg)
	b := startNodeWith(t, filepath.Join(t.TempDir(), "b"), cChainGenesis(t), cfg)
	fronted, geth := vmOf(a), vmOf(b)
	var answered bool
	front := jsonrpc.Gate(fronted.GethHandler(), func([]byte) bool { return false }, func(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) bool {
		answered = fronted.ServeDev(w, r, c)
		return answered
	})
	later := strconv.FormatUint(uint64(time.Now().Unix())+1000, 10)
	call := func(id, method, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	}
	for _, tc := range []struct {
		body   string
		answer bool // the front answers it
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"evm_snapshot"}`, true}, // 0x0
		{call(`"s"`, "anvil_snapshot", `[]`), true},                // 0x1
		{call(`2`, "evm_snapshot", `null`), true},                  // 0x2
		{call(`3`, "evm_snapshot", `[1]`), false},                  // too many
		{call(`4`, "evm_mine", `[]`), true},
		{call(`5`, "evm_mine", `[null]`), true},
		{call(`6`, "evm_mine", `[{"blocks":"0x2"}]`), true},
		{call(`7`, "evm_mine", `[{"timestamp":1}]`), true}, // before the head: anvil's error
		{call(`8`, "evm_mine", `[{"blocks":"0x"}]`), true}, // the method's own invalid-params error
		{call(`9`, "evm_mine", `[1,2]`), false},
		{call(`10`, "anvil_mine", `["0x2"]`), true},
		{call(`11`, "hardhat_mine", `[]`), true},
		{call(`12`, "anvil_mine", `[1,0]`), true},
		{call(`13`, "anvil_mine", `[null,null]`), true},
		{call(`14`, "anvil_mine", `["zz"]`), false},          // go-ethereum: invalid argument 0
		{call(`15`, "anvil_mine", `[1,1,1]`), false},         // too many
		{call(`16`, "anvil_mine", `{"n":1}`), false},         // not an array
		{call(`17`, "evm_increaseTime", `[100]`), true},      // 100
		{call(`18`, "anvil_increaseTime", `["0x10"]`), true}, // 116
		{call(`19`, "evm_increaseTime", `["0xffffffffff"]`), true},
		{call(`20`, "evm_increaseTime", `[]`), false},     // missing
		{call(`21`, "evm_increaseTime", `[null]`), false}, // go-ethereum: invalid argument 0
		{call(`22`, "evm_setNextBlockTimestamp", `["0x1"]`), true},
		{call(`23`, "anvil_setNextBlockTimestamp", `[`+later+`]`), true},
		{call(`24`, "evm_mine", `null`), true},
		{call(`25`, "evm_revert", `["0x1"]`), true},                 // true
		{call(`26`, "evm_revert", `["0x1"]`), true},                 // false: gone
		{call(`27`, "evm_revert", `["0x2"]`), true},                 // false: gone with 0x1
		{call(`"a\"b<>&"`, "anvil_revert", `[0]`), true},            // true
		{call(`28`, "evm_revert", `["0x99"]`), true},                // false: unknown
		{call(`29`, "evm_revert", `["0x1ffffffffffffffff"]`), true}, // false: no such ID
		{call(`30`, "evm_revert", `[]`), false},
		{call(`31`, "evm_revert", `[null]`), false},
		{call(`32`, "evm_revert", `["x"]`), false},
		{call(`33`, "evm_revert", `[1,2]`), false},
		{call(`1.5e3`, "evm_snapshot", `[]`), true},
		{call(`null`, "evm_snapshot", `[]`), false},                 // id null
		{`{"jsonrpc":"2.0","method":"evm_snapshot"}`, false},        // a notification
		{`{"jsonrpc":"1.0","id":1,"method":"evm_snapshot"}`, false}, // not 2.0
		{`{"jsonrpc":"2.0","id":{},"method":"evm_snapshot"}`, false},
		{call(`34`, "anvil_setBalance", `["0x1000000000000000000000000000000000000001","0x1"]`), false}, // not fronted
	} {
		answered = false
		fast := postTo(t.Context(), front, tc.body)
		slow := postTo(t.Context(), geth.GethHandler(), tc.body)
		require.Equal(t, tc.answer, answered, tc.body)
		require.Equal(t, slow.Code, fast.Code, tc.body)
		require.Equal(t, slow.Header(), fast.Header(), tc.body)
		require.Equal(t, slow.Body.String(), fast.Body.String(), tc.body)
		if tc.answer {
			require.True(t, strings.HasSuffix(fast.Body.String(), "}\n"), fast.Body.String())
		}
	}
	// Both chains went the same way: the front's calls did what go-ethereum's did.
	ha, err := a.client.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	hb, err := b.client.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.Zero(t, ha.Number.Sign(), "anvil_revert to snapshot 0 went back to genesis")
	require.Equal(t, ha.Number, hb.Number)

	// A call that runs out of time is answered as go-ethereum's server answers it.
	ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer cancel()
	late := postTo(ctx, front, call(`1`, "evm_mine", `[]`))
	require.True(t, answered)
	require.Equal(t, http.StatusOK, late.Code)
	require.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"request timed out"}}`+"\n", late.Body.String())
}
