package sigagg_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/sigagg"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// fakeAgg signs every message with signers 0x01 and records what it was asked.
type fakeAgg struct {
	subnetID       ids.ID
	quorum, buffer uint64
	justification  []byte
	err            error
}

func (f *fakeAgg) Aggregate(_ context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum, buffer uint64) (*warp.Message, error) {
	f.subnetID, f.quorum, f.buffer, f.justification = subnetID, quorum, buffer, justification
	if f.err != nil {
		return nil, f.err
	}
	return &warp.Message{UnsignedMessage: *msg, Signature: warp.BitSetSignature{Signers: []byte{1}}}, nil
}

type subnets struct{}

func (subnets) SubnetOf(context.Context, ids.ID) (ids.ID, error) { return ids.ID{5}, nil }

func post(t *testing.T, h http.Handler, method, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, "/", strings.NewReader(body)))
	b, err := io.ReadAll(rec.Result().Body)
	require.NoError(t, err)
	return rec.Code, string(b)
}

// TestService checks the reference aggregator's request checks and texts, its defaults (quorum
// 67, the source chain's subnet), and the reply.
func TestService(t *testing.T) {
	t.Parallel()
	msg := warp.NewUnsignedMessage(12345, ids.ID{9}, []byte{1, 2, 3})
	hexMsg := hex.EncodeToString(msg.Bytes())
	agg := &fakeAgg{}
	s := sigagg.New(agg, subnets{}, slog.New(slog.DiscardHandler))

	code, body := post(t, s, http.MethodPost, `{"message":"0x`+hexMsg+`","justification":"0xabcd"}`)
	require.Equal(t, http.StatusOK, code)
	signed := &warp.Message{UnsignedMessage: *msg, Signature: warp.BitSetSignature{Signers: []byte{1}}}
	require.Equal(t, `{"signed-message":"`+hex.EncodeToString(signed.Bytes())+`"}`, body)
	require.Equal(t, ids.ID{5}, agg.subnetID)
	require.Equal(t, uint64(67), agg.quorum)
	require.Equal(t, []byte{0xab, 0xcd}, agg.justification)

	subnet := ids.ID{7}
	code, _ = post(t, s, http.MethodPost, `{"message":"`+hexMsg+`","signing-subnet-id":"`+subnet.String()+`","quorum-percentage":80,"quorum-percentage-buffer":20}`)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, subnet, agg.subnetID)
	require.Equal(t, [2]uint64{80, 20}, [2]uint64{agg.quorum, agg.buffer})
	code, _ = post(t, s, http.MethodPost, `{"message":"`+hexMsg+`","signing-subnet-id":"0x`+hex.EncodeToString(subnet[:])+`"}`)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, subnet, agg.subnetID)

	for _, tt := range []struct {
		method, body string
		code         int
		want         string
	}{
		{http.MethodPost, `{`, 400, "Could not decode request body"},
		{http.MethodPost, `{"message":"zz"}`, 400, "Could not decode message"},
		{http.MethodPost, `{"message":"00"}`, 400, "Error unpacking warp message"},
		{http.MethodPost, `{"message":"` + hexMsg + `","justification":"x"}`, 400, "Could not decode justification"},
		{http.MethodPost, `{"message":"` + strings.Repeat("00", 42) + `"}`, 400, "Must provide either message or justification"},
		{http.MethodPost, `{"message":"` + hexMsg + `","quorum-percentage":101}`, 400, "Invalid quorum number"},
		{http.MethodPost, `{"message":"` + hexMsg + `","quorum-percentage":90,"quorum-percentage-buffer":11}`, 400, "Invalid quorum buffer number"},
		{http.MethodPost, `{"message":"` + hexMsg + `","signing-subnet-id":"nope"}`, 400, "Error parsing signing subnet ID"},
		{http.MethodGet, ``, 405, "Method not allowed"},
	} {
		code, body := post(t, s, tt.method, tt.body)
		require.Equal(t, tt.code, code, tt.body)
		require.Equal(t, `{"error":"`+tt.want+`"}`, body, tt.body)
	}

	agg.err = errors.New("boom")
	code, body = post(t, s, http.MethodPost, `{"message":"`+hexMsg+`"}`)
	require.Equal(t, http.StatusInternalServerError, code)
	require.Equal(t, `{"error":"failed to aggregate signatures. error: boom"}`, body)

	// A missed quorum carries warp.CodeInsufficientWeight, however the aggregator wrapped it.
	agg.err = fmt.Errorf("failed to collect a threshold of signatures: %w", errors.Join(
		fmt.Errorf("%w: 67*10 > 100*0", warp.ErrInsufficientWeight), errors.New("NodeID-x: -1: timed out")))
	code, body = post(t, s, http.MethodPost, `{"message":"`+hexMsg+`"}`)
	require.Equal(t, http.StatusInternalServerError, code)
	require.Equal(t, `{"error":"failed to aggregate signatures. error: failed to collect a threshold of signatures: signature weight is insufficient: 67*10 \u003e 100*0\nNodeID-x: -1: timed out","code":-32010}`, body)
}
