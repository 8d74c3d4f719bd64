package config

import (
	"strconv"
	"time"

	"github.com/cornice-node/cornice/consensus/snowman"
)

// Snow holds the Snowman consensus parameters (network-consensus-warp.md §2.1), with the
// reference node's flags and defaults (DefaultSnow). They are parsed and validated only: no
// engine reads them yet (issue #13), and every chain runs solo.
type Snow struct {
	// SampleSize is K, the stake units sampled per poll (--snow-sample-size). Default 20.
	SampleSize int
	// QuorumSize sets both quorums when not 0 (--snow-quorum-size), whatever the two below say,
	// as in the reference. Default and zero value 0: unset.
	QuorumSize int
	// PreferenceQuorumSize is αp (--snow-preference-quorum-size). Default 15.
	PreferenceQuorumSize int
	// ConfidenceQuorumSize is αc (--snow-confidence-quorum-size). Default 15.
	ConfidenceQuorumSize int
	// CommitThreshold is β (--snow-commit-threshold). Default 20.
	CommitThreshold int
	// ConcurrentRepolls (--snow-concurrent-repolls). Default 4.
	ConcurrentRepolls int
	// OptimalProcessing (--snow-optimal-processing). Default 10.
	OptimalProcessing int
	// MaxProcessing (--snow-max-processing). Default 256.
	MaxProcessing int
	// MaxTimeProcessing (--snow-max-time-processing). Default 30s.
	MaxTimeProcessing time.Duration
}

// DefaultSnow returns the reference's defaults (snowman.DefaultParameters).
func DefaultSnow() Snow {
	p := snowman.DefaultParameters()
	return Snow{
		SampleSize:           p.K,
		PreferenceQuorumSize: p.AlphaPreference,
		ConfidenceQuorumSize: p.AlphaConfidence,
		CommitThreshold:      p.Beta,
		ConcurrentRepolls:    p.ConcurrentRepolls,
		OptimalProcessing:    p.OptimalProcessing,
		MaxProcessing:        p.MaxOutstandingItems,
		MaxTimeProcessing:    p.MaxItemProcessingTime,
	}
}

// Parameters returns the consensus parameters s sets.
func (s Snow) Parameters() snowman.Parameters {
	p := snowman.Parameters{
		K:                     s.SampleSize,
		AlphaPreference:       s.PreferenceQuorumSize,
		AlphaConfidence:       s.ConfidenceQuorumSize,
		Beta:                  s.CommitThreshold,
		ConcurrentRepolls:     s.ConcurrentRepolls,
		OptimalProcessing:     s.OptimalProcessing,
		MaxOutstandingItems:   s.MaxProcessing,
		MaxItemProcessingTime: s.MaxTimeProcessing,
	}
	if s.QuorumSize != 0 {
		p.AlphaPreference, p.AlphaConfidence = s.QuorumSize, s.QuorumSize
	}
	return p
}

// validate reports what Parameters().Verify reports, in the reference's texts.
func (s Snow) validate() error {
	return s.Parameters().Verify()
}

// snowSettings are the consensus settings, before logging in the help order.
var snowSettings = []Setting{
	setting("snow-sample-size", "K: stake units sampled per consensus poll",
		func(c *Config) *int { return &c.Snow.SampleSize }, newIntValue),
	setting("snow-quorum-size", "sets both snow-preference-quorum-size and snow-confidence-quorum-size, overriding them; 0 leaves them",
		func(c *Config) *int { return &c.Snow.QuorumSize }, newIntValue),
	setting("snow-preference-quorum-size", "αp: votes of a poll that move this node's preference",
		func(c *Config) *int { return &c.Snow.PreferenceQuorumSize }, newIntValue),
	setting("snow-confidence-quorum-size", "αc: votes of a poll that count toward snow-commit-threshold",
		func(c *Config) *int { return &c.Snow.ConfidenceQuorumSize }, newIntValue),
	setting("snow-commit-threshold", "β: consecutive successful polls that finalize a block",
		func(c *Config) *int { return &c.Snow.CommitThreshold }, newIntValue),
	setting("snow-concurrent-repolls", "polls kept in flight while blocks are processing",
		func(c *Config) *int { return &c.Snow.ConcurrentRepolls }, newIntValue),
	setting("snow-optimal-processing", "no block is built while this many are processing",
		func(c *Config) *int { return &c.Snow.OptimalProcessing }, newIntValue),
	setting("snow-max-processing", "health: most blocks processing at once",
		func(c *Config) *int { return &c.Snow.MaxProcessing }, newIntValue),
	setting("snow-max-time-processing", "health: longest time a block may be processing",
		func(c *Config) *time.Duration { return &c.Snow.MaxTimeProcessing }, newDurationValue),
}

// intValue is a decimal integer; Config.Validate checks its range.
type intValue struct{ p *int }

func newIntValue(p *int) Value    { return intValue{p} }
func (v intValue) String() string { return strconv.Itoa(*v.p) }
func (v intValue) Type() string   { return "int" }
func (v intValue) Set(text string) error {
	n, err := strconv.Atoi(text)
	if err != nil {
		return invalidValueError("integer", text)
	}
	*v.p = n
	return nil
}
