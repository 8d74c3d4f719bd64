package chainapi

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/internal/txlog"
)

// blob is a fake tx or block: its bytes, and its JSON unless it has none.
type blob struct {
	b    []byte
	json string
}

func (b blob) Bytes() []byte { return b.b }

// ID is the blob's first byte.
func (b blob) ID() ids.ID { return ids.ID{b.b[0]} }

// fakeChain holds one tx and one block at height 1; everything else is missing.
type fakeChain struct {
	txID, blkID ids.ID
	tx, blk     blob
	failTx      bool
	// pushed are the txs handed to gossip.
	pushed [][]byte
}

// ParseTx refuses the empty tx; IssueTx refuses a tx starting with 0xff.
func (c *fakeChain) ParseTx(b []byte) (blob, error) {
	if len(b) == 0 {
		return blob{}, errors.New("empty tx")
	}
	return blob{b: b}, nil
}

func (c *fakeChain) IssueTx(tx blob) error {
	if tx.b[0] == 0xff {
		return errors.New("bad tx")
	}
	return nil
}

func (c *fakeChain) PushTx(b []byte) { c.pushed = append(c.pushed, b) }

func (c *fakeChain) Tx(id ids.ID) (blob, bool, error) {
	if c.failTx {
		return blob{}, false, errors.New("disk on fire")
	}
	return c.tx, id == c.txID, nil
}

func (c *fakeChain) TxStatus(id ids.ID) (string, error) {
	if id == c.txID {
		return "Done", nil
	}
	return "Never", nil
}

func (c *fakeChain) Block(id ids.ID) (blob, bool, error) { return c.blk, id == c.blkID, nil }

func (c *fakeChain) BlockIDAt(h uint64) (ids.ID, bool, error) { return c.blkID, h == 1, nil }

func (c *fakeChain) LastHeight() (uint64, error) { return 1, nil }

func (c *fakeChain) TxJSON(tx blob) ([]byte, error) { return jsonOf(tx) }

func (c *fakeChain) BlockJSON(blk blob) ([]byte, error) { return jsonOf(blk) }

func jsonOf(b blob) ([]byte, error) {
	if b.json == "" {
		return nil, errors.New("no json")
	}
	return []byte(b.json), nil
}

// TestRegister checks each shared method against a fake chain, in the texts each chain may pick.
func TestRegister(t *testing.T) {
	t.Parallel()
	c := &fakeChain{txID: ids.ID{7}, blkID: ids.ID{8}, tx: blob{b: []byte{1, 2}, json: `{"t":1}`}, blk: blob{b: []byte{3}}}
	errNil := errors.New("nil id")
	log := slog.New(slog.DiscardHandler)
	srv := jsonrpc.NewServer("test", log)
	Register(srv, c, Texts{
		IssueTxError: func(err error) error { return fmt.Errorf("couldn't issue: %w", err) },
		NilTxID:      errNil,
		TxNotFound:   errors.New("no tx"),
		EncodeError: func(what string, enc ids.Encoding, err error) error {
			return errors.New("enc " + what + " " + enc.String())
		},
		JSONError: func(method, what string, err error) error { return errors.New("json " + method + " " + what) },
		Internal:  func(method string, err error) error { return errors.New("internal " + method + ": " + err.Error()) },
	}, txlog.New(log, clock.NewFake(time.Unix(0, 0)), 0))
	h := httptest.NewServer(srv)
	t.Cleanup(h.Close)

	call := func(method, params string) string {
		body := `{"jsonrpc":"2.0","id":1,"method":"test.` + method + `","params":` + params + `}`
		resp, err := http.Post(h.URL, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return strings.TrimSpace(string(b))
	}
	ok := func(result string) string { return `{"jsonrpc":"2.0","result":` + result + `,"id":1}` }
	fail := func(msg string) string {
		return `{"jsonrpc":"2.0","error":{"code":-32000,"message":"` + msg + `","data":null},"id":1}`
	}
	txID, blkID := c.txID.String(), c.blkID.String()
	tests := []struct {
		method, params, want string
	}{
		{"issueTx", `{"tx":"0x09c3b2a1e4"}`, fail("problem decoding transaction: invalid input checksum")},
		{"issueTx", `{"tx":"0x0adaca546b"}`, ok(`{"txID":"` + ids.ID{10}.String() + `"}`)},
		{"issueTx", `{"tx":"0x7852b855"}`, fail("empty tx")},
		{"issueTx", `{"tx":"0xff0a34a76ed3"}`, fail("couldn't issue: bad tx")},
		{"getTx", `{"txID":"` + ids.Empty.String() + `"}`, fail("nil id")},
		{"getTx", `{"txID":"` + blkID + `"}`, fail("no tx")},
		{"getTx", `{"txID":"` + txID + `"}`, ok(`{"tx":"0x010223f63222","encoding":"hex"}`)},
		{"getTx", `{"txID":"` + txID + `","encoding":"json"}`, ok(`{"tx":{"t":1},"encoding":"json"}`)},
		{"getTxStatus", `{"txID":"` + ids.Empty.String() + `"}`, fail("nil id")},
		{"getTxStatus", `{"txID":"` + txID + `"}`, ok(`{"status":"Done"}`)},
		{"getTxStatus", `{"txID":"` + blkID + `"}`, ok(`{"status":"Never"}`)},
		{"getHeight", `{}`, ok(`{"height":"1"}`)},
		{"getBlock", `{"blockID":"` + txID + `"}`, fail("couldn't get block with id " + txID + ": not found")},
		{"getBlock", `{"blockID":"` + blkID + `","encoding":"json"}`, fail("json getBlock block")},
		{"getBlockByHeight", `{"height":"2"}`, fail("couldn't get block at height 2: not found")},
		{"getBlockByHeight", `{"height":"1","encoding":"json"}`, fail("json getBlockByHeight block")},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, call(tt.method, tt.params), "%s %s", tt.method, tt.params)
	}
	require.Equal(t, [][]byte{{10}}, c.pushed, "only the tx taken in is gossiped")
	c.failTx = true
	require.Equal(t, fail("internal getTx: disk on fire"), call("getTx", `{"txID":"`+txID+`"}`))
}
