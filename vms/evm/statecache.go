package evm

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
)

// Bounds of a stateCache: past them a read is answered from the trie and not kept. A slot
// costs about 100 bytes with its map entry, an account about 200: a full cache holds a few
// MiB, whatever addresses and slots clients ask for.
const (
	cachedAccounts = 8 << 10
	cachedSlots    = 32 << 10
)

// stateCache is go-ethereum's reader of one state root that keeps the accounts and storage
// slots read through it, shared by every read of that state: the head's, which nearly every
// eth_call, eth_getBalance and eth_getStorageAt reads. Without it each call opens the head's
// state afresh and finds each account and slot in the Merkle-Patricia trie again (key
// hashing, node decoding): about half of an eth_call's execution (docs/benchmarks.md).
//
// A state root names its content for good (the trie is content-addressed, and the hash
// scheme keeps every root), so what the cache holds is never stale: a block, a developer
// method's edit or a roll-back that changes the state changes the root, and a cache of
// another root is never consulted (VM.headStateCache). It is safe for concurrent use.
type stateCache struct {
	state.Reader
	root common.Hash

	mu       sync.RWMutex // guards the maps
	accounts map[common.Address]*types.StateAccount
	slots    map[slotKey]common.Hash

	// states holds idle StateDBs of root (putState).
	states sync.Pool
}

// slotKey names one storage slot of one account.
type slotKey struct {
	addr common.Address
	slot common.Hash
}

var _ state.Reader = (*stateCache)(nil)

func newStateCache(root common.Hash, r state.Reader) *stateCache {
	return &stateCache{
		Reader:   r,
		root:     root,
		accounts: make(map[common.Address]*types.StateAccount),
		slots:    make(map[slotKey]common.Hash),
	}
}

// Account implements state.StateReader. The account returned is the caller's to modify (the
// interface's contract), so the cache hands out copies; nil means no account.
func (c *stateCache) Account(addr common.Address) (*types.StateAccount, error) {
	c.mu.RLock()
	acct, ok := c.accounts[addr]
	c.mu.RUnlock()
	if !ok {
		var err error
		if acct, err = c.Reader.Account(addr); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if len(c.accounts) < cachedAccounts {
			c.accounts[addr] = acct
		}
		c.mu.Unlock()
	}
	if acct == nil {
		return nil, nil
	}
	return acct.Copy(), nil
}

// Storage implements state.StateReader.
func (c *stateCache) Storage(addr common.Address, slot common.Hash) (common.Hash, error) {
	k := slotKey{addr, slot}
	c.mu.RLock()
	v, ok := c.slots[k]
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := c.Reader.Storage(addr, slot)
	if err != nil {
		return common.Hash{}, err
	}
	c.mu.Lock()
	if len(c.slots) < cachedSlots {
		c.slots[k] = v
	}
	c.mu.Unlock()
	return v, nil
}

// headState opens the state at root, the state in effect after the last accepted block,
// through the cache of that root: the one kept, or a new one that replaces it. Callers racing
// with a move of the head may replace each other's cache; each cache is right for its root,
// and the next read of the head settles on the head's. The state is an idle one of the
// cache's if there is one (callEnv.states), else a new one; either way it is the caller's
// alone, and c is the cache it was opened through.
func (vm *VM) headState(root common.Hash) (st *state.StateDB, c *stateCache, err error) {
	old := vm.headCache.Load()
	c = old
	if c == nil || c.root != root {
		r, err := vm.statedb.Reader(root)
		if err != nil {
			return nil, nil, err
		}
		c = newStateCache(root, r)
		vm.headCache.CompareAndSwap(old, c)
	}
	if st, _ := c.states.Get().(*state.StateDB); st != nil {
		return st, c, nil
	}
	st, err = state.NewWithReader(root, vm.statedb, c)
	return st, c, err
}

// putState makes st, opened by headState through c, idle for another call, if it is as it
// was opened: a call reverts what it changed (runPooled), a read keeps what it found (the
// state objects and slots read, right for the root whatever else reads it). Its journal,
// maps and objects are then not made again for each call: with the EVM's, a fifth of an
// eth_call's allocations. A state with a database error keeps it, and is dropped.
func (c *stateCache) putState(st *state.StateDB) {
	if st.Error() == nil {
		c.states.Put(st)
	}
}
