package e2e_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/localnet"
)

// peerWait bounds each wait for what pings and connections show; with a ping every second a few
// seconds are enough, the rest is room for a loaded machine.
const peerWait = 30 * time.Second

// startPeerNetwork starts n of the local genesis's stakers with `cornice run` flags args for each,
// on other ports if another process took one of those chosen, and stops them at cleanup.
func startPeerNetwork(t *testing.T, n int, args ...string) *localNetwork {
	t.Helper()
	bin, err := binary()
	require.NoError(t, err)
	for range 3 {
		dir := t.TempDir()
		base := freePorts(t, n)
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = localnet.Stop(ctx, dir)
			if t.Failed() {
				logTails(t, dir, n)
			}
		})
		ctx, cancel := context.WithTimeout(t.Context(), networkWait)
		nodes, err := localnet.Start(ctx, localnet.Config{Binary: bin, Dir: dir, Nodes: n, HTTPPort: base, StakingPort: base + 1, Args: args})
		cancel()
		if err == nil {
			return &localNetwork{dir: dir, nodes: nodes}
		}
		if !strings.Contains(err.Error(), "address already in use") {
			require.NoError(t, err)
		}
		t.Logf("a port was taken: trying others: %v", err)
		require.NoError(t, localnet.Stop(t.Context(), dir))
	}
	require.FailNow(t, "no free ports three times")
	return nil
}

// observedUptimes returns node i's info.peers as NodeID → observedUptime, the uptime each peer's
// last Ping reported of node i.
func (nw *localNetwork) observedUptimes(t *testing.T, i int) map[string]int {
	t.Helper()
	var reply struct {
		Peers []struct {
			NodeID         string `json:"nodeID"`
			ObservedUptime string `json:"observedUptime"`
		} `json:"peers"`
	}
	require.NoError(t, nw.call(t, i, "/ext/info", "info.peers", struct{}{}, &reply))
	out := make(map[string]int, len(reply.Peers))
	for _, p := range reply.Peers {
		u, err := strconv.Atoi(p.ObservedUptime)
		require.NoError(t, err)
		out[p.NodeID] = u
	}
	return out
}

// stakerView is a Primary Network validator as node i's platform.getCurrentValidators shows it.
type stakerView struct {
	uptime    float64
	connected bool
}

func (nw *localNetwork) stakers(t *testing.T, i int) map[string]stakerView {
	t.Helper()
	var reply struct {
		Validators []struct {
			NodeID    string `json:"nodeID"`
			Uptime    string `json:"uptime"`
			Connected bool   `json:"connected"`
		} `json:"validators"`
	}
	require.NoError(t, nw.call(t, i, "/ext/bc/P", "platform.getCurrentValidators", struct{}{}, &reply))
	out := make(map[string]stakerView, len(reply.Validators))
	for _, v := range reply.Validators {
		u, err := strconv.ParseFloat(v.Uptime, 64)
		require.NoError(t, err)
		out[v.NodeID] = stakerView{uptime: u, connected: v.Connected}
	}
	return out
}

// nodeUptime returns node i's info.uptime: the weighted average and the rewarding stake, in %.
func (nw *localNetwork) nodeUptime(t *testing.T, i int) (weighted, rewarding float64) {
	t.Helper()
	var reply struct {
		Rewarding string `json:"rewardingStakePercentage"`
		Weighted  string `json:"weightedAveragePercentage"`
	}
	require.NoError(t, nw.call(t, i, "/ext/info", "info.uptime", struct{}{}, &reply))
	weighted, err := strconv.ParseFloat(reply.Weighted, 64)
	require.NoError(t, err)
	rewarding, err = strconv.ParseFloat(reply.Rewarding, 64)
	require.NoError(t, err)
	return weighted, rewarding
}

// Four of the local genesis's five stakers (2,000,000 AVAX each; four are the fewest whose X- and
// C-Chains bootstrap) measure each other's uptime and report it in their Pings (one a second
// here), and what they show follows the network
// (network-consensus-warp.md §1.5, §1.10; node-api.md §3.1, §3.11, §3.12):
//   - all up: each sees the three others connected and up in platform.getCurrentValidators, each
//     peer reports it up in info.peers' observedUptime, so info.uptime is the four stakers' share
//     of the stake (80 %, the staker that never runs counting 0), and info.acps sums the three
//     peers' stated preferences with their stake;
//   - one killed: the others drop it from info.peers, show it disconnected, and their info.uptime
//     loses its stake;
//   - back: it is connected again, and the others' measure of it, which it hears in their Pings,
//     is now below 100 %: its downtime counts against it.
func TestNetworkUptime(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four node processes")
	}
	nw := startPeerNetwork(t, 4, "--network-ping-frequency=1s", "--acp-support=23,24", "--acp-object=25")
	id := func(i int) string { return nw.nodes[i].NodeID }
	others := func(i int) []int {
		return slices.DeleteFunc([]int{0, 1, 2, 3}, func(j int) bool { return j == i })
	}
	upEverywhere := func(nodes []int, c *assert.CollectT) {
		for _, i := range nodes {
			seen := nw.observedUptimes(t, i)
			vals := nw.stakers(t, i)
			for _, j := range others(i) {
				if !slices.Contains(nodes, j) {
					continue
				}
				// A peer that connected a moment after tracking began measures 99.
				assert.GreaterOrEqual(c, seen[id(j)], 99, "node %d as node %d's peer reports it", j, i)
				assert.True(c, vals[id(j)].connected, "node %d connected to node %d", j, i)
				assert.GreaterOrEqual(c, vals[id(j)].uptime, 99.0, "node %d's uptime in node %d's view", j, i)
			}
			weighted, rewarding := nw.nodeUptime(t, i)
			assert.Equal(c, 20*float64(len(nodes)), rewarding, "node %d's rewarding stake", i)
			assert.GreaterOrEqual(c, weighted, 20*float64(len(nodes))-0.25*float64(len(nodes)-1), "node %d's weighted uptime", i)
			assert.LessOrEqual(c, weighted, 20*float64(len(nodes)))
		}
	}
	require.EventuallyWithT(t, func(c *assert.CollectT) { upEverywhere([]int{0, 1, 2, 3}, c) }, peerWait, 200*time.Millisecond)

	// The genesis staker that does not run is a validator nobody is connected to.
	vals := nw.stakers(t, 0)
	require.Len(t, vals, 5)
	for nodeID, v := range vals {
		if !slices.Contains([]string{id(0), id(1), id(2), id(3)}, nodeID) {
			require.False(t, v.connected, nodeID)
		}
	}

	// info.acps: each peer's stated preferences with its stake; node 0 does not count itself.
	var acps struct {
		ACPs map[string]struct {
			SupportWeight string   `json:"supportWeight"`
			Supporters    []string `json:"supporters"`
			ObjectWeight  string   `json:"objectWeight"`
			Objectors     []string `json:"objectors"`
			AbstainWeight string   `json:"abstainWeight"`
		} `json:"acps"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/info", "info.acps", struct{}{}, &acps))
	peers := []string{id(1), id(2), id(3)}
	slices.Sort(peers)
	require.Len(t, acps.ACPs, 3)
	for _, acp := range []string{"23", "24"} {
		e := acps.ACPs[acp]
		require.Equal(t, "6000000000000000", e.SupportWeight, acp)
		require.Equal(t, peers, e.Supporters, acp)
		require.Equal(t, "0", e.ObjectWeight, acp)
		require.Empty(t, e.Objectors, acp)
	}
	require.Equal(t, "6000000000000000", acps.ACPs["25"].ObjectWeight)
	require.Equal(t, peers, acps.ACPs["25"].Objectors)
	require.Equal(t, "0", acps.ACPs["25"].SupportWeight)

	require.NoError(t, localnet.Kill(nw.dir, "node4"))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		for _, i := range []int{0, 1, 2} {
			assert.NotContains(c, nw.observedUptimes(t, i), id(3), "node 4 still node %d's peer", i)
			assert.False(c, nw.stakers(t, i)[id(3)].connected, "node 4 still connected to node %d", i)
		}
		upEverywhere([]int{0, 1, 2}, c)
	}, peerWait, 200*time.Millisecond)
	// Down for a while: the others count it, second by second.
	time.Sleep(3 * time.Second)

	bin, err := binary()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	require.NoError(t, localnet.StartNode(ctx, bin, nw.dir, "node4"))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		upEverywhere([]int{0, 1, 2, 3}, c)
		seen := nw.observedUptimes(t, 3)
		for _, i := range []int{0, 1, 2} {
			// Node i measured node 4 down for seconds: less than all of its time, which its Pings'
			// whole percent shows whatever the length of the validation so far.
			assert.Less(c, seen[id(i)], 100, "node %d's measure of node 4, reported in its Pings", i)
		}
	}, peerWait, 200*time.Millisecond)
}
