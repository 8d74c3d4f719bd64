// Package l1validatorstest provides in-memory implementations of the interfaces package
// l1validators declares, for tests of l1validators and of the packages that wire it.
//
// The fakes are plain data: build them with literals and do not change them once a Service reads
// them. Reads are safe for concurrent use.
package l1validatorstest

import (
	"context"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/api/l1validators"
	"github.com/cornice-node/cornice/ids"
)

// Source is a fixed validator set, or a failure when Err is set.
type Source struct {
	Validators []l1validators.Validator
	Err        error
}

var _ l1validators.Source = (*Source)(nil)

// CurrentValidators returns s.Validators, or s.Err.
func (s *Source) CurrentValidators(context.Context) ([]l1validators.Validator, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	return s.Validators, nil
}

// Uptimes reports fixed up times, all computed at At, and a fixed set of connected nodes.
type Uptimes struct {
	At        time.Time
	Up        map[ids.ID]time.Duration
	Connected map[ids.NodeID]bool
}

var _ l1validators.Uptimes = (*Uptimes)(nil)

// Uptime returns u.Up[validationID] and u.At; a validation missing from Up fails with the
// tracker's text, `validationID not found: <id>`.
func (u *Uptimes) Uptime(validationID ids.ID) (time.Duration, time.Time, error) {
	up, ok := u.Up[validationID]
	if !ok {
		return 0, time.Time{}, fmt.Errorf("validationID not found: %s", validationID)
	}
	return up, u.At, nil
}

// IsConnected reports u.Connected[nodeID].
func (u *Uptimes) IsConnected(nodeID ids.NodeID) bool { return u.Connected[nodeID] }
