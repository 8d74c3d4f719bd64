package node

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/platform"
)

// SubnetEVMID is the VM of L1 EVM chains, `srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy`
// (platform-exchange.md): the ID made from the name "subnetevm".
var SubnetEVMID = ids.FromName("subnetevm")

// pChain is what the node reads from the P-Chain's VM to run the chains of other subnets and to
// know their validators. *platform.VM implements it; every method reads the last accepted state.
type pChain interface {
	Blockchains() ([]platform.Blockchain, error)
	ValidatesSubnet(nodeID ids.NodeID, subnetID ids.ID) (bool, error)
	SubnetValidators(subnetID ids.ID) ([]platform.SubnetValidator, error)
	PrimaryStakers() ([]platform.SubnetValidator, error)
	CurrentValidators(subnetID ids.ID) ([]platform.SubnetValidator, []platform.L1Validator, error)
}

var _ pChain = (*platform.VM)(nil)

// subnets runs the chains recorded on the P-Chain outside the Primary Network and keeps the
// node's validator set of every subnet in line with the P-Chain (issue #6 §1, issue #5 §3).
//
// It syncs once at start-up, before the node serves, then after every accepted P-Chain block, on
// one worker goroutine fed by the P-Chain's subscription: the acceptance path only drops a token
// in a channel of one, so several blocks accepted while a sync runs cause one more sync.
type subnets struct {
	n *Node
	p pChain

	// wake holds one token when a sync is due. Only the P-Chain subscriber sends; it is never
	// closed.
	wake        chan struct{}
	unsubscribe func()
	cancel      context.CancelFunc
	wg          sync.WaitGroup

	// The fields below are used by the goroutine that syncs only: build, then the worker.
	//
	// failed holds the chains that could not be created, with why; they are not retried
	// before a restart (a half-created chain stays registered), and health reports them.
	failed map[ids.ID]error
	// known lists every subnet whose validator set the node has refreshed, so a subnet whose
	// last validator left is emptied too.
	known map[ids.ID]struct{}
	// uptimes holds the uptime tracking of each running subnet chain, by chain ID.
	uptimes map[ids.ID]*chainUptime
}

// startSubnets starts the chains of the subnets this node tracks or validates and refreshes the
// validator set, then keeps doing so after each accepted P-Chain block until close. It does
// nothing on a node without a P-Chain, or whose chain at the P-Chain's ID runs another VM (tests
// run test VMs there).
func (n *Node) startSubnets(ctx context.Context) error {
	vm, ok := n.manager.VM(ids.Empty)
	if !ok {
		return nil
	}
	p, ok := vm.(pChain)
	if !ok {
		n.log.Debug("the chain at the P-Chain's ID is not the platform VM: no subnet chain runs")
		return nil
	}
	s := &subnets{
		n:       n,
		p:       p,
		wake:    make(chan struct{}, 1),
		failed:  make(map[ids.ID]error),
		known:   make(map[ids.ID]struct{}),
		uptimes: make(map[ids.ID]*chainUptime),
	}
	// Subscribe before the first sync, so that a block accepted during it causes another.
	s.unsubscribe = n.manager.Subscribe(ids.Empty, func(chains.Block) {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	})
	n.subnets = s
	if err := s.sync(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.wg.Go(func() { s.run(runCtx) })
	return nil
}

// run syncs after every wake-up until ctx is done. A failed sync is logged; the next P-Chain
// block tries again.
func (s *subnets) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
			if err := s.sync(ctx); err != nil && ctx.Err() == nil {
				s.n.log.Error("sync with the P-Chain", "err", err)
			}
		}
	}
}

// close stops the worker and waits for it (a chain being created finishes, or fails with the
// cancelled context, first), then persists and closes the uptime trackers. It is safe on a nil
// *subnets and more than once.
func (s *subnets) close() error {
	if s == nil {
		return nil
	}
	s.unsubscribe()
	if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
	return s.closeUptimes()
}

// sync creates the chains that should run and do not, then refreshes the validator set. A chain
// that fails is logged and reported in health, and the others still start; only a failure to
// read the P-Chain is returned.
func (s *subnets) sync(ctx context.Context) error {
	all, err := s.p.Blockchains()
	if err != nil {
		return fmt.Errorf("list blockchains: %w", err)
	}
	subnetIDs := make(map[ids.ID]struct{})
	for _, bc := range all {
		if bc.SubnetID != ids.Empty {
			subnetIDs[bc.SubnetID] = struct{}{}
		}
	}
	for _, id := range s.n.cfg.TrackSubnets {
		subnetIDs[id] = struct{}{}
	}
	// A chain's engine is chosen from its subnet's validators when the chain is created (solo
	// when no weight is recorded): they must be set first, or every node would run a new L1's
	// chain alone and none would agree with another.
	refreshed := s.refreshValidators(subnetIDs)
	for _, bc := range all {
		if bc.SubnetID == ids.Empty {
			continue // X and C run from the genesis (primaryNetwork)
		}
		run, err := s.shouldRun(bc)
		if err != nil {
			return err
		}
		if !run {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.create(ctx, bc); err != nil {
			s.fail(bc, err)
		}
	}
	return errors.Join(refreshed, s.syncUptimes(), s.n.primaryUptime.sync(s.p))
}

// shouldRun reports whether chain bc should be created now: its VM is one this node has, it is
// not running or failed already, and this node tracks or validates its subnet.
func (s *subnets) shouldRun(bc platform.Blockchain) (bool, error) {
	if _, ok := s.n.vms[bc.VMID]; !ok {
		return false, nil
	}
	if _, ok := s.n.manager.VM(bc.ID); ok {
		return false, nil
	}
	if _, ok := s.failed[bc.ID]; ok {
		return false, nil
	}
	if slices.Contains(s.n.cfg.TrackSubnets, bc.SubnetID) {
		return true, nil
	}
	validates, err := s.p.ValidatesSubnet(s.n.nodeID, bc.SubnetID)
	if err != nil {
		return false, fmt.Errorf("does this node validate subnet %s: %w", bc.SubnetID, err)
	}
	return validates, nil
}

// create creates chain bc with its VM's factory and its files from the chain-config directory.
func (s *subnets) create(ctx context.Context, bc platform.Blockchain) error {
	c := Chain{Spec: chains.Spec{
		Chain: chains.Chain{ID: bc.ID, SubnetID: bc.SubnetID, VMID: bc.VMID, Name: bc.Name},
		// Every chain's key space is its VM kind's prefix followed by its ID, so L1 chains never
		// share keys with each other or with the C-Chain.
		Prefix:  storage.PrefixEVM,
		Factory: s.n.vms[bc.VMID],
		Genesis: bc.Genesis,
		// --evm-block-time applies to every EVM chain, the C-Chain's and the L1s'.
		MinBlockGap: s.n.cfg.EVMBlockTime,
	}}
	if err := s.n.createChains(ctx, []Chain{c}); err != nil {
		return err
	}
	if err := s.serveValidators(bc.ID, bc.SubnetID); err != nil {
		return err
	}
	s.n.log.Debug("subnet chain started", "chainID", bc.ID.String(), "subnetID", bc.SubnetID.String(),
		"name", bc.Name, "vmID", bc.VMID.String())
	return nil
}

// fail records that chain bc could not be created: it is logged at Error (an operator must act)
// and its health check fails with err until a restart.
func (s *subnets) fail(bc platform.Blockchain, err error) {
	s.failed[bc.ID] = err
	s.n.log.Error("subnet chain failed to start", "chainID", bc.ID.String(), "subnetID", bc.SubnetID.String(),
		"name", bc.Name, "err", err)
	if s.n.health == nil {
		return
	}
	check := func(context.Context) (any, error) { return nil, chainStartError(bc.ID, err) }
	if herr := s.n.health.Register(health.Health, "chain-"+bc.ID.String(), []string{bc.ID.String()}, check); herr != nil {
		s.n.log.Warn("register health check of a failed chain", "chainID", bc.ID.String(), "err", herr)
	}
}

// refreshValidators sets the validator set of each subnet in subnetIDs, and of every subnet
// refreshed before, to the P-Chain's: its L1 validators that are active (weight and balance
// above 0) plus its current legacy validators, a node's weights added up; and the Primary
// Network's, which the P-Chain reports as this node (weights).
func (s *subnets) refreshValidators(subnetIDs map[ids.ID]struct{}) error {
	subnetIDs[ids.Empty] = struct{}{}
	for id := range s.known {
		subnetIDs[id] = struct{}{}
	}
	var errs []error
	for subnetID := range subnetIDs {
		s.known[subnetID] = struct{}{}
		want, err := s.weights(subnetID)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		errs = append(errs, setWeights(s.n.validators, subnetID, want))
	}
	return errors.Join(errs...)
}

// weights returns the weight of each validator of subnetID: the P-Chain's, except for the
// Primary Network of a node among other validators, whose validators are the genesis stakers
// (docs/decisions.md, "One node or many"): the P-Chain counts this node as holding their stake.
func (s *subnets) weights(subnetID ids.ID) (map[ids.NodeID]uint64, error) {
	if subnetID == ids.Empty && s.n.genesisStakers != nil {
		return maps.Clone(s.n.genesisStakers), nil
	}
	return subnetWeights(s.p, subnetID)
}

// subnetWeights returns the weight of each validator of subnetID on the P-Chain: the current
// validators the validators API lists (currentValidators), less the inactive ones, a node's
// weights added up. One reading of the P-Chain serves both, so they cannot disagree on who is a
// validator.
func subnetWeights(p pChain, subnetID ids.ID) (map[ids.NodeID]uint64, error) {
	vals, err := currentValidators(p, subnetID)
	if err != nil {
		return nil, fmt.Errorf("read validators of subnet %s: %w", subnetID, err)
	}
	want := make(map[ids.NodeID]uint64)
	for _, v := range vals {
		if v.IsActive && v.Weight > 0 {
			want[v.NodeID] = saturatingAdd(want[v.NodeID], v.Weight)
		}
	}
	return want, nil
}

// saturatingAdd returns a + b, or the largest uint64 when the sum overflows: a node's weights
// added up across its validations never wrap around to a small weight.
func saturatingAdd(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

// setWeights changes subnetID's validators in set to exactly want.
func setWeights(set *validators.Set, subnetID ids.ID, want map[ids.NodeID]uint64) error {
	var errs []error
	for _, v := range set.List(subnetID) {
		w, ok := want[v.NodeID]
		delete(want, v.NodeID)
		switch {
		case !ok || w == 0:
			errs = append(errs, set.Remove(subnetID, v.NodeID))
		case w < v.Weight:
			errs = append(errs, set.RemoveWeight(subnetID, v.NodeID, v.Weight-w))
		case w > v.Weight:
			errs = append(errs, set.Add(subnetID, v.NodeID, w-v.Weight))
		}
	}
	for nodeID, w := range want {
		if w > 0 {
			errs = append(errs, set.Add(subnetID, nodeID, w))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("set validators of subnet %s: %w", subnetID, err)
	}
	return nil
}

// chainFiles reads the chain's upgrade.json and config.json from the chain-config directory
// (l1-evm.md §4.5): from <dir>/<chain ID>, else from the directory of the first of aliases that
// has one. A file that does not exist is nil.
func chainFiles(dir string, id ids.ID, aliases []string) (upgrade, config []byte, err error) {
	for _, name := range append([]string{id.String()}, aliases...) {
		d := filepath.Join(dir, name)
		info, err := os.Stat(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read chain config directory: %w", err)
		}
		if !info.IsDir() {
			continue
		}
		if upgrade, err = readOptional(filepath.Join(d, "upgrade.json")); err != nil {
			return nil, nil, err
		}
		if config, err = readOptional(filepath.Join(d, "config.json")); err != nil {
			return nil, nil, err
		}
		return upgrade, config, nil
	}
	return nil, nil, nil
}

// readOptional reads path, nil if it does not exist.
func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read chain config: %w", err)
	}
	// An empty file is no file (the VMs' rule); anything else must be JSON, and a typo is
	// reported where it is in the file, not by the VM that cannot know the file's name.
	if len(bytes.TrimSpace(b)) > 0 {
		if err := config.CheckJSON(path, b); err != nil {
			return nil, fmt.Errorf("chain config %w", err)
		}
	}
	return b, nil
}
