package chains

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Chain describes one chain the node runs.
type Chain struct {
	// ID is the blockchain ID (the P-Chain's is the all-zero ID).
	ID ids.ID
	// SubnetID is the subnet (or L1) that validates the chain; the Primary
	// Network's ID is the all-zero ID.
	SubnetID ids.ID
	// VMID is the ID of the VM that runs the chain.
	VMID ids.ID
	// Name is the chain's name from its creation (genesis or
	// CreateChainTx), for logs; it is not an alias.
	Name string
}

// Registry is the node's chain registry: chains, their aliases and their
// states. Build it with NewRegistry.
//
// Invariant: byAlias holds exactly the aliases listed in static and user,
// each mapped to the ID under which it is listed.
type Registry struct {
	store *storage.View
	log   *slog.Logger

	mu sync.RWMutex // guards the fields below
	// byAlias maps every alias to its ID.
	byAlias map[string]ids.ID
	// static holds each ID's aliases from PreAlias and Register, in order.
	static map[ids.ID][]string
	// user holds each ID's persisted aliases from Alias, in order.
	user map[ids.ID][]string
	// chains holds the registered chains; order lists them as registered.
	chains map[ids.ID]*entry
	order  []ids.ID
	// subs are called for every chain registered.
	subs []func(Chain)
	// nextSeq is the sequence number of the next persisted alias.
	// Invariant: greater than every sequence number in the store.
	nextSeq uint64
}

// entry is one registered chain.
type entry struct {
	chain Chain
	state State
}

// NewRegistry returns a registry over store, the key space the node gives
// it (storage.PrefixChains), with the aliases persisted there by earlier
// runs already loaded.
func NewRegistry(store *storage.View, log *slog.Logger) (*Registry, error) {
	r := &Registry{
		store:   store,
		log:     log,
		byAlias: make(map[string]ids.ID),
		static:  make(map[ids.ID][]string),
		user:    make(map[ids.ID][]string),
		chains:  make(map[ids.ID]*entry),
	}
	if err := r.load(); err != nil {
		return nil, err
	}
	return r, nil
}

// load reads the persisted aliases in the order they were added.
func (r *Registry) load() error {
	type record struct {
		alias string
		id    ids.ID
		seq   uint64
	}
	it, err := r.store.NewIterator([]byte(aliasKeyPrefix), nil)
	if err != nil {
		return fmt.Errorf("load chain aliases: %w", err)
	}
	var recs []record
	for it.Next() {
		alias := string(it.Key()[len(aliasKeyPrefix):])
		id, seq, err := decodeAliasRecord(it.Value())
		if err != nil {
			return errors.Join(fmt.Errorf("load chain alias %q: %w", alias, err), it.Close())
		}
		recs = append(recs, record{alias: alias, id: id, seq: seq})
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return fmt.Errorf("load chain aliases: %w", err)
	}
	slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.seq, b.seq) })
	for _, rec := range recs {
		r.byAlias[rec.alias] = rec.id
		r.user[rec.id] = append(r.user[rec.id], rec.alias)
		r.nextSeq = max(r.nextSeq, rec.seq+1)
	}
	if len(recs) > 0 {
		r.log.Debug("chain aliases loaded", "count", len(recs))
	}
	return nil
}

// PreAlias gives id aliases before its chain exists, as the node does at
// start-up for P/platform, X/avm and C/evm with the IDs from genesis. They
// are not persisted. An alias that already names id is skipped; one that
// names another ID, or that is another ID's string, fails the whole call
// and nothing is added.
func (r *Registry) PreAlias(id ids.ID, aliases ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	add, err := r.checkStaticLocked(id, aliases)
	if err != nil {
		return err
	}
	r.addStaticLocked(id, add)
	return nil
}

// Register adds chain c in state Created, gives it the aliases (primary
// first, such as "P", "platform") and then its ID string as aliases, and
// calls every OnRegister function with c. Aliases are checked as in
// PreAlias; on error nothing changes. Registering a chain twice fails with
// ErrRegistered.
func (r *Registry) Register(c Chain, aliases ...string) error {
	r.mu.Lock()
	if _, ok := r.chains[c.ID]; ok {
		r.mu.Unlock()
		return registeredError(c.ID)
	}
	add, err := r.checkStaticLocked(c.ID, append(slices.Clip(aliases), c.ID.String()))
	if err != nil {
		r.mu.Unlock()
		return err
	}
	r.addStaticLocked(c.ID, add)
	r.chains[c.ID] = &entry{chain: c, state: Created}
	r.order = append(r.order, c.ID)
	subs := slices.Clone(r.subs)
	primary := r.aliasesLocked(c.ID)[0]
	r.mu.Unlock()

	r.log.Debug("chain registered", "chainID", c.ID.String(), "alias", primary, "name", c.Name,
		"subnetID", c.SubnetID.String(), "vmID", c.VMID.String())
	// Called without the lock, so a subscriber may call back into r.
	for _, fn := range subs {
		fn(c)
	}
	return nil
}

// checkStaticLocked returns which of aliases PreAlias or Register must add
// for id, without duplicates, or why they cannot be added.
func (r *Registry) checkStaticLocked(id ids.ID, aliases []string) ([]string, error) {
	var add []string
	for _, alias := range aliases {
		if alias == "" {
			return nil, ErrEmptyAlias
		}
		if other, ok := r.byAlias[alias]; ok {
			if other == id {
				continue
			}
			return nil, aliasInUseError(alias)
		}
		if slices.Contains(add, alias) {
			continue
		}
		if parsed, err := ids.FromString(alias); err == nil && parsed != id {
			return nil, aliasIsIDError(alias)
		}
		add = append(add, alias)
	}
	return add, nil
}

func (r *Registry) addStaticLocked(id ids.ID, aliases []string) {
	for _, alias := range aliases {
		r.byAlias[alias] = id
	}
	r.static[id] = append(r.static[id], aliases...)
}

// Alias gives id another alias and persists it before returning, so it
// survives a restart (admin.aliasChain). It fails if alias is empty,
// already names an ID (ErrAliasInUse, whichever ID), or is an ID's string
// (ErrAliasIsID). The chain need not be registered yet.
func (r *Registry) Alias(id ids.ID, alias string) error {
	if alias == "" {
		return ErrEmptyAlias
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byAlias[alias]; ok {
		return aliasInUseError(alias)
	}
	if _, err := ids.FromString(alias); err == nil {
		return aliasIsIDError(alias)
	}
	// Persist first: memory changes only once the alias is on disk.
	if err := r.store.Put(aliasKey(alias), encodeAliasRecord(id, r.nextSeq)); err != nil {
		return fmt.Errorf("persist chain alias %q: %w", alias, err)
	}
	r.nextSeq++
	r.byAlias[alias] = id
	r.user[id] = append(r.user[id], alias)
	r.log.Debug("chain alias added", "chainID", id.String(), "alias", alias)
	return nil
}

// Lookup returns the ID that alias names (an alias, or the ID string of a
// registered chain). An unknown alias fails with
// `there is no ID with alias: <alias>` (node-api.md §3.3).
func (r *Registry) Lookup(alias string) (ids.ID, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.byAlias[alias]
	if !ok {
		return ids.ID{}, noIDWithAliasError(alias)
	}
	return id, nil
}

// PrimaryAlias returns id's first alias, or fails with
// `there is no alias for ID: <id>`.
func (r *Registry) PrimaryAlias(id ids.ID) (string, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	aliases := r.aliasesLocked(id)
	if len(aliases) == 0 {
		return "", noAliasForIDError(id)
	}
	return aliases[0], nil
}

// Aliases returns every alias of id, primary first, the ID string included
// once the chain is registered, as the reference's admin.getChainAliases
// does. An ID without aliases gives an empty slice and no error.
func (r *Registry) Aliases(id ids.ID) ([]string, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.aliasesLocked(id), nil
}

// aliasesLocked returns id's aliases in a new, non-nil slice.
func (r *Registry) aliasesLocked(id ids.ID) []string {
	out := make([]string, 0, len(r.static[id])+len(r.user[id]))
	out = append(out, r.static[id]...)
	return append(out, r.user[id]...)
}

// SetState records chain id's engine state. An unregistered chain fails
// with ErrNoChain.
func (r *Registry) SetState(id ids.ID, s State) error {
	r.mu.Lock()
	e, ok := r.chains[id]
	if ok {
		e.state = s
	}
	r.mu.Unlock()
	if !ok {
		return noChainError(id.String())
	}
	r.log.Debug("chain state changed", "chainID", id.String(), "state", s.String())
	return nil
}

// State returns chain id's engine state, and false if it is not
// registered.
func (r *Registry) State(id ids.ID) (State, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.chains[id]
	if !ok {
		return 0, false
	}
	return e.state, true
}

// IsBootstrapped reports whether the chain that chain (an alias or ID
// string) names is registered and in NormalOperation. It is false for an
// alias whose chain is not registered yet, and fails with
// `there is no chain with alias/ID '<chain>'` for an unknown alias
// (node-api.md §3.2). An empty chain is just an unknown alias here; the
// info service reports its own text for it.
func (r *Registry) IsBootstrapped(chain string) (bool, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.byAlias[chain]
	if !ok {
		return false, noChainError(chain)
	}
	e, ok := r.chains[id]
	return ok && e.state == NormalOperation, nil
}

// Chain returns the registered chain id, and false if there is none.
func (r *Registry) Chain(id ids.ID) (Chain, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.chains[id]
	if !ok {
		return Chain{}, false
	}
	return e.chain, true
}

// Chains returns the registered chains in registration order.
func (r *Registry) Chains() []Chain {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Chain, 0, len(r.order))
	for _, id := range r.order {
		out = append(out, r.chains[id].chain)
	}
	return out
}

// OnRegister calls fn for every chain already registered, then for every
// chain registered later, once each, as the HTTP router needs to add
// routes. fn runs on the goroutine that calls OnRegister or Register,
// without the registry's lock (so it may call r's methods), and may run
// concurrently with itself when chains are registered concurrently; it
// should not block.
func (r *Registry) OnRegister(fn func(Chain)) {
	r.mu.Lock()
	r.subs = append(r.subs, fn)
	existing := make([]Chain, 0, len(r.order))
	for _, id := range r.order {
		existing = append(existing, r.chains[id].chain)
	}
	r.mu.Unlock()
	for _, c := range existing {
		fn(c)
	}
}
