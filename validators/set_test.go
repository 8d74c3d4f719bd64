package validators

import (
	"encoding/binary"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

var (
	subnetA = ids.Empty
	subnetB = ids.FromName("subnet-b")
	node1   = ids.NodeID{1}
	node2   = ids.NodeID{2}
	node3   = ids.NodeID{3}
)

// op is one mutation of a Set in a table test.
type op struct {
	remove    bool   // RemoveWeight (or Remove when weight is 0) instead of Add
	subnetID  ids.ID // subnet to change
	nodeID    ids.NodeID
	weight    uint64
	wantErr   error
	wantTotal uint64 // subnet's total after the op
}

func TestSetMutations(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name string
		ops  []op
		want map[ids.ID][]Validator
	}{
		{
			name: "add new validators",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{subnetID: subnetA, nodeID: node2, weight: 5, wantTotal: 15},
				{subnetID: subnetB, nodeID: node1, weight: 7, wantTotal: 7},
			},
			want: map[ids.ID][]Validator{
				subnetA: {{node1, 10}, {node2, 5}},
				subnetB: {{node1, 7}},
			},
		},
		{
			name: "add to existing validator",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{subnetID: subnetA, nodeID: node1, weight: 3, wantTotal: 13},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 13}}},
		},
		{
			name: "zero weight rejected",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 0, wantErr: ErrZeroWeight},
			},
			want: map[ids.ID][]Validator{subnetA: {}},
		},
		{
			name: "validator weight overflow leaves set unchanged",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: math.MaxUint64, wantTotal: math.MaxUint64},
				{subnetID: subnetA, nodeID: node1, weight: 1, wantErr: ErrWeightOverflow, wantTotal: math.MaxUint64},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, math.MaxUint64}}},
		},
		{
			name: "total weight overflow leaves set unchanged",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: math.MaxUint64 - 1, wantTotal: math.MaxUint64 - 1},
				{subnetID: subnetA, nodeID: node2, weight: 2, wantErr: ErrWeightOverflow, wantTotal: math.MaxUint64 - 1},
				{subnetID: subnetA, nodeID: node2, weight: 1, wantTotal: math.MaxUint64},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, math.MaxUint64 - 1}, {node2, 1}}},
		},
		{
			name: "overflow on one subnet does not affect another",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: math.MaxUint64, wantTotal: math.MaxUint64},
				{subnetID: subnetB, nodeID: node1, weight: math.MaxUint64, wantTotal: math.MaxUint64},
			},
			want: map[ids.ID][]Validator{
				subnetA: {{node1, math.MaxUint64}},
				subnetB: {{node1, math.MaxUint64}},
			},
		},
		{
			name: "remove part of the weight",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{subnetID: subnetA, nodeID: node2, weight: 5, wantTotal: 15},
				{remove: true, subnetID: subnetA, nodeID: node1, weight: 4, wantTotal: 11},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 6}, {node2, 5}}},
		},
		{
			name: "removing all weight removes the validator",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{subnetID: subnetA, nodeID: node2, weight: 5, wantTotal: 15},
				{remove: true, subnetID: subnetA, nodeID: node2, weight: 5, wantTotal: 10},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 10}}},
		},
		{
			name: "remove more than held",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{remove: true, subnetID: subnetA, nodeID: node1, weight: 11, wantErr: ErrInsufficientWeight, wantTotal: 10},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 10}}},
		},
		{
			name: "remove weight from non-validator",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{remove: true, subnetID: subnetA, nodeID: node2, weight: 1, wantErr: ErrNotValidator, wantTotal: 10},
				{remove: true, subnetID: subnetB, nodeID: node1, weight: 1, wantErr: ErrNotValidator},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 10}}, subnetB: {}},
		},
		{
			name: "remove whole validator",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{subnetID: subnetA, nodeID: node3, weight: 1, wantTotal: 11},
				{remove: true, subnetID: subnetA, nodeID: node1, wantTotal: 1},
				{remove: true, subnetID: subnetA, nodeID: node1, wantErr: ErrNotValidator, wantTotal: 1},
				{remove: true, subnetID: subnetB, nodeID: node1, wantErr: ErrNotValidator},
			},
			want: map[ids.ID][]Validator{subnetA: {{node3, 1}}},
		},
		{
			name: "removed validator can come back",
			ops: []op{
				{subnetID: subnetA, nodeID: node1, weight: 10, wantTotal: 10},
				{remove: true, subnetID: subnetA, nodeID: node1, wantTotal: 0},
				{subnetID: subnetA, nodeID: node1, weight: 2, wantTotal: 2},
			},
			want: map[ids.ID][]Validator{subnetA: {{node1, 2}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			for i, o := range tt.ops {
				var err error
				switch {
				case !o.remove:
					err = s.Add(o.subnetID, o.nodeID, o.weight)
				case o.weight == 0:
					err = s.Remove(o.subnetID, o.nodeID)
				default:
					err = s.RemoveWeight(o.subnetID, o.nodeID, o.weight)
				}
				require.ErrorIs(t, err, o.wantErr, "op %d", i)
				total, err := s.TotalWeight(o.subnetID)
				require.NoError(t, err)
				require.Equal(t, o.wantTotal, total, "op %d", i)
			}
			for subnetID, want := range tt.want {
				require.Equal(t, want, s.List(subnetID))
				require.Equal(t, len(want), s.Len(subnetID))
				for _, v := range want {
					require.Equal(t, v.Weight, s.GetWeight(subnetID, v.NodeID))
				}
			}
		})
	}
}

func TestSetRemoveWeightZero(t *testing.T) {
	t.Parallel()
	s := New()
	require.NoError(t, s.Add(subnetA, node1, 1))
	require.ErrorIs(t, s.RemoveWeight(subnetA, node1, 0), ErrZeroWeight)
	require.Equal(t, uint64(1), s.GetWeight(subnetA, node1))
}

func TestSetEmpty(t *testing.T) {
	t.Parallel()
	s := New()
	total, err := s.TotalWeight(subnetA)
	require.NoError(t, err)
	require.Zero(t, total)
	require.Zero(t, s.GetWeight(subnetA, node1))
	require.Zero(t, s.Len(subnetA))
	require.NotNil(t, s.List(subnetA))
	require.Empty(t, s.List(subnetA))
}

func TestSetListIsACopy(t *testing.T) {
	t.Parallel()
	s := New()
	require.NoError(t, s.Add(subnetA, node1, 5))
	l := s.List(subnetA)
	l[0].Weight = 99
	require.Equal(t, uint64(5), s.GetWeight(subnetA, node1))
}

// Weights maps each validator to its weight, in a copy of the caller's.
func TestSetWeights(t *testing.T) {
	t.Parallel()
	s := New()
	w, err := s.Weights(subnetA)
	require.NoError(t, err)
	require.Empty(t, w)
	require.NoError(t, s.Add(subnetA, node1, 5))
	require.NoError(t, s.Add(subnetA, node2, 7))
	w, err = s.Weights(subnetA)
	require.NoError(t, err)
	require.Equal(t, map[ids.NodeID]uint64{node1: 5, node2: 7}, w)
	w[node1] = 99
	require.Equal(t, uint64(5), s.GetWeight(subnetA, node1))
}

// Version changes with every change of a set, and not with a failed one or a read.
func TestSetVersion(t *testing.T) {
	t.Parallel()
	s := New()
	v := s.Version()
	changed := func(what string) {
		t.Helper()
		require.NotEqual(t, v, s.Version(), what)
		v = s.Version()
	}
	require.NoError(t, s.Add(subnetA, node1, 5))
	changed("Add")
	require.NoError(t, s.RemoveWeight(subnetA, node1, 2))
	changed("RemoveWeight")
	require.NoError(t, s.Remove(subnetA, node1))
	changed("Remove")

	require.ErrorIs(t, s.Remove(subnetA, node1), ErrNotValidator)
	require.ErrorIs(t, s.Add(subnetA, node1, 0), ErrZeroWeight)
	require.NoError(t, s.Add(subnetB, node2, math.MaxUint64))
	changed("Add")
	require.ErrorIs(t, s.Add(subnetB, node3, 1), ErrWeightOverflow)
	_, _ = s.Weights(subnetB)
	require.Equal(t, v, s.Version(), "failures and reads change nothing")
}

func TestSetConcurrent(t *testing.T) {
	t.Parallel()
	s := New()
	const (
		workers = 8
		rounds  = 500
	)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			nodeID := ids.NodeID{byte(w)}
			for range rounds {
				require.NoError(t, s.Add(subnetA, nodeID, 3))
				require.NoError(t, s.RemoveWeight(subnetA, nodeID, 1))
				_ = s.GetWeight(subnetA, nodeID)
				_, _ = s.TotalWeight(subnetA)
				_ = s.List(subnetA)
			}
		})
	}
	wg.Wait()
	total, err := s.TotalWeight(subnetA)
	require.NoError(t, err)
	require.Equal(t, uint64(workers*rounds*2), total)
	require.Equal(t, workers, s.Len(subnetA))
}

// FuzzSet runs a random sequence of operations against a Set and a plain map model and checks
// that they agree and that each subnet's total is the sum of its weights.
func FuzzSet(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 10, 1, 1, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1})
	f.Add([]byte{0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New()
		model := map[ids.ID]map[ids.NodeID]uint64{}
		subnets := []ids.ID{subnetA, subnetB}
		// Each op is: kind byte, target byte (subnet in bit 7, node in low bits), 8-byte weight.
		for len(data) >= 2 {
			kind, target := data[0]%3, data[1]
			data = data[2:]
			var weight uint64
			if kind != 2 {
				if len(data) < 8 {
					return
				}
				weight = binary.BigEndian.Uint64(data)
				data = data[8:]
			}
			subnetID := subnets[target>>7]
			nodeID := ids.NodeID{target & 0x7}
			m := model[subnetID]
			if m == nil {
				m = map[ids.NodeID]uint64{}
				model[subnetID] = m
			}
			var sum uint64
			for _, w := range m {
				sum += w
			}
			have, isValidator := m[nodeID]
			switch kind {
			case 0:
				err := s.Add(subnetID, nodeID, weight)
				switch {
				case weight == 0:
					require.ErrorIs(t, err, ErrZeroWeight)
				case sum+weight < sum:
					require.ErrorIs(t, err, ErrWeightOverflow)
				default:
					require.NoError(t, err)
					m[nodeID] = have + weight
				}
			case 1:
				err := s.RemoveWeight(subnetID, nodeID, weight)
				switch {
				case weight == 0:
					require.ErrorIs(t, err, ErrZeroWeight)
				case !isValidator:
					require.ErrorIs(t, err, ErrNotValidator)
				case have < weight:
					require.ErrorIs(t, err, ErrInsufficientWeight)
				default:
					require.NoError(t, err)
					m[nodeID] = have - weight
					if m[nodeID] == 0 {
						delete(m, nodeID)
					}
				}
			case 2:
				err := s.Remove(subnetID, nodeID)
				if isValidator {
					require.NoError(t, err)
					delete(m, nodeID)
				} else {
					require.ErrorIs(t, err, ErrNotValidator)
				}
			}
		}
		for _, subnetID := range subnets {
			var sum uint64
			for nodeID, w := range model[subnetID] {
				require.Equal(t, w, s.GetWeight(subnetID, nodeID))
				sum += w
			}
			total, err := s.TotalWeight(subnetID)
			require.NoError(t, err)
			require.Equal(t, sum, total)
			require.Len(t, s.List(subnetID), len(model[subnetID]))
		}
	})
}
