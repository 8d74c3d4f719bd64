package gossip

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	refsdk "github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Our PushGossip is the reference SDK's: uvarint handler ID, then sdk.PushGossip; and theirs
// decodes to the same items.
func TestEncodeMatchesReference(t *testing.T) {
	t.Parallel()
	items := [][]byte{{1, 2, 3}, {}, []byte("tx")}
	ref, err := proto.Marshal(&refsdk.PushGossip{Gossip: items})
	require.NoError(t, err)
	want := append(protowire.AppendVarint(nil, TxHandlerID), ref...)
	require.Equal(t, want, Encode(TxHandlerID, items))

	id, got, err := Decode(want)
	require.NoError(t, err)
	require.Equal(t, uint64(TxHandlerID), id)
	require.Len(t, got, 3)
	for i := range items {
		require.Equal(t, string(items[i]), string(got[i]))
	}
}

// Malformed app bytes fail with ErrMalformed, never a panic.
func TestDecodeMalformed(t *testing.T) {
	t.Parallel()
	for name, b := range map[string][]byte{
		"empty":           nil,
		"truncated id":    {0x80},
		"truncated item":  {0, 0x0a, 5, 1},
		"item as varint":  {0, 0x08, 1},
		"bad field value": {0, 0x12, 9},
	} {
		_, _, err := Decode(b)
		require.ErrorIs(t, err, ErrMalformed, name)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode(TxHandlerID, [][]byte{{1}, {2, 3}}))
	f.Add([]byte{0, 0x0a})
	f.Fuzz(func(t *testing.T, b []byte) {
		id, items, err := Decode(b)
		if err != nil {
			return
		}
		_, again, err := Decode(Encode(id, items))
		require.NoError(t, err)
		require.Len(t, again, len(items))
	})
}

// recorder keeps what a Pusher sends.
type recorder struct {
	mu   sync.Mutex
	sent [][][]byte
}

func (r *recorder) send(b []byte) {
	_, items, err := Decode(b)
	if err != nil {
		panic(err)
	}
	r.mu.Lock()
	r.sent = append(r.sent, items)
	r.mu.Unlock()
}

func (r *recorder) batches() [][][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][][]byte(nil), r.sent...)
}

// Transactions pushed together travel in one message; a full batch goes at once.
func TestPusherBatches(t *testing.T) {
	t.Parallel()
	var r recorder
	p := NewPusher(r.send, time.Hour, 10)
	for range 4 {
		p.Push([]byte{1, 2})
	}
	require.Empty(t, r.batches(), "a batch below its size waits")
	p.Push([]byte{3, 4}) // 10 bytes: full
	require.Len(t, r.batches(), 1)
	require.Len(t, r.batches()[0], 5)

	p.Push([]byte{5})
	p.Flush()
	require.Len(t, r.batches(), 2)
	p.Flush()
	require.Len(t, r.batches(), 2, "nothing queued, nothing sent")

	p.Push([]byte{6})
	p.Close()
	p.Flush()
	p.Push([]byte{7})
	require.Len(t, r.batches(), 2, "a closed pusher sends nothing")
}

// A batch below its size goes when its interval ends, and not before. Time is virtual
// (synctest): on a loaded machine a real millisecond could end between the two pushes.
func TestPusherInterval(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var r recorder
		p := NewPusher(r.send, time.Millisecond, 0)
		p.Push([]byte{1})
		p.Push([]byte{2})
		time.Sleep(time.Millisecond - time.Nanosecond)
		synctest.Wait()
		require.Empty(t, r.batches(), "sent before its interval ended")
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		require.Len(t, r.batches(), 1)
		require.Len(t, r.batches()[0], 2)
	})
}

// Close waits for a batch being sent: once it returns, the pusher's send is never called again
// (the node closes its pushers before the router they send through).
func TestPusherCloseWaitsForSend(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var sent atomic.Int32
		p := NewPusher(func([]byte) { sent.Add(1); <-release }, 0, 0)
		p.Push([]byte{1})
		time.Sleep(DefaultInterval) // the interval's flush starts sending, and blocks
		synctest.Wait()
		require.Equal(t, int32(1), sent.Load())

		closed := make(chan struct{})
		go func() {
			p.Close()
			close(closed)
		}()
		synctest.Wait()
		select {
		case <-closed:
			require.FailNow(t, "Close returned while a batch was being sent")
		default:
		}
		close(release)
		<-closed

		p.Push([]byte{2})
		time.Sleep(time.Second)
		require.Equal(t, int32(1), sent.Load(), "nothing sent after Close")
	})
}
