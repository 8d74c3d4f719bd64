package evm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	shared "github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// atomicSide is the C-Chain's part in moving AVAX between chains: its atomic txs' rules, the
// shared memory they read and write, and the mempool of txs waiting for a block.
type atomicSide struct {
	ctx    atomic.Context
	xChain ids.ID
	shared *shared.SharedMemory
	pool   *atomicPool
}

func newAtomicSide(networkID uint32, chainID ids.ID, cfg *AtomicConfig, sm *shared.SharedMemory) *atomicSide {
	x, p := cfg.XChainID, ids.Empty
	return &atomicSide{
		ctx: atomic.Context{
			NetworkID:   networkID,
			ChainID:     chainID,
			AVAXAssetID: cfg.AVAXAssetID,
			IsPeer:      func(id ids.ID) bool { return id == x || id == p },
			PChainID:    p,
		},
		xChain: x,
		shared: sm,
		pool:   newAtomicPool(),
	}
}

// atomicDigest is what a header's MixDigest holds: keccak256 of the block's atomic-tx batch, or
// zero for a block without one (docs/decisions.md, C-Chain atomic txs).
func atomicDigest(extData []byte) common.Hash {
	if len(extData) == 0 {
		return common.Hash{}
	}
	return crypto.Keccak256Hash(extData)
}

// Keys of the atomic records beside the chain data (go-ethereum's rawdb keys are one-letter
// prefixes or 32-byte hashes and never these): a block's batch by block hash, and each accepted
// atomic tx by ID, as the height of its block then its signed bytes.
var (
	atomicBlockPrefix = []byte("cornice-atomic-block-")
	atomicTxPrefix    = []byte("cornice-atomic-tx-")
)

func atomicBlockKey(hash common.Hash) []byte {
	return append(append([]byte{}, atomicBlockPrefix...), hash[:]...)
}
func atomicTxKey(id ids.ID) []byte { return append(append([]byte{}, atomicTxPrefix...), id[:]...) }

// verifyAtomic checks tx for a block with base fee baseFee (wei) and time now, and applies its
// transfer to st: the reference's semantic verification and EVM state transfer. Conflicts with
// other txs are the caller's to check. On error st may be changed; the caller reverts it.
func (a *atomicSide) verifyAtomic(tx *atomic.Tx, baseFee *big.Int, st *state.StateDB, now uint64) error {
	if err := tx.Verify(&a.ctx); err != nil {
		return err
	}
	kind, ins := "import", 0
	switch u := tx.Unsigned().(type) {
	case *atomic.ImportTx:
		ins = len(u.ImportedInputs)
	case *atomic.ExportTx:
		kind, ins = "export", len(u.Ins)
	}
	fee, err := atomic.Fee(tx.GasUsed(), baseFee)
	if err != nil {
		return err
	}
	if burned, err := tx.Burned(a.ctx.AVAXAssetID); err != nil || burned < fee {
		return flowCheckError(kind)
	}
	if len(tx.Creds()) != ins {
		return credentialCountError(kind, ins, len(tx.Creds()))
	}
	switch u := tx.Unsigned().(type) {
	case *atomic.ImportTx:
		if err := a.verifyImport(tx, u, now); err != nil {
			return err
		}
		for i := range u.Outs {
			amount := new(uint256.Int).Mul(uint256.NewInt(u.Outs[i].Amount), uint256.NewInt(atomic.X2CRate))
			st.AddBalance(u.Outs[i].Address, amount, tracing.BalanceChangeUnspecified)
		}
	case *atomic.ExportTx:
		for i := range u.Ins {
			if n := len(tx.Creds()[i].Sigs); n != 1 {
				return signatureCountError(n)
			}
			signer, err := atomic.SignerEthAddress(tx, i, 0)
			if err != nil {
				return err
			}
			if signer != u.Ins[i].Address {
				return errPublicKeySignatureMismatch
			}
		}
		nonces := make(map[common.Address]uint64, len(u.Ins))
		for i := range u.Ins {
			in := &u.Ins[i]
			amount := new(uint256.Int).Mul(uint256.NewInt(in.Amount), uint256.NewInt(atomic.X2CRate))
			if st.GetBalance(in.Address).Cmp(amount) < 0 {
				return errInsufficientFunds
			}
			st.SubBalance(in.Address, amount, tracing.BalanceChangeUnspecified)
			if st.GetNonce(in.Address) != in.Nonce {
				return errInvalidNonce
			}
			nonces[in.Address] = in.Nonce
		}
		for addr, nonce := range nonces {
			st.SetNonce(addr, nonce+1, tracing.NonceChangeUnspecified)
		}
	}
	return nil
}

// verifyImport checks that the UTXOs an ImportTx spends are in shared memory and that its
// credentials may spend them at time now.
func (a *atomicSide) verifyImport(tx *atomic.Tx, u *atomic.ImportTx, now uint64) error {
	values, err := a.shared.Get(u.SourceChain, tx.InputIDs())
	if errors.Is(err, shared.ErrNotFound) {
		err = errNotFound
	}
	if err != nil {
		return fetchUTXOsError(u.SourceChain, err)
	}
	for i := range u.ImportedInputs {
		in := &u.ImportedInputs[i]
		ux, err := xtxs.ParseUTXO(values[i])
		if err != nil {
			return fmt.Errorf("failed to unmarshal UTXO: %w", err)
		}
		if ux.AssetID != in.AssetID {
			return errAssetIDMismatch
		}
		if err := utxo.VerifySpend(nil, in.AssetID, in.In, ux.AssetID, ux.Out, tx, i, now); err != nil {
			return fmt.Errorf("import tx transfer failed verification: %w", err)
		}
	}
	return nil
}

// requests returns what accepting txs does to shared memory, by peer chain: the UTXOs imports
// consume and those exports produce.
func atomicRequests(txs []*atomic.Tx) (map[ids.ID]*shared.Requests, error) {
	reqs := make(map[ids.ID]*shared.Requests)
	for _, tx := range txs {
		peer := tx.PeerChain()
		r := reqs[peer]
		if r == nil {
			r = &shared.Requests{}
			reqs[peer] = r
		}
		if _, ok := tx.Unsigned().(*atomic.ImportTx); ok {
			r.Remove = append(r.Remove, tx.InputIDs()...)
			continue
		}
		for _, ux := range tx.ExportedUTXOs() {
			b, err := ux.Bytes()
			if err != nil {
				return nil, fmt.Errorf("encode UTXO exported by %s: %w", tx.ID(), err)
			}
			var traits []ids.ShortID
			if out, ok := ux.Out.(*secp256k1fx.TransferOutput); ok {
				traits = out.Addrs
			}
			r.Put = append(r.Put, shared.Element{Key: ux.InputID(), Value: b, Traits: traits})
		}
	}
	return reqs, nil
}

// acceptAtomic stages with put, into the accepted block's batch over the chain data, the block's
// atomic records, and into batch its shared-memory requests.
func (a *atomicSide) acceptAtomic(batch *storage.Batch, put func(key, value []byte) error, b *Block) error {
	if len(b.atomicTxs) == 0 {
		return nil
	}
	hash, height := b.eth.Hash(), b.eth.NumberU64()
	if err := put(atomicBlockKey(hash), b.extData); err != nil {
		return err
	}
	for _, tx := range b.atomicTxs {
		rec := binary.BigEndian.AppendUint64(make([]byte, 0, 8+tx.Size()), height)
		if err := put(atomicTxKey(tx.ID()), append(rec, tx.Bytes()...)); err != nil {
			return err
		}
	}
	reqs, err := atomicRequests(b.atomicTxs)
	if err != nil {
		return err
	}
	if err := a.shared.Apply(batch, reqs); err != nil {
		return fmt.Errorf("shared memory of block %s: %w", hash, err)
	}
	return nil
}

// atomicInputs returns what the atomic txs of processing block proc and of its processing
// ancestors consume, and their IDs; proc nil (the last accepted block) gives none.
func (vm *VM) atomicInputs(proc *Block) (inputs, txIDs map[ids.ID]struct{}) {
	inputs, txIDs = make(map[ids.ID]struct{}), make(map[ids.ID]struct{})
	for p, ok := proc, proc != nil; ok; p, ok = vm.processingBlock(p.eth.ParentHash()) {
		for _, tx := range p.atomicTxs {
			txIDs[tx.ID()] = struct{}{}
			for _, in := range tx.InputIDs() {
				inputs[in] = struct{}{}
			}
		}
	}
	return inputs, txIDs
}

// spend records tx's inputs in e.spent, failing if one is there already.
func (e *executor) spend(tx *atomic.Tx) error {
	ins := tx.InputIDs()
	for _, in := range ins {
		if _, ok := e.spent[in]; ok {
			return errConflictingAtomicInputs
		}
	}
	for _, in := range ins {
		e.spent[in] = struct{}{}
	}
	return nil
}

// pickAtomic adds to the block being built, after its EVM txs, the pending atomic txs that fit
// in its remaining gas and verify, highest gas price first; proc is its processing parent (nil:
// the last accepted block). A tx that conflicts or fails is dropped from the pool, as the
// reference's builder discards it.
func (e *executor) pickAtomic(proc *Block) error {
	a := e.vm.atomic
	var inAncestors map[ids.ID]struct{}
	e.spent, inAncestors = e.vm.atomicInputs(proc)
	for _, tx := range a.pool.pending() {
		if _, ok := inAncestors[tx.ID()]; ok {
			continue
		}
		gas := tx.GasUsed()
		if e.atomicGas+gas > e.gp.Available(false) {
			continue // the next block
		}
		if err := e.spend(tx); err != nil {
			e.vm.log.Debug("atomic tx dropped", "tx", tx.ID(), "err", err)
			a.pool.drop(tx)
			continue
		}
		snap := e.state.Snapshot()
		if err := a.verifyAtomic(tx, e.header.BaseFee, e.state, e.header.Time); err != nil {
			e.state.RevertToSnapshot(snap)
			for _, in := range tx.InputIDs() {
				delete(e.spent, in)
			}
			e.vm.log.Debug("atomic tx dropped", "tx", tx.ID(), "err", err)
			a.pool.drop(tx)
			continue
		}
		e.state.Finalise(e.rules)
		e.atomicTxs = append(e.atomicTxs, tx)
		e.atomicGas += gas
	}
	return nil
}

// applyAtomic applies the atomic txs of b, a block being verified, after its EVM txs: each must
// verify, spend nothing b's processing ancestors or earlier txs of b spend, and all fit in the
// block's remaining gas.
func (e *executor) applyAtomic(b *Block) error {
	if len(b.atomicTxs) == 0 {
		return nil
	}
	a := e.vm.atomic
	if a == nil {
		return errAtomicBlock // only the C-Chain has atomic txs
	}
	parent, _ := e.vm.processingBlock(b.eth.ParentHash())
	e.spent, _ = e.vm.atomicInputs(parent)
	for _, tx := range b.atomicTxs {
		if err := e.spend(tx); err != nil {
			return err
		}
		gas := tx.GasUsed()
		if e.atomicGas+gas > e.gp.Available(false) {
			return errAtomicGas
		}
		if err := a.verifyAtomic(tx, e.header.BaseFee, e.state, e.header.Time); err != nil {
			return fmt.Errorf("invalid block due to failed semantic verify: %w at height %d", err, e.header.Number)
		}
		e.state.Finalise(e.rules)
		e.atomicTxs = append(e.atomicTxs, tx)
		e.atomicGas += gas
	}
	return nil
}

// parseAtomicBatch parses a block's batch of atomic txs; none gives nil.
func parseAtomicBatch(extData []byte) ([]*atomic.Tx, error) {
	if extData == nil {
		return nil, nil
	}
	txs, err := atomic.ParseBatch(extData)
	if err != nil {
		return nil, fmt.Errorf("decode block's atomic txs: %w", err)
	}
	if len(txs) == 0 {
		return nil, errAtomicBlock
	}
	return txs, nil
}

// atomicExtData returns the batch of atomic txs of the accepted block with header h and their
// gas; nil and 0 for a block without any.
func (vm *VM) atomicExtData(h *types.Header) ([]byte, uint64, error) {
	if h.MixDigest == (common.Hash{}) {
		return nil, 0, nil
	}
	extData, err := vm.kv.Get(atomicBlockKey(h.Hash()))
	if err != nil {
		return nil, 0, fmt.Errorf("atomic txs of block %s: %w", h.Hash(), err)
	}
	txs, err := parseAtomicBatch(extData)
	if err != nil {
		return nil, 0, err
	}
	var gas uint64
	for _, tx := range txs {
		gas += tx.GasUsed()
	}
	return extData, gas, nil
}
