package evm

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// plainCallArgsForms are eth_call arguments in the forms clients send, which the front reads
// itself.
var plainCallArgsForms = []string{
	`{}`,
	` { } `,
	`{"to":"0x0000000000000000000000000000000000000004","data":"0x1234"}`,
	`{"from":"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","to":"0x0000000000000000000000000000000000000004","gas":"0x5208","gasPrice":"0x1","value":"0x10","input":"0xabcd","nonce":"0x3","chainId":"0xa868"}`,
	`{"maxFeePerGas":"0x2","maxPriorityFeePerGas":"0x1"}`,
	` {  "data" : "0x01" ,"data":"0x02"	}`,
}

// callArgsForms are those and forms only encoding/json's rules decide (case, duplicates,
// escapes, null, unknown names, bad values).
var callArgsForms = append(slices.Clip(plainCallArgsForms),
	`{"To":"0x0000000000000000000000000000000000000004"}`,
	`{"to":"0x0000000000000000000000000000000000000004","TO":"0x0000000000000000000000000000000000000005"}`,
	`{"to":null}`,
	`{"data":"0x\u0030\u0031"}`,
	`{"unknown":"0x1","data":"0x01"}`,
	`{"unknown":{"a":[1,2]},"data":"0x01"}`,
	`{"accessList":[{"address":"0x0000000000000000000000000000000000000004","storageKeys":[]}]}`,
	`{"gas":5208}`,
	`{"gas":"0xzz"}`,
	`{"gas":"0x"}`,
	`{"to":"0x12"}`,
	`{"data":"0x1"}`,
	`{"value":"0x0001"}`,
	`{"gas":"0x10000000000000000"}`,
	`[]`,
	`null`,
	`"x"`,
)

// TestDecodeCallArgsAsJSON: eth_call's front decodes the call's arguments as encoding/json
// (go-ethereum's server) does, value and failure alike.
func TestDecodeCallArgsAsJSON(t *testing.T) {
	t.Parallel()
	for _, form := range callArgsForms {
		checkDecodeCallArgs(t, []byte(form))
	}
	for _, form := range plainCallArgsForms {
		var args callArgs
		require.True(t, plainCallArgs([]byte(form), &args), "the front reads %s itself", form)
	}
}

// FuzzDecodeCallArgs: the same on any valid JSON.
func FuzzDecodeCallArgs(f *testing.F) {
	for _, form := range callArgsForms {
		f.Add([]byte(form))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			t.Skip("the envelope scan refuses it first")
		}
		checkDecodeCallArgs(t, b)
	})
}

func checkDecodeCallArgs(t *testing.T, b []byte) {
	t.Helper()
	var want, got callArgs
	wantErr := json.Unmarshal(b, &want)
	gotErr := decodeCallArgs(b, &got)
	require.Equal(t, wantErr == nil, gotErr == nil, "%s: %v, %v", b, wantErr, gotErr)
	if wantErr == nil {
		require.Equal(t, want, got, "%s", b)
	}
}

// TestDecodeBlockParamAsJSON: the block param too.
func TestDecodeBlockParamAsJSON(t *testing.T) {
	t.Parallel()
	for _, form := range []string{
		`null`, `"latest"`, `"accepted"`, `"0x10"`, `"pending"`, `"earliest"`, `"safe"`, `"finalized"`, `"Latest"`, ` "latest"`, `"0x"`, `"bad"`, `17`,
		`{"blockNumber":"0x1"}`, `{"blockHash":"0x` + "ab" + `"}`, `{}`, `{"blockNumber":"0x1","blockHash":"0x01"}`,
	} {
		var want, got *blockNumberOrHash
		wantErr := json.Unmarshal([]byte(form), &want)
		gotErr := decodeBlockParam([]byte(form), &got)
		require.Equal(t, wantErr == nil, gotErr == nil, "%s: %v, %v", form, wantErr, gotErr)
		if wantErr == nil {
			require.Equal(t, want, got, form)
		}
	}
}
