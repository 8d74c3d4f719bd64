package relay

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/wallet/evmwait"
	"github.com/cornice-node/cornice/warp"
)

// Client is what the relay asks of a chain; *ethclient.Client over the chain's in-process RPC
// implements it.
type Client interface {
	// Chain prices, sends and waits for the relay's transactions.
	evmwait.Chain
	SubscribeNewHead(ctx context.Context, ch chan<- *types.Header) (ethereum.Subscription, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error)
	BalanceAt(ctx context.Context, account common.Address, block *big.Int) (*big.Int, error)
	ChainID(ctx context.Context) (*big.Int, error)
}

// Aggregator signs a message by the validators of a subnet (*acp118.Aggregator).
type Aggregator interface {
	Aggregate(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum, buffer uint64) (*warp.Message, error)
}

// Subnets tells which subnet validates a chain (warp.ValidatorState).
type Subnets interface {
	SubnetOf(ctx context.Context, chainID ids.ID) (ids.ID, error)
}

// Config is what a relay needs.
type Config struct {
	// DB holds the relay's records: its key, how far it looked on each chain, the deliveries
	// sent and done.
	DB *storage.View
	// Aggregator and Subnets sign messages: by the source chain's subnet's validators, at
	// least 67 % of the weight, all of it when it can be had.
	Aggregator Aggregator
	Subnets    Subnets
	// Funder, when set, tops the relayer up on a chain where it has less than MinBalance: it
	// sends TopUp (the local network's funded key). On a chain whose transaction allow list
	// leaves the relayer out and names the funder Admin or Manager, the funder also enables
	// the relayer there.
	Funder *ecdsa.PrivateKey
	Log    *slog.Logger
}

// Deliveries are paid from the relayer's balance; below minBalance the funder sends topUp.
var (
	minBalance = big.NewInt(1e18)
	topUp      = new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
)

// A delivery's gas: what the messenger and the predicate need beyond the message's own
// required gas limit. Only what is used is paid.
const (
	deliveryBaseGas    = 500_000
	deliveryChunkGas   = 3_200 // per 32 bytes of predicate, the pre-Granite price
	deliveryReceiptGas = 40_000
)

// How long the relay waits: for a delivery's or a top-up's receipt, and between looks at a
// chain when no head arrives (a dropped notification, a failed delivery to try again).
const (
	receiptWait  = 2 * time.Minute
	pollInterval = time.Second
)

// Relay delivers Teleporter messages between the chains added to it.
type Relay struct {
	cfg  Config
	key  *ecdsa.PrivateKey
	from common.Address
	log  *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex // guards the fields below
	chains  map[ids.ID]*chain
	started bool
}

// chain is one chain the relay watches and delivers to.
type chain struct {
	id      ids.ID
	client  Client
	chainID *big.Int

	// sendMu serializes deliveries to the chain: they take the relayer's nonces in turn.
	sendMu sync.Mutex
	// nonce is the relayer's next nonce here; unknown after a failed send.
	nonce      uint64
	nonceKnown bool
	// allowed is the relayer known to be allowed to send transactions here.
	allowed bool
}

// New returns a relay over cfg; it watches nothing until chains are added and Start is called.
// Its key is made on first use and kept in cfg.DB.
func New(cfg Config) (*Relay, error) {
	key, err := loadKey(cfg.DB)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Relay{
		cfg: cfg, key: key, from: crypto.PubkeyToAddress(key.PublicKey), log: cfg.Log,
		ctx: ctx, cancel: cancel, chains: make(map[ids.ID]*chain),
	}, nil
}

// Address is the relayer's address: it pays for deliveries and is their reward address.
func (r *Relay) Address() common.Address { return r.from }

// inProcDialer is a VM whose JSON-RPC server answers in this process (*evm.VM).
type inProcDialer interface {
	DialInProc() *rpc.Client
}

// AddChain adds chain id, run by vm, if vm is an EVM chain (AddClient); it passes over any
// other.
func (r *Relay) AddChain(id ids.ID, vm chains.VM) error {
	d, ok := vm.(inProcDialer)
	if !ok {
		return nil
	}
	c := ethclient.NewClient(d.DialInProc())
	if f, ok := vm.(headFeed); ok {
		return r.AddClient(id, feedClient{Client: c, feed: f})
	}
	return r.AddClient(id, c)
}

// AddClient adds chain id, reached through client; a chain added already is kept as it is.
// Before Start it is only recorded, so that every chain the node runs at start-up is known
// before the relay looks for messages (one found on the C-Chain may be for an L1 created after
// it); after Start it is watched at once.
func (r *Relay) AddClient(id ids.ID, client Client) error {
	chainID, err := client.ChainID(r.ctx)
	if err != nil {
		return fmt.Errorf("relay: chain ID of %s: %w", id, err)
	}
	c := &chain{id: id, client: client, chainID: chainID}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.chains[id]; ok {
		return nil
	}
	r.chains[id] = c
	if r.started {
		r.watch(c)
	}
	return nil
}

// Start resumes the deliveries a crash interrupted and watches every chain added.
func (r *Relay) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return nil
	}
	r.started = true
	if err := r.resume(); err != nil {
		return err
	}
	for _, c := range r.chains {
		r.watch(c)
	}
	r.log.Info("relay started", "relayer", r.from.Hex(), "chains", len(r.chains))
	return nil
}

// Close stops the relay and waits for its goroutines. A delivery in flight stays recorded and
// is sent again by the next Start.
func (r *Relay) Close() {
	r.cancel()
	r.wg.Wait()
}

func (r *Relay) chain(id ids.ID) *chain {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.chains[id]
}

// watch starts c's watcher. r.mu is held. A chain looked at for the first time is marked at its
// head here, before the watcher starts, so that every message sent once watch returns is
// delivered (were the first look left to the watcher, a message sent before it ran would lie
// below the mark it takes).
func (r *Relay) watch(c *chain) {
	if err := r.markFirstLook(c); err != nil {
		r.log.Warn("relay: first look at a chain failed; its watcher tries again", "chainID", c.id.String(), "err", err)
	}
	r.wg.Go(func() { r.run(c) })
}

// markFirstLook marks c at its head, unless the relay has looked at it before.
func (r *Relay) markFirstLook(c *chain) error {
	if _, ok, err := r.lastMark(c.id); err != nil || ok {
		return err
	}
	head, err := c.client.HeaderByNumber(r.ctx, nil)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}
	return r.setMark(c.id, mark{head.Number.Uint64(), head.Hash()})
}

// run looks at c's new blocks as they are accepted, and every pollInterval, until Close.
func (r *Relay) run(c *chain) {
	heads := make(chan *types.Header, 16)
	sub, err := c.client.SubscribeNewHead(r.ctx, heads)
	if err != nil {
		if r.ctx.Err() == nil { // not a relay closed as it started (a node stopped at once)
			r.log.Error("relay: cannot follow chain", "chainID", c.id.String(), "err", err)
		}
		return
	}
	defer sub.Unsubscribe()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for scan := true; ; {
		if scan {
			if err := r.scan(c); err != nil && r.ctx.Err() == nil {
				r.log.Warn("relay: looking for messages failed; trying again", "chainID", c.id.String(), "err", err)
			}
		}
		select {
		case <-r.ctx.Done():
			return
		case err := <-sub.Err():
			if r.ctx.Err() == nil {
				r.log.Error("relay: chain subscription ended", "chainID", c.id.String(), "err", err)
			}
			return
		case h := <-heads:
			scan = r.mayHold(c, h)
		case <-tick.C:
			scan = true
		}
	}
}

// relayTopics are the topics of the events whose messages the relay delivers.
var relayTopics = []common.Hash{precompile.SendWarpMessageTopic(), icm.SendCrossChainMessageTopic()}

// mayHold reports whether c's new head h calls for a scan now: unless its logs bloom has
// neither of relayTopics (so the block holds no message) and the mark is not above it (so the
// next scan, at a head that may hold one or at the poll, goes through its height, or the mark
// already counts its height, where the block, new after a roll-back or not, holds nothing). A
// scan costs the node two calls and a synced write of the mark; skipping it for the empty
// blocks of a developer's evm_mine (and of the evm_snapshot, evm_mine, evm_revert loop of a
// test suite) spares the calls that follow (docs/benchmarks.md, issue #16); that scan finds a
// roll-back by the mark's hash. A head below the mark (a chain rolled back further) is scanned
// at once.
func (r *Relay) mayHold(c *chain, h *types.Header) bool {
	for _, topic := range relayTopics {
		if types.BloomLookup(h.Bloom, topic) {
			return true
		}
	}
	m, ok, err := r.lastMark(c.id)
	return err != nil || !ok || h.Number == nil || m > h.Number.Uint64()
}

// maxRange bounds one eth_getLogs query, the chains' own cap.
const maxRange = 2048

// scan delivers the messages of c's blocks after its mark up to its head, moving the mark
// past each range whose messages are all handed on. A chain seen for the first time is marked
// at its head: the relay delivers what is sent while it runs. A chain rolled back under the
// mark is scanned from the newest mark still on it (rescanFrom).
func (r *Relay) scan(c *chain) error {
	head, err := c.client.HeaderByNumber(r.ctx, nil)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}
	last := head.Number.Uint64()
	marks, err := r.marks(c.id)
	if err != nil {
		return err
	}
	if len(marks) == 0 {
		return r.setMark(c.id, mark{last, head.Hash()})
	}
	from, err := r.rescanFrom(c, marks, head)
	if err != nil {
		return err
	}
	for from < last {
		to := min(last, from+maxRange)
		logs, err := c.client.FilterLogs(r.ctx, ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(from + 1),
			ToBlock:   new(big.Int).SetUint64(to),
			Topics:    [][]common.Hash{relayTopics},
		})
		if err != nil {
			return fmt.Errorf("logs of blocks %d-%d: %w", from+1, to, err)
		}
		for _, s := range sentMessages(logs) {
			if err := r.deliver(c, s); err != nil {
				return fmt.Errorf("message %s of transaction %s: %w", s.msg.ID(), s.tx, err)
			}
		}
		// The hash read after the logs: a roll-back in between leaves a mark that is no
		// longer on the chain, and the next scan looks again.
		hash, err := r.hashAt(c, to, head)
		if err != nil {
			return err
		}
		if err := r.setMark(c.id, mark{to, hash}); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// rescanFrom returns the height after which c is to be scanned: its newest mark if that block
// is still on the chain, else the newest older mark still there, which becomes the mark (the
// chain was rolled back and the blocks after it may have been mined again, with messages, at
// heights the relay had handled), else 0 (rolled back below every mark kept: the whole chain).
func (r *Relay) rescanFrom(c *chain, marks []mark, head *types.Header) (uint64, error) {
	for i, m := range marks {
		if m.height > head.Number.Uint64() {
			continue
		}
		if m.hash != (common.Hash{}) {
			hash, err := r.hashAt(c, m.height, head)
			if err != nil {
				return 0, err
			}
			if hash != m.hash {
				continue
			}
		}
		if i == 0 {
			return m.height, nil
		}
		r.log.Info("relay: chain rolled back; looking again from an older block", "chainID", c.id.String(), "mark", marks[0].height, "from", m.height)
		return m.height, r.setMark(c.id, m)
	}
	r.log.Info("relay: chain rolled back below every block kept; looking again from genesis", "chainID", c.id.String(), "mark", marks[0].height)
	return 0, r.setMark(c.id, mark{})
}

// hashAt returns the hash of c's block at height, head's if it is head's height.
func (r *Relay) hashAt(c *chain, height uint64, head *types.Header) (common.Hash, error) {
	if height == head.Number.Uint64() {
		return head.Hash(), nil
	}
	h, err := c.client.HeaderByNumber(r.ctx, new(big.Int).SetUint64(height))
	if err != nil {
		return common.Hash{}, fmt.Errorf("header %d: %w", height, err)
	}
	return h.Hash(), nil
}

// deliver hands message s, sent on src, to its destination's messenger, unless it is for a
// chain the relay does not know, not for this relayer, or delivered already.
func (r *Relay) deliver(src *chain, s sent) error {
	dstID := ids.ID(s.teleporter.DestinationBlockchainID)
	dst := r.chain(dstID)
	if dst == nil {
		r.log.Debug("relay: message for a chain this node does not run", "destination", dstID.String())
		return nil
	}
	if !allowed(r.from, s.teleporter.AllowedRelayerAddresses) {
		r.log.Debug("relay: message for other relayers", "destination", dstID.String())
		return nil
	}
	id := icm.MessageID(src.id, dstID, s.teleporter.MessageNonce)
	log := r.log.With("messageID", id.Hex(), "source", src.id.String(), "destination", dstID.String())
	if done, err := r.handled(id); err != nil || done {
		return err
	}
	received, err := messageReceived(r.ctx, dst.client, s.messenger, id)
	if errors.Is(err, errNoMessenger) {
		// A messenger lives at the same address on every chain, or the message cannot be
		// delivered (the receiving messenger takes only its own address's messages).
		log.Warn("relay: no messenger at the destination", "messenger", s.messenger.Hex())
		return nil
	}
	if err != nil {
		return err
	}
	if received {
		log.Debug("relay: message delivered already")
		return r.setDelivered(id)
	}
	subnetID, err := r.cfg.Subnets.SubnetOf(r.ctx, src.id)
	if err != nil {
		return fmt.Errorf("subnet of the source: %w", err)
	}
	signed, err := r.cfg.Aggregator.Aggregate(r.ctx, s.msg, nil, subnetID, quorum, quorumBuffer)
	if err != nil {
		return fmt.Errorf("aggregate signatures: %w", err)
	}
	tx, err := r.send(dst, s, id, signed)
	if err != nil {
		return err
	}
	log.Debug("relay: delivery sent", "tx", tx.Hash().Hex())
	r.wg.Go(func() { r.await(dst, id, tx) })
	return nil
}

// The signatures a delivery carries: at least 67 % of the source's weight, all of it if it can
// be had, so that a destination with a higher quorum accepts it too.
const (
	quorum       = 67
	quorumBuffer = 33
)

// send signs the delivery of signed to dst's messenger, records it, then sends it. The record
// comes first: a crash between the two sends the same transaction again (resume).
func (r *Relay) send(dst *chain, s sent, id common.Hash, signed *warp.Message) (*types.Transaction, error) {
	dst.sendMu.Lock()
	defer dst.sendMu.Unlock()
	if err := r.ensureFunds(dst); err != nil {
		return nil, err
	}
	if err := r.ensureAllowed(dst); err != nil {
		return nil, err
	}
	data, err := icm.Messenger().ABI.Pack("receiveCrossChainMessage", uint32(0), r.from)
	if err != nil {
		return nil, err
	}
	predicate := precompile.PackPredicate(signed.Bytes())
	gas := deliveryBaseGas + deliveryChunkGas*uint64(len(predicate)) + deliveryReceiptGas*uint64(len(s.teleporter.Receipts))
	if s.teleporter.RequiredGasLimit.IsUint64() {
		required := s.teleporter.RequiredGasLimit.Uint64()
		gas += required + required/63 // the 1/64 a CALL keeps back
	}
	tx, err := r.signTx(dst, evmwait.Call{
		To: &s.messenger, Data: data, Gas: gas,
		AccessList: types.AccessList{{Address: l1params.WarpAddress, StorageKeys: predicate}},
	})
	if err != nil {
		return nil, err
	}
	if err := r.setPending(id, dst.id, tx); err != nil {
		return nil, err
	}
	if err := dst.client.SendTransaction(r.ctx, tx); err != nil {
		// A refusal may be a nonce gone stale or a role taken away: both are read again.
		dst.nonceKnown, dst.allowed = false, false
		if r.ctx.Err() != nil {
			// Stopping: whether the chain took it is unknown, so the record stays and the
			// next Start sends the same transaction again.
			return nil, err
		}
		// Refused: it will never execute. The record goes, and the next look tries again
		// with a new transaction.
		return nil, errors.Join(fmt.Errorf("send delivery: %w", err), r.unsetPending(id))
	}
	return tx, nil
}

// signTx signs a dynamic-fee transaction from the relayer on c with its next nonce there.
// c.sendMu is held.
func (r *Relay) signTx(c *chain, call evmwait.Call) (*types.Transaction, error) {
	if !c.nonceKnown {
		n, err := c.client.PendingNonceAt(r.ctx, r.from)
		if err != nil {
			return nil, fmt.Errorf("nonce: %w", err)
		}
		c.nonce, c.nonceKnown = n, true
	}
	tx, err := evmwait.Sign(r.ctx, c.client, r.key, c.chainID, c.nonce, call)
	if err != nil {
		return nil, err
	}
	c.nonce++
	return tx, nil
}

// ensureFunds tops the relayer up on c from the funder when it has less than minBalance.
// c.sendMu is held.
func (r *Relay) ensureFunds(c *chain) error {
	bal, err := c.client.BalanceAt(r.ctx, r.from, nil)
	if err != nil {
		return fmt.Errorf("relayer balance: %w", err)
	}
	if bal.Cmp(minBalance) >= 0 {
		return nil
	}
	if r.cfg.Funder == nil {
		return fmt.Errorf("%w: %s holds %s wei on %s", errNotFunded, r.from.Hex(), bal, c.id)
	}
	if err := r.fromFunder(c, evmwait.Call{To: &r.from, Value: topUp, Gas: 21_000}); err != nil {
		return fmt.Errorf("top up the relayer: %w", err)
	}
	r.log.Info("relay: relayer topped up", "chainID", c.id.String(), "relayer", r.from.Hex(), "wei", topUp.String())
	return nil
}

// ensureAllowed makes sure the relayer may send transactions on c: where c's transaction
// allow list is active and leaves it out, the funder enables it, when the list lets the
// funder (Admin or Manager). c.sendMu is held.
func (r *Relay) ensureAllowed(c *chain) error {
	if c.allowed {
		return nil
	}
	role, active, err := r.txAllowListRole(c, r.from)
	if err != nil {
		return err
	}
	if !active || role.IsEnabled() {
		c.allowed = true
		return nil
	}
	if r.cfg.Funder == nil {
		return fmt.Errorf("%w: %s on %s", errNotAllowed, r.from.Hex(), c.id)
	}
	funderRole, _, err := r.txAllowListRole(c, crypto.PubkeyToAddress(r.cfg.Funder.PublicKey))
	if err != nil {
		return err
	}
	if !funderRole.CanModify(role, precompile.RoleEnabled) {
		return fmt.Errorf("%w: %s on %s, and the funder is %s there", errNotAllowed, r.from.Hex(), c.id, funderRole)
	}
	data, err := precompile.AllowListABI().Pack("setEnabled", r.from)
	if err != nil {
		return err
	}
	if err := r.fromFunder(c, evmwait.Call{To: &l1params.TxAllowListAddress, Data: data, Gas: 100_000}); err != nil {
		return fmt.Errorf("enable the relayer on the transaction allow list: %w", err)
	}
	r.log.Info("relay: relayer enabled on the transaction allow list", "chainID", c.id.String(), "relayer", r.from.Hex())
	c.allowed = true
	return nil
}

// txAllowListRole returns addr's role in c's transaction allow list, and whether the list is
// active there (a call to the precompile's address returns nothing otherwise).
func (r *Relay) txAllowListRole(c *chain, addr common.Address) (precompile.Role, bool, error) {
	a := precompile.AllowListABI()
	data, err := a.Pack("readAllowList", addr)
	if err != nil {
		return 0, false, err
	}
	out, err := c.client.CallContract(r.ctx, ethereum.CallMsg{To: &l1params.TxAllowListAddress, Data: data}, nil)
	if err != nil {
		return 0, false, fmt.Errorf("read the transaction allow list: %w", err)
	}
	if len(out) == 0 {
		return 0, false, nil
	}
	vals, err := a.Unpack("readAllowList", out)
	if err != nil {
		return 0, false, fmt.Errorf("read the transaction allow list: %w", err)
	}
	role, ok := vals[0].(*big.Int)
	if !ok || !role.IsUint64() {
		return 0, false, fmt.Errorf("read the transaction allow list: role %v", vals[0])
	}
	return precompile.Role(role.Uint64()), true, nil
}

// fromFunder sends a transaction from the funder on c and waits until it succeeds.
func (r *Relay) fromFunder(c *chain, call evmwait.Call) error {
	_, err := evmwait.Transact(r.ctx, c.client, r.cfg.Funder, c.chainID, call, receiptWait)
	return err
}

// await waits for delivery tx of message id on dst and records the outcome.
func (r *Relay) await(dst *chain, id common.Hash, tx *types.Transaction) {
	rcpt, err := evmwait.Receipt(r.ctx, dst.client, tx.Hash(), receiptWait)
	if err != nil {
		if r.ctx.Err() == nil {
			r.log.Warn("relay: no receipt for a delivery; sent again at the next start", "messageID", id.Hex(), "tx", tx.Hash().Hex(), "err", err)
		}
		return
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		// Its gas was too low, or the message was delivered by someone else meanwhile, or
		// refused: it is not tried again (docs/decisions.md).
		r.log.Error("relay: delivery reverted", "messageID", id.Hex(), "tx", tx.Hash().Hex(), "block", rcpt.BlockNumber)
	}
	if err := r.setDelivered(id); err != nil {
		r.log.Error("relay: record delivery", "messageID", id.Hex(), "err", err)
	}
}

// resume sends again every recorded delivery not known to be accepted, and awaits each. r.mu
// is held.
func (r *Relay) resume() error {
	pending, err := r.pendings()
	if err != nil {
		return err
	}
	for _, p := range pending {
		dst := r.chains[p.chain]
		if dst == nil {
			r.log.Warn("relay: recorded delivery to a chain that is not running", "messageID", p.id.Hex(), "destination", p.chain.String())
			continue
		}
		// The same bytes: accepted already ("nonce too low"), pooled ("already known") or
		// sent now, it executes at most once.
		if err := dst.client.SendTransaction(r.ctx, p.tx); err != nil {
			r.log.Debug("relay: recorded delivery sent again", "messageID", p.id.Hex(), "err", err)
		}
		r.log.Info("relay: resuming a delivery", "messageID", p.id.Hex(), "tx", p.tx.Hash().Hex())
		r.wg.Go(func() { r.await(dst, p.id, p.tx) })
	}
	return nil
}

// allowed reports whether relayer may deliver a message that names allowedRelayers.
func allowed(relayer common.Address, allowedRelayers []common.Address) bool {
	return len(allowedRelayers) == 0 || slices.Contains(allowedRelayers, relayer)
}

// messageReceived asks the messenger at messenger on c whether it has message id.
func messageReceived(ctx context.Context, c Client, messenger common.Address, id common.Hash) (bool, error) {
	m := icm.Messenger()
	data, err := m.ABI.Pack("messageReceived", id)
	if err != nil {
		return false, err
	}
	out, err := c.CallContract(ctx, ethereum.CallMsg{To: &messenger, Data: data}, nil)
	if err != nil {
		return false, fmt.Errorf("messageReceived: %w", err)
	}
	vals, err := m.ABI.Unpack("messageReceived", out)
	if err != nil {
		// Nothing there answers (no code returns nothing), or something that is no messenger.
		return false, fmt.Errorf("%w: %w", errNoMessenger, err)
	}
	return vals[0].(bool), nil
}
