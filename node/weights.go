package node

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/validators"
)

// chainWeights gives the router each chain's validator weights (router.Weights): the benchlist
// asks on every answer and AppGossip for each peer, so each chain's subnet and its weights are
// read once and kept until a validator set changes (validators.Set.Version), not looked up under
// three locks each time.
type chainWeights struct {
	set *validators.Set
	// subnetOf names a chain's subnet; an error (a chain not known yet) is not cached.
	subnetOf func(chainID ids.ID) (ids.ID, error)

	mu sync.Mutex // serialises the stores of cur
	// cur is what was read at one version of set; a snapshot stored there never changes.
	cur atomic.Pointer[weightSnapshot]
}

// weightSnapshot is the weights of some chains' subnets as of one version of the validator set.
type weightSnapshot struct {
	version uint64
	chains  map[ids.ID]subnetSet
}

// subnetSet is one subnet's validators and their total.
type subnetSet struct {
	weights map[ids.NodeID]uint64
	total   uint64
}

func newChainWeights(set *validators.Set, subnetOf func(ids.ID) (ids.ID, error)) *chainWeights {
	return &chainWeights{set: set, subnetOf: subnetOf}
}

// Weights implements router.Weights: nodeID's weight in the set of chainID's subnet and the
// set's total; nothing for a chain whose subnet is unknown.
func (c *chainWeights) Weights(chainID ids.ID, nodeID ids.NodeID) (weight, total uint64) {
	// The version is read before the weights: a change after it makes the next call read again.
	v := c.set.Version()
	w, ok := subnetSet{}, false
	if s := c.cur.Load(); s != nil && s.version == v {
		w, ok = s.chains[chainID]
	}
	if !ok {
		if w, ok = c.load(chainID, v); !ok {
			return 0, 0
		}
	}
	return w.weights[nodeID], w.total
}

// load reads chainID's subnet weights and keeps them as of version v, unless a snapshot of a
// later version is kept already.
func (c *chainWeights) load(chainID ids.ID, v uint64) (subnetSet, bool) {
	subnetID, err := c.subnetOf(chainID)
	if err != nil {
		return subnetSet{}, false
	}
	weights, err := c.set.Weights(subnetID)
	if err != nil {
		return subnetSet{}, false
	}
	w := subnetSet{weights: weights}
	for _, x := range weights {
		w.total += x // a Set's total never overflows
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.cur.Load()
	switch {
	case old == nil || old.version < v:
		c.cur.Store(&weightSnapshot{version: v, chains: map[ids.ID]subnetSet{chainID: w}})
	case old.version == v:
		chains := maps.Clone(old.chains)
		chains[chainID] = w
		c.cur.Store(&weightSnapshot{version: v, chains: chains})
	}
	return w, true
}
