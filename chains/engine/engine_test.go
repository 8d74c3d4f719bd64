package engine_test

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/validators"
)

var (
	_ engine.Validators = (*validators.Set)(nil)

	self   = ids.NodeID{1}
	other  = ids.NodeID{2}
	subnet = ids.FromName("subnet")
)

// failingValidators fails TotalWeight.
type failingValidators struct{ *validators.Set }

var errBoom = errors.New("boom")

func (failingValidators) TotalWeight(ids.ID) (uint64, error) { return 0, errBoom }

func TestFactory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		weights  map[ids.NodeID]uint64
		wantWarn bool
	}{
		{"all the weight", map[ids.NodeID]uint64{self: 20}, false},
		{"no validator", nil, false},
		{"a share of the weight", map[ids.NodeID]uint64{self: 20, other: 5}, true},
		{"not a validator", map[ids.NodeID]uint64{other: 5}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set := validators.New()
			for id, w := range tt.weights {
				require.NoError(t, set.Add(subnet, id, w))
			}
			var logs bytes.Buffer
			f := engine.Factory{NodeID: self, Validators: set}
			e, err := f.NewEngine(t.Context(), chains.EngineContext{
				Chain: chains.Chain{ID: ids.FromName("chain"), SubnetID: subnet},
				Log:   slog.New(slog.NewTextHandler(&logs, nil)),
			})
			require.NoError(t, err)
			require.IsType(t, &solo.Engine{}, e, "cornice has no other engine yet")
			require.Equal(t, tt.wantWarn, bytes.Contains(logs.Bytes(), []byte("level=WARN")), logs.String())
		})
	}
}

func TestFactoryErrors(t *testing.T) {
	t.Parallel()
	c := chains.EngineContext{Chain: chains.Chain{ID: ids.FromName("chain")}, Log: slog.New(slog.DiscardHandler)}
	_, err := engine.Factory{NodeID: self}.NewEngine(t.Context(), c)
	require.ErrorContains(t, err, "no Validators")
	_, err = engine.Factory{NodeID: self, Validators: failingValidators{validators.New()}}.NewEngine(t.Context(), c)
	require.ErrorIs(t, err, errBoom)
}
