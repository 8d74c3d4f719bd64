package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/api/l1validators"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
)

var (
	_ l1validators.Source  = subnetSource{}
	_ l1validators.Uptimes = (*uptime.Tracker)(nil)
)

// subnetSource reads the current validators of one subnet from the P-Chain for the validators
// API of the subnet's chains (l1-evm.md §2.4).
type subnetSource struct {
	p        pChain
	subnetID ids.ID
}

// CurrentValidators returns the subnet's L1 validators of weight above 0, active or not, and its
// current legacy validators.
func (s subnetSource) CurrentValidators(context.Context) ([]l1validators.Validator, error) {
	return currentValidators(s.p, s.subnetID)
}

// currentValidators lists subnetID's current validators as the validators API describes them, the
// L1 and the legacy ones as of one P-Chain block.
func currentValidators(p pChain, subnetID ids.ID) ([]l1validators.Validator, error) {
	legacy, l1, err := p.CurrentValidators(subnetID)
	if err != nil {
		return nil, err
	}
	out := make([]l1validators.Validator, 0, len(l1)+len(legacy))
	for _, v := range l1 {
		if v.Weight == 0 {
			continue // removed: not in the current set
		}
		out = append(out, l1validators.Validator{
			ValidationID:  v.ValidationID,
			NodeID:        v.NodeID,
			Weight:        v.Weight,
			StartTime:     v.StartTime,
			IsActive:      v.Balance > 0,
			IsL1Validator: true,
		})
	}
	for _, v := range legacy {
		out = append(out, l1validators.Validator{
			ValidationID: v.TxID,
			NodeID:       v.NodeID,
			Weight:       v.Weight,
			StartTime:    v.StartTime,
			// A legacy subnet validator is always active (l1-evm.md §2.3).
			IsActive: true,
		})
	}
	return out, nil
}

// chainUptime is the uptime tracking of one running subnet chain.
type chainUptime struct {
	subnetID ids.ID
	tracker  *uptime.Tracker
}

// serveValidators gives the running chain chainID of subnetID an uptime tracker, synced with the
// P-Chain and tracking from now with this node and its connected peers, and serves its
// validators API at /ext/bc/<chainID>/validators. A VM that serves that route itself keeps it.
func (s *subnets) serveValidators(chainID, subnetID ids.ID) error {
	n := s.n
	tracker, err := uptime.New(n.db.Prefixed(storage.PrefixUptime).Prefixed(chainID[:]), n.clock, nil)
	if err != nil {
		return fmt.Errorf("open uptimes of chain %s: %w", chainID, err)
	}
	cu := &chainUptime{subnetID: subnetID, tracker: tracker}
	if err := s.syncUptime(cu); err != nil {
		return errors.Join(err, tracker.Close())
	}
	n.peerEvents.track(tracker)
	s.uptimes[chainID] = cu

	h, err := l1validators.NewHandler(subnetSource{p: s.p, subnetID: subnetID}, tracker,
		n.log.With("service", "validators", "chainID", chainID.String()))
	if err != nil {
		return fmt.Errorf("create validators API of chain %s: %w", chainID, err)
	}
	err = n.http.AddRoute("bc/"+chainID.String()+"/validators", h)
	if errors.Is(err, api.ErrDuplicateRoute) {
		n.log.Debug("the chain's VM serves its validators API", "chainID", chainID.String())
		return nil
	}
	if err != nil {
		return fmt.Errorf("mount validators API of chain %s: %w", chainID, err)
	}
	return nil
}

// syncUptime brings cu's tracker in line with its subnet's current validators.
func (s *subnets) syncUptime(cu *chainUptime) error {
	vals, err := currentValidators(s.p, cu.subnetID)
	if err != nil {
		return fmt.Errorf("read validators of subnet %s: %w", cu.subnetID, err)
	}
	tracked := make([]uptime.Validator, len(vals))
	for i, v := range vals {
		tracked[i] = uptime.Validator{ValidationID: v.ValidationID, NodeID: v.NodeID, StartTime: v.StartTime, Active: v.IsActive}
	}
	if err := cu.tracker.Sync(tracked); err != nil {
		return fmt.Errorf("sync uptimes of subnet %s: %w", cu.subnetID, err)
	}
	return nil
}

// syncUptimes syncs every chain's tracker with the P-Chain.
func (s *subnets) syncUptimes() error {
	var errs []error
	for _, cu := range s.uptimes {
		errs = append(errs, s.syncUptime(cu))
	}
	return errors.Join(errs...)
}

// closeUptimes persists and closes every tracker.
func (s *subnets) closeUptimes() error {
	var errs []error
	for id, cu := range s.uptimes {
		if err := cu.tracker.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close uptimes of chain %s: %w", id, err))
		}
	}
	clear(s.uptimes)
	return errors.Join(errs...)
}
