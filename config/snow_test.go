package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/snowman"
)

func TestSnowDefaultsAreTheReferences(t *testing.T) {
	t.Parallel()
	require.Equal(t, snowman.DefaultParameters(), Default().Snow.Parameters())
}

// setFlags sets settings by name, as flags on the command line do, in order.
func setFlags(t *testing.T, c *Config, pairs ...string) {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		s, ok := lookupSetting(pairs[i])
		require.True(t, ok, pairs[i])
		require.NoError(t, s.Bind(c).Set(pairs[i+1]), pairs[i])
	}
}

func TestSnowFlags(t *testing.T) {
	t.Parallel()
	c := Default()
	setFlags(t, &c,
		"snow-sample-size", "5", "snow-preference-quorum-size", "3", "snow-confidence-quorum-size", "4",
		"snow-commit-threshold", "3", "snow-concurrent-repolls", "2", "snow-optimal-processing", "1",
		"snow-max-processing", "7", "snow-max-time-processing", "1m")
	require.Equal(t, snowman.Parameters{K: 5, AlphaPreference: 3, AlphaConfidence: 4, Beta: 3,
		ConcurrentRepolls: 2, OptimalProcessing: 1, MaxOutstandingItems: 7, MaxItemProcessingTime: time.Minute},
		c.Snow.Parameters())
	require.NoError(t, c.Snow.validate())

	s, _ := lookupSetting("snow-sample-size")
	require.EqualError(t, s.Bind(&c).Set("five"), `invalid integer "five"`)
}

// --snow-quorum-size sets both quorums and wins over them in any order, as in the reference.
func TestSnowQuorumSizeOverrides(t *testing.T) {
	t.Parallel()
	for _, order := range [][]string{
		{"snow-quorum-size", "16", "snow-preference-quorum-size", "14", "snow-confidence-quorum-size", "18"},
		{"snow-preference-quorum-size", "14", "snow-confidence-quorum-size", "18", "snow-quorum-size", "16"},
	} {
		c := Default()
		setFlags(t, &c, order...)
		p := c.Snow.Parameters()
		require.Equal(t, [2]int{16, 16}, [2]int{p.AlphaPreference, p.AlphaConfidence}, "%v", order)
	}
}

// Validate reports the reference's texts, every broken condition at once.
func TestSnowValidate(t *testing.T) {
	t.Parallel()
	c := Default()
	setFlags(t, &c, "snow-sample-size", "10", "snow-quorum-size", "11", "snow-concurrent-repolls", "0")
	err := c.Validate()
	require.ErrorIs(t, err, snowman.ErrParametersInvalid)
	require.ErrorContains(t, err, "parameters invalid: k = 10, alphaConfidence = 11: fails the condition that: alphaConfidence <= k\n"+
		"parameters invalid: concurrentRepolls = 0: fails the condition that: 0 < concurrentRepolls")
}

func TestSnowConfigFile(t *testing.T) {
	t.Parallel()
	c := Default()
	require.NoError(t, parseFile([]byte(`{"snow-sample-size": 7, "snow-quorum-size": 5, "snow-max-time-processing": "10s"}`), &c))
	p := c.Snow.Parameters()
	require.Equal(t, [4]int{7, 5, 5, 20}, [4]int{p.K, p.AlphaPreference, p.AlphaConfidence, p.Beta})
	require.Equal(t, 10*time.Second, p.MaxItemProcessingTime)
}
