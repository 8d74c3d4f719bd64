package acp99

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/warp"
)

var errWaitEnded = errors.New("the wait ended")

// TestAggregateRetriesOnCode checks that the flow asks /ext/aggregate-signatures again while
// the refusal carries warp.CodeInsufficientWeight, and only then: the same text without the
// code, or another refusal, ends the wait at once.
func TestAggregateRetriesOnCode(t *testing.T) {
	t.Parallel()
	msg := warp.NewUnsignedMessage(12345, ids.ID{9}, []byte{1, 2, 3})
	signed := &warp.Message{UnsignedMessage: *msg, Signature: warp.BitSetSignature{Signers: []byte{1}}}
	short := `"failed to aggregate signatures. error: failed to collect a threshold of signatures: signature weight is insufficient: 67*10 \u003e 100*0"`
	tests := []struct {
		name string
		// refusal is the body of the first refusals; refusals is how many come before success.
		refusal   string
		refusals  int64
		wantCalls int64
		wantErr   error // errWaitEnded, or nil: any error but a missed quorum
		wantOK    bool
	}{
		{"code, then signed", `{"error":` + short + `,"code":` + strconv.Itoa(warp.CodeInsufficientWeight) + `}`, 2, 3, nil, true},
		// The wait ends between two requests (the last refusal) or during one (its deadline).
		{"code until the wait ends", `{"error":` + short + `,"code":` + strconv.Itoa(warp.CodeInsufficientWeight) + `}`, 1 << 30, -1, errWaitEnded, false},
		{"the text without the code", `{"error":` + short + `}`, 2, 1, nil, false},
		{"another code", `{"error":"boom","code":-32000}`, 2, 1, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				require.Equal(t, "/ext/aggregate-signatures", r.URL.Path)
				if calls.Add(1) <= tt.refusals {
					w.WriteHeader(http.StatusInternalServerError)
					_, _ = w.Write([]byte(tt.refusal))
					return
				}
				_ = json.NewEncoder(w).Encode(map[string]string{"signed-message": hex.EncodeToString(signed.Bytes())})
			}))
			t.Cleanup(srv.Close)
			node, err := wallet.NewClient(srv.URL, srv.Client())
			require.NoError(t, err)
			f := &Flow{node: node, wait: 500 * time.Millisecond}

			got, err := f.aggregate(t.Context(), msg, nil)
			if tt.wantCalls >= 0 {
				require.Equal(t, tt.wantCalls, calls.Load())
			} else {
				require.Greater(t, calls.Load(), int64(1), "asked again")
			}
			if tt.wantOK {
				require.NoError(t, err)
				require.Equal(t, signed.Bytes(), got)
				return
			}
			require.Error(t, err)
			if tt.wantErr == errWaitEnded {
				require.True(t, errors.Is(err, warp.ErrInsufficientWeight) || errors.Is(err, context.DeadlineExceeded), err)
			} else {
				require.NotErrorIs(t, err, warp.ErrInsufficientWeight)
			}
		})
	}
}
