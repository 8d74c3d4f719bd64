package relay_test

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/relay"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// The relay against scripted chains: what it finds in logs, what it sends, and what it does
// after a crash. The real chains are in e2e/icm_test.go.

// fakeChain is a chain whose blocks hold the logs a test gives, and which takes transactions
// without executing them: a test decides when they are accepted (mine).
type fakeChain struct {
	chainID *big.Int

	mu       sync.Mutex
	head     uint64
	blocks   []uint64 // by height above genesis, what makes each block's hash its own
	mined    uint64   // blocks mined, rolled back or not
	logs     []types.Log
	feed     event.Feed
	sent     []*types.Transaction // every SendTransaction, refused or not
	pool     map[common.Hash]*types.Transaction
	receipts map[common.Hash]*types.Receipt
	received map[common.Hash]bool     // the messenger's messageReceived
	roles    map[common.Address]int64 // the transaction allow list's; nil: none
}

func newFakeChain(id int64) *fakeChain {
	return &fakeChain{
		chainID: big.NewInt(id), pool: make(map[common.Hash]*types.Transaction),
		receipts: make(map[common.Hash]*types.Receipt), received: make(map[common.Hash]bool),
	}
}

func (f *fakeChain) SubscribeNewHead(_ context.Context, ch chan<- *types.Header) (ethereum.Subscription, error) {
	return f.feed.Subscribe(ch), nil
}

func (f *fakeChain) HeaderByNumber(_ context.Context, n *big.Int) (*types.Header, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	height := f.head
	if n != nil {
		height = n.Uint64()
	}
	if height > f.head {
		return nil, ethereum.NotFound
	}
	return f.header(height), nil
}

// header is the header of block height; f.mu is held.
func (f *fakeChain) header(height uint64) *types.Header {
	h := &types.Header{Number: new(big.Int).SetUint64(height), BaseFee: big.NewInt(1)}
	if height > 0 {
		h.Extra = new(big.Int).SetUint64(f.blocks[height-1]).Bytes()
	}
	return h
}

func (f *fakeChain) FilterLogs(_ context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []types.Log
	for _, l := range f.logs {
		if l.BlockNumber >= q.FromBlock.Uint64() && l.BlockNumber <= q.ToBlock.Uint64() {
			out = append(out, l)
		}
	}
	return out, nil
}

func (f *fakeChain) CallContract(_ context.Context, call ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	if *call.To == l1params.TxAllowListAddress {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.roles == nil {
			return nil, nil // no allow list: nothing at its address
		}
		a := precompile.AllowListABI()
		args, err := a.Methods["readAllowList"].Inputs.Unpack(call.Data[4:])
		if err != nil {
			return nil, err
		}
		return a.Methods["readAllowList"].Outputs.Pack(big.NewInt(f.roles[args[0].(common.Address)]))
	}
	m := icm.Messenger().ABI
	args, err := m.Methods["messageReceived"].Inputs.Unpack(call.Data[4:])
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return m.Methods["messageReceived"].Outputs.Pack(f.received[common.Hash(args[0].([32]byte))])
}

func (f *fakeChain) PendingNonceAt(context.Context, common.Address) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return uint64(len(f.pool) + len(f.receipts)), nil
}

func (f *fakeChain) BalanceAt(context.Context, common.Address, *big.Int) (*big.Int, error) {
	return new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18)), nil
}

func (f *fakeChain) SuggestGasTipCap(context.Context) (*big.Int, error) { return big.NewInt(1), nil }
func (f *fakeChain) ChainID(context.Context) (*big.Int, error)          { return f.chainID, nil }

func (f *fakeChain) SendTransaction(_ context.Context, tx *types.Transaction) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, tx)
	if _, ok := f.receipts[tx.Hash()]; ok {
		return errors.New("nonce too low")
	}
	if _, ok := f.pool[tx.Hash()]; ok {
		return errors.New("already known")
	}
	f.pool[tx.Hash()] = tx
	return nil
}

func (f *fakeChain) TransactionReceipt(_ context.Context, h common.Hash) (*types.Receipt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.receipts[h]; ok {
		return r, nil
	}
	return nil, ethereum.NotFound
}

// mine accepts every pooled transaction: each delivers its message (received).
func (f *fakeChain) mine(t *testing.T) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for h, tx := range f.pool {
		require.Len(t, tx.AccessList(), 1, "the signed message is the predicate")
		f.receipts[h] = &types.Receipt{Status: types.ReceiptStatusSuccessful, TxHash: h, BlockNumber: big.NewInt(1)}
		delete(f.pool, h)
	}
}

// addBlock adds a block holding logs and announces it.
func (f *fakeChain) addBlock(logs ...types.Log) {
	f.mu.Lock()
	f.head++
	f.mined++
	f.blocks = append(f.blocks, f.mined)
	for _, l := range logs {
		l.BlockNumber = f.head
		f.logs = append(f.logs, l)
	}
	h := f.header(f.head)
	for _, l := range logs {
		h.Bloom.Add(l.Address.Bytes())
		for _, topic := range l.Topics {
			h.Bloom.Add(topic.Bytes())
		}
	}
	f.mu.Unlock()
	f.feed.Send(h)
}

// rollBack drops the blocks above height, with their logs, as evm_revert does; nothing is
// announced.
func (f *fakeChain) rollBack(height uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.head = height
	f.blocks = f.blocks[:height]
	f.logs = slices.DeleteFunc(f.logs, func(l types.Log) bool { return l.BlockNumber > height })
}

func (f *fakeChain) sentTxs() []*types.Transaction {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*types.Transaction(nil), f.sent...)
}

// signer signs every message with signers 0x01 and counts the calls.
type signer struct {
	mu    sync.Mutex
	calls int
}

func (s *signer) Aggregate(_ context.Context, msg *warp.UnsignedMessage, _ []byte, _ ids.ID, _, _ uint64) (*warp.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return &warp.Message{UnsignedMessage: *msg, Signature: warp.BitSetSignature{Signers: []byte{1}}}, nil
}

func (s *signer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

type subnets struct{}

func (subnets) SubnetOf(context.Context, ids.ID) (ids.ID, error) { return ids.Empty, nil }

var (
	srcID     = ids.ID{1}
	dstID     = ids.ID{2}
	messenger = common.HexToAddress("0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf")
)

// teleporterLogs are the two logs of a messenger sending m: the warp precompile's
// SendWarpMessage and the messenger's SendCrossChainMessage.
func teleporterLogs(t *testing.T, m *icm.Message, tx common.Hash) []types.Log {
	t.Helper()
	p, err := m.Encode()
	require.NoError(t, err)
	call := &payload.AddressedCall{SourceAddress: messenger.Bytes(), Payload: p}
	msg := warp.NewUnsignedMessage(12345, srcID, call.Bytes())
	data, err := precompile.WarpABI().Events["SendWarpMessage"].Inputs.NonIndexed().Pack(msg.Bytes())
	require.NoError(t, err)
	id := icm.MessageID(srcID, dstID, m.MessageNonce)
	return []types.Log{
		{Address: l1params.WarpAddress, Topics: []common.Hash{precompile.SendWarpMessageTopic(), common.BytesToHash(messenger.Bytes()), common.Hash(msg.ID())}, Data: data, TxHash: tx},
		{Address: messenger, Topics: []common.Hash{icm.SendCrossChainMessageTopic(), id, common.Hash(dstID)}, TxHash: tx},
	}
}

func message(nonce int64, to ids.ID) *icm.Message {
	return &icm.Message{
		MessageNonce: big.NewInt(nonce), OriginSenderAddress: common.HexToAddress("0x01"),
		DestinationBlockchainID: to, DestinationAddress: common.HexToAddress("0x02"),
		RequiredGasLimit: big.NewInt(100_000), Message: []byte("hi"),
	}
}

func openDB(t *testing.T, dir string) *storage.DB {
	t.Helper()
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return db
}

func startRelay(t *testing.T, db *storage.DB, agg *signer, chains map[ids.ID]*fakeChain) *relay.Relay {
	t.Helper()
	r, err := relay.New(relay.Config{
		DB: db.Prefixed(storage.PrefixRelay), Aggregator: agg, Subnets: subnets{}, Log: slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	for id, c := range chains {
		require.NoError(t, r.AddClient(id, c))
	}
	require.NoError(t, r.Start())
	return r
}

// TestDeliverAndResume: a message is delivered once; a relay stopped after sending its
// delivery and before the delivery is accepted sends the same transaction again when it
// starts, and never a second one, though it looks at the message's block again.
func TestDeliverAndResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := openDB(t, dir)
	src, dst := newFakeChain(1), newFakeChain(2)
	chains := map[ids.ID]*fakeChain{srcID: src, dstID: dst}
	agg := &signer{}
	r := startRelay(t, db, agg, chains)
	key := r.Address()

	// Not for the relay: another chain, other relayers, not from a messenger's pair of logs.
	other := message(1, ids.ID{9})
	notMine := message(2, dstID)
	notMine.AllowedRelayerAddresses = []common.Address{common.HexToAddress("0x99")}
	lone := teleporterLogs(t, message(3, dstID), common.Hash{3})[:1]
	src.addBlock(append(append(teleporterLogs(t, other, common.Hash{1}), teleporterLogs(t, notMine, common.Hash{2})...), lone...)...)

	// A message for dst that names this relayer among others: its delivery is sent, and not
	// accepted yet.
	m := message(4, dstID)
	m.AllowedRelayerAddresses = []common.Address{common.HexToAddress("0x99"), key}
	src.addBlock(teleporterLogs(t, m, common.Hash{4})...)
	require.Eventually(t, func() bool { return len(dst.sentTxs()) == 1 }, time.Minute, time.Millisecond)
	require.Equal(t, 1, agg.count())
	tx := dst.sentTxs()[0]
	require.Equal(t, messenger, *tx.To())
	want, err := icm.Messenger().ABI.Pack("receiveCrossChainMessage", uint32(0), key)
	require.NoError(t, err)
	require.Equal(t, want, tx.Data())
	sender, err := types.Sender(types.LatestSignerForChainID(big.NewInt(2)), tx)
	require.NoError(t, err)
	require.Equal(t, key, sender)

	// The relay stops (as in a crash: its record of the delivery stays), the delivery is
	// still pending, and the relay starts again on the same database.
	r.Close()
	require.NoError(t, db.Close())
	db = openDB(t, dir)
	defer db.Close()
	r = startRelay(t, db, agg, chains)
	defer r.Close()
	require.Equal(t, key, r.Address(), "the relayer's key is kept")
	require.Eventually(t, func() bool { return len(dst.sentTxs()) == 2 }, time.Minute, time.Millisecond)
	dst.mine(t)
	dst.mu.Lock()
	dst.received[icm.MessageID(srcID, dstID, m.MessageNonce)] = true
	dst.mu.Unlock()

	// New blocks: the relay looks again, and sends nothing more for the message.
	m2 := message(5, dstID)
	src.addBlock(teleporterLogs(t, m2, common.Hash{5})...)
	require.Eventually(t, func() bool { return len(dst.sentTxs()) == 3 }, time.Minute, time.Millisecond)
	sent := dst.sentTxs()
	require.Equal(t, tx.Hash(), sent[1].Hash(), "the same delivery, sent again")
	require.NotEqual(t, tx.Hash(), sent[2].Hash(), "the next message's delivery")
	require.Equal(t, tx.Nonce()+1, sent[2].Nonce())
	require.Equal(t, 2, agg.count(), "each message signed once")

	// A message the destination has already (delivered by someone else): nothing is sent.
	m3 := message(6, dstID)
	dst.mu.Lock()
	dst.received[icm.MessageID(srcID, dstID, m3.MessageNonce)] = true
	dst.mu.Unlock()
	src.addBlock(teleporterLogs(t, m3, common.Hash{6})...)
	m4 := message(7, dstID)
	src.addBlock(teleporterLogs(t, m4, common.Hash{7})...)
	require.Eventually(t, func() bool { return len(dst.sentTxs()) == 4 }, time.Minute, time.Millisecond)
	require.Equal(t, 3, agg.count())
}

// TestNotAllowed: a destination whose transaction allow list leaves the relayer out, and no
// funder to enable it: the relay sends nothing there, and tries again until the relayer is
// enabled, then delivers.
func TestNotAllowed(t *testing.T) {
	t.Parallel()
	db := openDB(t, t.TempDir())
	defer db.Close()
	src, dst := newFakeChain(1), newFakeChain(2)
	dst.roles = map[common.Address]int64{}
	agg := &signer{}
	r := startRelay(t, db, agg, map[ids.ID]*fakeChain{srcID: src, dstID: dst})
	defer r.Close()

	src.addBlock(teleporterLogs(t, message(1, dstID), common.Hash{1})...)
	// Signed twice: the first try ended without a delivery, and the relay tries again.
	require.Eventually(t, func() bool { return agg.count() >= 2 }, time.Minute, time.Millisecond)
	require.Empty(t, dst.sentTxs())

	dst.mu.Lock()
	dst.roles[r.Address()] = int64(precompile.RoleEnabled)
	dst.mu.Unlock()
	require.Eventually(t, func() bool { return len(dst.sentTxs()) == 1 }, time.Minute, time.Millisecond)
}

// TestRollBack: after the source chain is rolled back (evm_revert), a message in a block mined
// again at the height the relay had handled is delivered, and so are messages in blocks mined
// again below it several at once, announced by an empty head above it; rolled back below every
// mark kept, the relay looks again from genesis. No message is delivered twice.
func TestRollBack(t *testing.T) {
	t.Parallel()
	db := openDB(t, t.TempDir())
	defer db.Close()
	src, dst := newFakeChain(1), newFakeChain(2)
	agg := &signer{}
	r := startRelay(t, db, agg, map[ids.ID]*fakeChain{srcID: src, dstID: dst})
	defer r.Close()
	delivered := func(n int) {
		t.Helper()
		require.Eventually(t, func() bool { return len(dst.sentTxs()) == n }, time.Minute, time.Millisecond)
	}

	// Blocks 1-3, the third with a message: the relay handles them (its mark is at 3).
	src.addBlock()
	src.addBlock()
	src.addBlock(teleporterLogs(t, message(1, dstID), common.Hash{1})...)
	delivered(1)

	// Rolled back to 2, and block 3 mined again with another message: it is delivered.
	src.rollBack(2)
	src.addBlock(teleporterLogs(t, message(2, dstID), common.Hash{2})...)
	delivered(2)

	// Blocks 4-6, handled (the message of 6 is delivered); rolled back to 3, then blocks 4-7
	// mined at once, two of them with messages, announced by block 7 alone, which holds none.
	src.addBlock()
	src.addBlock()
	src.addBlock(teleporterLogs(t, message(3, dstID), common.Hash{3})...)
	delivered(3)
	src.rollBack(3)
	src.mu.Lock()
	for i, logs := range [][]types.Log{nil, teleporterLogs(t, message(4, dstID), common.Hash{4}), teleporterLogs(t, message(5, dstID), common.Hash{5}), nil} {
		src.head++
		src.mined++
		src.blocks = append(src.blocks, src.mined)
		for _, l := range logs {
			l.BlockNumber = uint64(4 + i)
			src.logs = append(src.logs, l)
		}
	}
	h := src.header(src.head)
	src.mu.Unlock()
	src.feed.Send(h)
	delivered(5)

	// A message in each of 32 more blocks, each handled before the next is mined, so that the
	// relay's marks are all above genesis; rolled back to genesis, and a block mined with a
	// new message.
	for n := range int64(32) {
		src.addBlock(teleporterLogs(t, message(6+n, dstID), common.Hash{byte(6 + n)})...)
		delivered(int(6 + n))
	}
	src.rollBack(0)
	src.addBlock(teleporterLogs(t, message(38, dstID), common.Hash{38})...)
	delivered(38)
	require.Equal(t, 38, agg.count(), "each message signed once")
}
