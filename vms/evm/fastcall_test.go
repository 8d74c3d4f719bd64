package evm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm"
)

// TestServeCallAsGeth: the eth_call front answers byte for byte as go-ethereum's server does
// (status, content type and length, body with its newline), and declines what it does not
// answer, which go-ethereum's server then answers as before.
func TestServeCallAsGeth(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	cvm, ok := n.m.VM(cChainID)
	require.True(t, ok)
	vm := cvm.(*evm.VM)
	head, err := n.client.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)

	const (
		identity = `"to":"0x0000000000000000000000000000000000000004"`
		eoa      = `"to":"0x1000000000000000000000000000000000000001"`
	)
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"eth_call","params":` + params + `}`
	}
	for _, tc := range []struct {
		body   string
		answer bool // the front answers it
	}{
		{call(`1`, `[{`+identity+`,"data":"0x1234"},"latest"]`), true},
		{call(`"abc"`, `[{`+identity+`,"input":"0xabcdef"}]`), true},
		{call(`"a\"b<>&"`, `[{`+identity+`,"data":"0x01"},"accepted"]`), true},
		{call(`1.5e3`, `[{`+identity+`},"0x0"]`), true},
		{call(`-7`, `[{`+eoa+`},null]`), true},
		{call(`true`, `[{`+eoa+`,"gas":"0x5208"},{"blockHash":"`+head.Hash().Hex()+`"}]`), true},
		{" \n" + call(`2`, `[ {"data":"0x61beef6000526002601ef3"} , "latest" ]`) + "\n ", true},
		{call(`3`, `[{"data":"0x61beef6000526002601efd"}]`), true},                                          // init code that reverts with 0xbeef
		{call(`"r"`, `[{"data":"`+revertReason+`"}]`), true},                                                // reverts with Error("a<b&c")
		{call(`31`, `[{"data":"0xfe"}]`), true},                                                             // invalid opcode
		{call(`32`, `[{"data":"0x5b600056","gas":"0x10000"}]`), true},                                       // a loop: out of gas
		{call(`33`, `[{"data":"0x00","gas":"0x1"}]`), true},                                                 // below the intrinsic gas
		{call(`4`, `[{"to":"0x12"}]`), false},                                                               // bad address
		{call(`41`, `[{`+identity+`,"gas":"0xzz"}]`), false},                                                // bad quantity
		{call(`42`, `[{`+identity+`},"pending!"]`), false},                                                  // bad block
		{call(`43`, `[{`+identity+`,"data":"0x1"}]`), false},                                                // odd hex
		{call(`5`, `[{`+identity+`},"latest",{}]`), false},                                                  // state overrides
		{call(`6`, `[{`+identity+`},"0x99"]`), true},                                                        // no such block
		{call(`61`, `[{`+identity+`},{"blockHash":"0x`+strings.Repeat("ab", 32)+`"}]`), true},               // no such hash
		{call(`7`, `[]`), false},                                                                            // no arguments
		{call(`8`, `[null]`), false},                                                                        // null arguments
		{call(`9`, `{}`), false},                                                                            // not an array
		{call(`10`, `[{`+identity+`},"latest","x","y"]`), false},                                            // too many
		{call(`11`, `[{`+eoa+`,"value":"0x1","from":"0x2000000000000000000000000000000000000002"}]`), true}, // no funds
		{call(`12`, `[{"gasPrice":"0x1","maxFeePerGas":"0x1"}]`), true},                                     // both fee fields
		{call(`13`, `[{"data":"0x01","input":"0x02"}]`), true},                                              // both inputs, different
		{call(`null`, `[{`+identity+`}]`), false},                                                           // id null
		{`{"jsonrpc":"2.0","method":"eth_call","params":[{` + identity + `}]}`, false},                      // a notification
		{`{"jsonrpc":"1.0","id":1,"method":"eth_call","params":[{` + identity + `}]}`, false},
		{`{"jsonrpc":"2.0","id":{},"method":"eth_call","params":[{` + identity + `}]}`, false},
	} {
		t.Run(tc.body, func(t *testing.T) {
			var answered bool
			front := func(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) bool {
				answered = vm.ServeCall(w, r, c)
				return answered
			}
			fast := postTo(t.Context(), jsonrpc.Gate(vm.GethHandler(), func([]byte) bool { return false }, front), tc.body)
			slow := postTo(t.Context(), vm.GethHandler(), tc.body)
			require.Equal(t, tc.answer, answered)
			require.Equal(t, slow.Code, fast.Code)
			require.Equal(t, slow.Header(), fast.Header())
			require.Equal(t, slow.Body.String(), fast.Body.String())
			if tc.answer {
				require.True(t, strings.HasSuffix(fast.Body.String(), "}\n"), fast.Body.String())
			}
		})
	}

	// A call that runs out of time is answered as go-ethereum's server answers it.
	ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer cancel()
	fast := postTo(ctx, jsonrpc.Gate(vm.GethHandler(), func([]byte) bool { return false }, vm.ServeCall), call(`1`, `[{`+identity+`}]`))
	require.Equal(t, http.StatusOK, fast.Code)
	require.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"request timed out"}}`+"\n", fast.Body.String())
	require.Equal(t, "application/json", fast.Header().Get("Content-Type"))
	require.Equal(t, "identity", fast.Header().Get("Transfer-Encoding"))
}

// revertReason is init code that reverts with the ABI encoding of Error("a<b&c"): go-ethereum
// adds the reason to the message and escapes its <, > and & as JSON for HTML.
const revertReason = "0x6064600c60003960646000fd08c379a0" +
	"0000000000000000000000000000000000000000000000000000000000000020" +
	"0000000000000000000000000000000000000000000000000000000000000005" +
	"613c622663000000000000000000000000000000000000000000000000000000"

// postTo sends body to h as a JSON POST with ctx.
func postTo(ctx context.Context, h http.Handler, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestCallEVMReused: calls without overrides run on EVMs kept between calls, and a kept EVM
// answers every call, after any other, as a fresh one does: success, revert, invalid opcode,
// out of gas, too little gas, no funds, a gas price (the other pool), the warp precompile
// (bound to its EVM), and a call after one that changed the state (the state is kept too).
func TestCallEVMReused(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	cvm, ok := n.m.VM(cChainID)
	require.True(t, ok)
	vm := cvm.(*evm.VM)
	h := vm.GethHandler()

	const (
		identity = `"to":"0x0000000000000000000000000000000000000004"`
		funded   = `"from":"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"` // the local key
	)
	bodies := []string{
		`[{` + identity + `,"data":"0x1234"},"latest"]`,
		`[{"data":"0x61beef6000526002601ef3"}]`,
		`[{"data":"0x61beef6000526002601efd"}]`,
		`[{"data":"` + revertReason + `"}]`,
		`[{"data":"0xfe"}]`,
		`[{"data":"0x5b600056","gas":"0x10000"}]`,
		`[{"data":"0x00","gas":"0x1"}]`,
		`[{"to":"0x1000000000000000000000000000000000000001","value":"0x1","from":"0x2000000000000000000000000000000000000002"}]`,
		`[{` + identity + `,"data":"0xabcd","gasPrice":"0x1"}]`,
		`[{` + funded + `,` + identity + `,"data":"0xabcd","gas":"0x10000","gasPrice":"0x174876e800"}]`,
		`[{` + funded + `,"data":"0x5b600056","gas":"0x10000","maxFeePerGas":"0x174876e800","maxPriorityFeePerGas":"0x0"}]`,
		`[{"to":"0x0200000000000000000000000000000000000005","data":"0x4213cf78"}]`,
		// A transfer, then a call that returns the balances of its receiver and its
		// sender: what a call changed is gone for the next one, on a kept state.
		`[{` + funded + `,"to":"0x1000000000000000000000000000000000000001","value":"0x1"}]`,
		`[{"data":"0x731000000000000000000000000000000000000001316000527f` + strings.Repeat("00", 12) + `8db97c7cece249c2b98bdc0226cc4c2a57bf52fc3160205260406000f3"}]`,
		`[{` + funded + `,"to":"0x0200000000000000000000000000000000000005","data":"0x4213cf78","gas":"0x10000","gasPrice":"0x174876e800"}]`,
	}
	call := func(i int, params string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"eth_call","params":` + params + `}`
	}
	fresh := make([]string, len(bodies))
	for i, p := range bodies {
		vm.ForgetCallBase()
		fresh[i] = postTo(t.Context(), h, call(i, p)).Body.String()

		require.Contains(t, fresh[i], `"id":`+strconv.Itoa(i)+`,`)
	}
	// Every body after every other, on the kept EVMs.
	for round := range 3 {
		for i := range bodies {
			j := (i + round*5) % len(bodies)
			require.Equal(t, fresh[j], postTo(t.Context(), h, call(j, bodies[j])).Body.String(), "round %d", round)
		}
	}
	// The same from goroutines at once, each EVM and state used by one call at a time (run
	// with -race).
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range bodies {
				j := (i + g*3) % len(bodies)
				assert.Equal(t, fresh[j], postTo(t.Context(), h, call(j, bodies[j])).Body.String(), "goroutine %d", g)
			}
		})
	}
	wg.Wait()
	// The EVMs are kept: each call leaves its EVM idle in its pool. (sync.Pool drops a
	// quarter of what it is given under the race detector, hence the rounds.)
	for _, noBaseFee := range []bool{true, false} {
		price := `"0x174876e800"`
		if noBaseFee {
			price = `"0x0"`
		}
		kept := false
		for range 20 {
			postTo(t.Context(), h, call(1, `[{`+funded+`,`+identity+`,"gas":"0x10000","gasPrice":`+price+`}]`))
			if kept = vm.IdleCallEVM(noBaseFee); kept {
				break
			}
		}
		require.True(t, kept, "no base fee %v", noBaseFee)
	}
}
