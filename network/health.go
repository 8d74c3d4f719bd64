package network

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// Health thresholds of the reference (§1.12).
const (
	healthMinPeers       = 1
	healthMaxMsgAge      = time.Minute
	healthMaxSendFailure = 0.9
)

// HealthDetails is what the network health check reports.
type HealthDetails struct {
	ConnectedPeers           int     `json:"connectedPeers"`
	TimeSinceLastMsgReceived string  `json:"timeSinceLastMsgReceived"`
	TimeSinceLastMsgSent     string  `json:"timeSinceLastMsgSent"`
	SendFailRate             float64 `json:"sendFailRate"`
}

// HealthCheck is the reference's network check (§1.12): at least one connected peer, a message
// sent and one received within the last minute, and no more than 90 % of sends failing. A node
// with no bootstrappers and no other Primary Network validator (a lone development node) has no
// one to talk to and is healthy.
func (n *Network) HealthCheck(context.Context) (any, error) {
	now := n.clock.Now()
	n.mu.Lock()
	connected := len(n.connected)
	started := n.startedAt
	n.mu.Unlock()
	since := func(unixNano int64) time.Duration {
		if unixNano == 0 {
			return now.Sub(started)
		}
		return now.Sub(time.Unix(0, unixNano))
	}
	recv, sent := since(n.lastReceived.Load()), since(n.lastSent.Load())
	ok, failed := n.sentCount.Load(), n.failedCount.Load()
	rate := 0.0
	if ok+failed > 0 {
		rate = float64(failed) / float64(ok+failed)
	}
	d := HealthDetails{
		ConnectedPeers:           connected,
		TimeSinceLastMsgReceived: recv.Round(time.Millisecond).String(),
		TimeSinceLastMsgSent:     sent.Round(time.Millisecond).String(),
		SendFailRate:             rate,
	}
	if n.lone() {
		return d, nil
	}
	var errs []error
	if connected < healthMinPeers {
		errs = append(errs, fmt.Errorf("connected to %d peers; the minimum is %d", connected, healthMinPeers))
	}
	if recv > healthMaxMsgAge {
		errs = append(errs, fmt.Errorf("no messages received from the network in %s", d.TimeSinceLastMsgReceived))
	}
	if sent > healthMaxMsgAge {
		errs = append(errs, fmt.Errorf("no messages sent to the network in %s", d.TimeSinceLastMsgSent))
	}
	if rate > healthMaxSendFailure {
		errs = append(errs, fmt.Errorf("send fail rate %.4f above %.1f", rate, healthMaxSendFailure))
	}
	return d, errors.Join(errs...)
}

// lone reports whether the node has no bootstrappers and no Primary Network validator but itself.
func (n *Network) lone() bool {
	if len(n.cfg.Bootstrappers) > 0 {
		return false
	}
	total, err := n.deps.Validators.TotalWeight(ids.Empty)
	if err != nil {
		return false
	}
	return total == n.deps.Validators.GetWeight(ids.Empty, n.nodeID)
}
