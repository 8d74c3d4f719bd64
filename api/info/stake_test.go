package info_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/api/info/infotest"
	"github.com/cornice-node/cornice/ids"
)

// validator is a stake in one validator set, and optionally a connected peer.
type validator struct {
	nodeID    ids.NodeID
	subnetID  ids.ID // zero: the Primary Network
	weight    uint64 // 0: connected but not a validator
	connected bool
	uptime    uint32            // Primary Network uptime the peer reports
	subnet    map[ids.ID]uint32 // subnet uptimes the peer reports
	supports  []uint32
	objects   []uint32
}

// build returns the service of a fixture holding vs.
func build(t *testing.T, requirement float64, acps []uint32, vs []validator) *info.Service {
	t.Helper()
	f := newFixture(t)
	f.cfg.UptimeRequirement = requirement
	f.cfg.ACPs = acps
	var peers infotest.Peers
	for _, v := range vs {
		if v.weight > 0 {
			f.addValidator(t, v.subnetID, v.nodeID, v.weight)
		}
		if v.connected {
			peers = append(peers, info.Peer{
				NodeID:                v.nodeID,
				ObservedUptime:        v.uptime,
				ObservedSubnetUptimes: v.subnet,
				SupportedACPs:         v.supports,
				ObjectedACPs:          v.objects,
			})
		}
	}
	f.deps.Peers = peers
	return f.service(t)
}

// marshal returns v's JSON, as the jsonrpc engine writes a result.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestUptime(t *testing.T) {
	t.Parallel()

	self := staker1
	tests := []struct {
		name        string
		requirement float64
		subnetID    ids.ID
		validators  []validator
		want        string
		wantErr     string
	}{
		{
			name:        "reference example",
			requirement: 0.995,
			validators: []validator{
				{nodeID: self, weight: 2},
				{nodeID: staker2, weight: 2, connected: true, uptime: 100},
				{nodeID: staker3, weight: 1, connected: true, uptime: 98},
				{nodeID: staker4, weight: 1, connected: true, uptime: 99},
			},
			want: `{"rewardingStakePercentage":"66.6667","weightedAveragePercentage":"99.5000"}`,
		},
		{
			name:        "only validator counts itself fully up",
			requirement: 0.8,
			validators:  []validator{{nodeID: self, weight: 5}},
			want:        `{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}`,
		},
		{
			name:        "disconnected validator counts as down",
			requirement: 0.8,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 2},
			},
			want: `{"rewardingStakePercentage":"33.3333","weightedAveragePercentage":"33.3333"}`,
		},
		{
			name:        "connected non-validator is ignored",
			requirement: 0.8,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 1, connected: true, uptime: 60},
				{nodeID: staker3, connected: true, uptime: 0},
			},
			want: `{"rewardingStakePercentage":"50.0000","weightedAveragePercentage":"80.0000"}`,
		},
		{
			name:        "uptime equal to the requirement is rewarding",
			requirement: 0.8,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 3, connected: true, uptime: 80},
				{nodeID: staker3, weight: 4, connected: true, uptime: 79},
			},
			// (100 + 240 + 316) / 8 = 82; 100 * 4 / 8 = 50.
			want: `{"rewardingStakePercentage":"50.0000","weightedAveragePercentage":"82.0000"}`,
		},
		{
			name:        "requirement zero rewards every connected validator",
			requirement: 0,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 1, connected: true, uptime: 0},
				{nodeID: staker3, weight: 1},
			},
			want: `{"rewardingStakePercentage":"66.6667","weightedAveragePercentage":"33.3333"}`,
		},
		{
			name:        "uptime above 100 is capped",
			requirement: 0.8,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 1, connected: true, uptime: 250},
			},
			want: `{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}`,
		},
		{
			name:        "rounding to four decimals",
			requirement: 0.8,
			validators: []validator{
				{nodeID: self, weight: 1},
				{nodeID: staker2, weight: 2, connected: true, uptime: 99},
				{nodeID: staker3, weight: 4, connected: true, uptime: 97},
			},
			// (100 + 198 + 388) / 7 = 98.000; 100 * 7 / 7.
			want: `{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"98.0000"}`,
		},
		{
			name:        "not a validator",
			requirement: 0.8,
			validators: []validator{
				{nodeID: staker2, weight: 1, connected: true, uptime: 100},
			},
			wantErr: "couldn't get node uptime: node is not a validator",
		},
		{
			name:        "subnet uses its own weights and reported uptimes",
			requirement: 0.8,
			subnetID:    l1ID,
			validators: []validator{
				{nodeID: self, weight: 100},
				{nodeID: staker2, weight: 100}, // connected: the L1 entry below is its peer
				{nodeID: self, subnetID: l1ID, weight: 1},
				{nodeID: staker2, subnetID: l1ID, weight: 3, connected: true, uptime: 100, subnet: map[ids.ID]uint32{l1ID: 90}},
				{nodeID: staker3, subnetID: l1ID, weight: 2, connected: true, uptime: 100},
				{nodeID: staker4, subnetID: l1ID, weight: 2},
			},
			// staker3 reports no L1 uptime: 0. (100*1 + 90*3 + 0*2 + 0*2) / 8 = 46.25; 100 * 4 / 8.
			want: `{"rewardingStakePercentage":"50.0000","weightedAveragePercentage":"46.2500"}`,
		},
		{
			name:        "subnet this node does not validate",
			requirement: 0.8,
			subnetID:    l1ID,
			validators: []validator{
				{nodeID: self, weight: 100},
				{nodeID: staker2, subnetID: l1ID, weight: 3, connected: true, subnet: map[ids.ID]uint32{l1ID: 90}},
			},
			wantErr: "couldn't get node uptime: node is not a validator",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := build(t, tt.requirement, nil, tt.validators)
			reply, err := s.Uptime(t.Context(), &info.UptimeArgs{SubnetID: tt.subnetID})
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, marshal(t, reply))
		})
	}
}

func TestUptimeIgnoresSelfAndDuplicatePeers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.addValidator(t, ids.Empty, staker1, 1)
	f.addValidator(t, ids.Empty, staker2, 1)
	f.addValidator(t, ids.Empty, staker3, 2)
	f.deps.Peers = infotest.Peers{
		{NodeID: staker1, ObservedUptime: 0},
		{NodeID: staker2, ObservedUptime: 100},
		{NodeID: staker2, ObservedUptime: 100},
	}
	reply, err := f.service(t).Uptime(t.Context(), &info.UptimeArgs{})
	require.NoError(t, err)
	require.JSONEq(t, `{"rewardingStakePercentage":"50.0000","weightedAveragePercentage":"50.0000"}`, marshal(t, reply))
}

// failingValidators fails TotalWeight and delegates GetWeight.
type failingValidators struct {
	info.Validators
}

var errTotal = errors.New("total weight unavailable")

func (failingValidators) TotalWeight(ids.ID) (uint64, error) { return 0, errTotal }

func TestTotalWeightFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.addValidator(t, ids.Empty, staker1, 1)
	f.deps.Validators = failingValidators{f.vdrs}
	s := f.service(t)

	_, err := s.Uptime(t.Context(), &info.UptimeArgs{})
	require.ErrorIs(t, err, errTotal)
	require.EqualError(t, err, "couldn't get node uptime: total weight unavailable")

	_, err = s.ACPs(t.Context(), &struct{}{})
	require.ErrorIs(t, err, errTotal)
}

func TestACPs(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name       string
		acps       []uint32
		validators []validator
		want       string
	}{
		{
			name: "nothing known and no peers",
			want: `{"acps":{}}`,
		},
		{
			name:       "known ACPs with no stated preference abstain",
			acps:       []uint32{176},
			validators: []validator{{nodeID: staker1, weight: 7}},
			want:       `{"acps":{"176":{"supportWeight":"0","supporters":[],"objectWeight":"0","objectors":[],"abstainWeight":"7"}}}`,
		},
		{
			name: "weights, sorted keys, skipped non-validators and disconnected stake",
			acps: []uint32{23, 24, 103},
			validators: []validator{
				{nodeID: staker1, weight: 10, supports: []uint32{23}}, // self: never counted
				{nodeID: staker2, weight: 30, connected: true, supports: []uint32{23, 103, 103}},
				{nodeID: staker3, weight: 20, connected: true, supports: []uint32{24}, objects: []uint32{23}},
				{nodeID: staker4, weight: 40}, // not connected
				{nodeID: staker5, connected: true, supports: []uint32{23, 24}, objects: []uint32{103}},
			},
			want: `{"acps":{` +
				`"103":{"supportWeight":"30","supporters":["NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"],"objectWeight":"0","objectors":[],"abstainWeight":"70"},` +
				`"23":{"supportWeight":"30","supporters":["NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"],"objectWeight":"20","objectors":["NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN"],"abstainWeight":"50"},` +
				`"24":{"supportWeight":"20","supporters":["NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN"],"objectWeight":"0","objectors":[],"abstainWeight":"80"}}}`,
		},
		{
			name: "ACP seen only from peers keeps abstain 0",
			acps: nil,
			validators: []validator{
				{nodeID: staker1, weight: 10},
				{nodeID: staker2, weight: 30, connected: true, objects: []uint32{77}},
			},
			want: `{"acps":{"77":{"supportWeight":"0","supporters":[],"objectWeight":"30","objectors":["NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"],"abstainWeight":"0"}}}`,
		},
		{
			name: "only Primary Network stake counts",
			acps: []uint32{5},
			validators: []validator{
				{nodeID: staker1, weight: 10},
				{nodeID: staker2, subnetID: l1ID, weight: 30, connected: true, supports: []uint32{5}},
			},
			want: `{"acps":{"5":{"supportWeight":"0","supporters":[],"objectWeight":"0","objectors":[],"abstainWeight":"10"}}}`,
		},
		{
			name: "supporters sorted by text, not by bytes",
			acps: []uint32{1},
			validators: []validator{
				{nodeID: ids.NodeID{1, 0}, weight: 1, connected: true, supports: []uint32{1}},
				{nodeID: ids.NodeID{10, 255}, weight: 2, connected: true, supports: []uint32{1}},
			},
			want: `{"acps":{"1":{"supportWeight":"3","supporters":["NodeID-219EdUgANw7nRHyoVVY5qjJyJH5TygrL8","NodeID-6HgC8KRBEhXYbF4riJyJFLSHt37UNuRt"],"objectWeight":"0","objectors":[],"abstainWeight":"0"}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := build(t, 0.8, tt.acps, tt.validators)
			reply, err := s.ACPs(t.Context(), &struct{}{})
			require.NoError(t, err)
			require.Equal(t, tt.want, marshal(t, reply))
		})
	}
}

// Byte order and text order of these NodeIDs disagree, which is what the sorting case above tests.
func TestSortPairDisagrees(t *testing.T) {
	t.Parallel()
	a, b := ids.NodeID{1, 0}, ids.NodeID{10, 255}
	require.Negative(t, a.Compare(b))
	require.Greater(t, a.String(), b.String())
}

// TestUptimeSubnetValidators checks info.uptime when node/ supplies the P-Chain's subnet and L1
// validator sets: they replace Deps.Validators for every subnet but the Primary Network.
func TestUptimeSubnetValidators(t *testing.T) {
	t.Parallel()
	errPChain := errors.New("P-Chain not bootstrapped")
	tests := []struct {
		name     string
		subnetID ids.ID
		weights  map[ids.ID]map[ids.NodeID]uint64
		err      error
		peers    infotest.Peers
		want     string
		wantErr  string
	}{
		{
			name:     "single node validating the L1 is fully up",
			subnetID: l1ID,
			weights:  map[ids.ID]map[ids.NodeID]uint64{l1ID: {staker1: 10}},
			want:     `{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}`,
		},
		{
			name:     "peers weighted by the L1 set, not by the validators.Set",
			subnetID: l1ID,
			weights:  map[ids.ID]map[ids.NodeID]uint64{l1ID: {staker1: 10, staker2: 30, staker4: 60}},
			peers: infotest.Peers{
				{NodeID: staker2, ObservedUptime: 100, ObservedSubnetUptimes: map[ids.ID]uint32{l1ID: 50}},
				// staker3 has weight in the validators.Set's L1 entry only: ignored.
				{NodeID: staker3, ObservedSubnetUptimes: map[ids.ID]uint32{l1ID: 100}},
			},
			// (100*10 + 50*30 + 0*60) / 100 = 25; 100 * 10 / 100 = 10.
			want: `{"rewardingStakePercentage":"10.0000","weightedAveragePercentage":"25.0000"}`,
		},
		{
			name:     "Primary Network still comes from the validators.Set",
			subnetID: ids.Empty,
			weights:  map[ids.ID]map[ids.NodeID]uint64{ids.Empty: {staker1: 1, staker2: 1}},
			want:     `{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}`,
		},
		{
			name:     "not a validator of the L1",
			subnetID: l1ID,
			weights:  map[ids.ID]map[ids.NodeID]uint64{l1ID: {staker2: 10}},
			wantErr:  "couldn't get node uptime: node is not a validator",
		},
		{
			name:     "unknown subnet",
			subnetID: ids.FromName("unknown"),
			weights:  map[ids.ID]map[ids.NodeID]uint64{l1ID: {staker1: 10}},
			wantErr:  "couldn't get node uptime: node is not a validator",
		},
		{
			name:     "P-Chain lookup fails",
			subnetID: l1ID,
			err:      errPChain,
			wantErr:  "couldn't get node uptime: P-Chain not bootstrapped",
		},
		{
			name:     "total weight overflows",
			subnetID: l1ID,
			weights:  map[ids.ID]map[ids.NodeID]uint64{l1ID: {staker1: 1 << 63, staker2: 1 << 63}},
			wantErr:  "couldn't get node uptime: total weight overflows uint64",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.addValidator(t, ids.Empty, staker1, 5)
			f.addValidator(t, l1ID, staker1, 1)
			f.addValidator(t, l1ID, staker3, 1)
			f.deps.Peers = tt.peers
			f.deps.SubnetValidators = &infotest.SubnetValidators{Weights: tt.weights, Err: tt.err}
			reply, err := f.service(t).Uptime(t.Context(), &info.UptimeArgs{SubnetID: tt.subnetID})
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				if tt.err != nil {
					require.ErrorIs(t, err, tt.err)
				}
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, marshal(t, reply))
		})
	}
}
