// Package health runs the node's health, readiness and liveness checks on demand and serves their
// reports at /ext/health (reference/node-api.md §2.3).
//
// # Model
//
// A check is a function registered under a Kind, a name unique within that kind, and tags. Each
// kind is its own set: Health checks answer /ext/health, /ext/health/health and health.health;
// Readiness checks answer /ext/health/readiness and health.readiness; Liveness checks answer
// /ext/health/liveness and health.liveness. A check that matters to several kinds is registered
// under each.
//
// Checks run when a report is asked for, in parallel, under the request's context and at most
// Config.Timeout each. A check passes when it returns a nil error. Failures are counted per check
// across reports (contiguousFailures, timeOfFirstFailure) and reset by a success; a report whose
// context was cancelled by its caller does not change the counts.
//
// # Tags
//
// A query without tags selects every check of the kind. A query with tags selects the checks that
// carry any of them, plus the checks tagged ApplicationTag. Every check carries AllTag. This is
// the reference node's tag model.
//
// # Concurrency
//
// A Checker is safe for concurrent use; checks may run concurrently with themselves when reports
// overlap, so they must be safe for that. Tags slices passed in are copied.
package health

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// Kind selects the set a check belongs to.
type Kind uint8

// The kinds of checks.
const (
	// Health checks say whether the node is working normally.
	Health Kind = iota
	// Readiness checks say whether the node is ready to serve (for example, bootstrapped).
	Readiness
	// Liveness checks say whether the process is alive and should not be restarted.
	Liveness

	numKinds = iota
)

// String returns the kind's name as used in paths and method names.
func (k Kind) String() string {
	switch k {
	case Health:
		return "health"
	case Readiness:
		return "readiness"
	case Liveness:
		return "liveness"
	default:
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
}

// Tags with a meaning of their own, as in the reference node.
const (
	// AllTag is carried by every check, so ?tag=all selects all of them.
	AllTag = "all"
	// ApplicationTag marks a check that is selected by every tagged query.
	ApplicationTag = "application"
)

// DefaultTimeout bounds one run of one check when Config.Timeout is zero.
const DefaultTimeout = 5 * time.Second

// Check reports the health of one thing. It returns details to show in the report (nil for none)
// and a non-nil error when unhealthy. It should return promptly when ctx is done.
type Check func(ctx context.Context) (details any, err error)

// Config holds the Checker's settings; the zero value is usable.
type Config struct {
	// Timeout bounds one run of one check; a check still running then fails with ErrTimeout.
	// Zero means DefaultTimeout.
	Timeout time.Duration
}

// Checker holds the registered checks and their failure counts.
type Checker struct {
	timeout time.Duration
	clock   clock.Clock
	log     *slog.Logger

	mu     sync.Mutex // guards checks and every entry's failure state
	checks [numKinds]map[string]*entry
}

// entry is one registered check.
type entry struct {
	name  string
	tags  []string // includes AllTag
	check Check

	// Failure state, guarded by Checker.mu.
	failures     int64
	firstFailure time.Time
}

// New returns a Checker that time-stamps results with clk and logs check state changes to log.
func New(cfg Config, clk clock.Clock, log *slog.Logger) (*Checker, error) {
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("%w: negative timeout %s", ErrInvalidConfig, cfg.Timeout)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	c := &Checker{timeout: cfg.Timeout, clock: clk, log: log}
	for k := range c.checks {
		c.checks[k] = map[string]*entry{}
	}
	return c, nil
}

// Register adds a check of the given kind. name must be non-empty and unique within the kind
// (ErrDuplicateCheck otherwise). Checks may be registered at any time; the next report includes
// them.
func (c *Checker) Register(kind Kind, name string, tags []string, check Check) error {
	if kind >= numKinds || name == "" || check == nil {
		return fmt.Errorf("%w: kind %s, name %q", ErrInvalidCheck, kind, name)
	}
	e := &entry{name: name, check: check, tags: append(slices.Clone(tags), AllTag)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.checks[kind][name]; dup {
		return duplicateCheckError(kind, name)
	}
	c.checks[kind][name] = e
	return nil
}

// Report runs the checks of kind selected by tags (all of them when tags is empty) and returns
// their results. It waits for every selected check, each at most Config.Timeout.
func (c *Checker) Report(ctx context.Context, kind Kind, tags ...string) Report {
	selected := c.selectChecks(kind, tags)
	results := make([]Result, len(selected))
	var wg sync.WaitGroup
	for i, e := range selected {
		wg.Go(func() { results[i] = c.run(ctx, e) })
	}
	wg.Wait()

	r := Report{Checks: make(map[string]Result, len(selected)), Healthy: true}
	for i, e := range selected {
		r.Checks[e.name] = results[i]
		if results[i].Error != nil {
			r.Healthy = false
		}
	}
	return r
}

// selectChecks returns the checks of kind chosen by tags, following the package's tag model.
func (c *Checker) selectChecks(kind Kind, tags []string) []*entry {
	if kind >= numKinds {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*entry
	for _, e := range c.checks[kind] {
		if len(tags) == 0 || slices.Contains(e.tags, ApplicationTag) ||
			slices.ContainsFunc(tags, func(t string) bool { return slices.Contains(e.tags, t) }) {
			out = append(out, e)
		}
	}
	return out
}

// outcome is what one run of a check returned.
type outcome struct {
	details any
	err     error
}

// run runs one check under ctx and the timeout, and updates its failure state.
func (c *Checker) run(ctx context.Context, e *entry) Result {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := c.clock.AfterFunc(c.timeout, func() { cancel(ErrTimeout) })
	defer timer.Stop()

	start := c.clock.Now()
	// The check runs in its own goroutine so that one ignoring its context cannot hold the report
	// past the timeout. Such a check's goroutine ends when the check returns; its late result is
	// dropped into the buffered channel.
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{err: panicError(v)}
			}
		}()
		details, err := e.check(ctx)
		done <- outcome{details: details, err: err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-ctx.Done():
		out = outcome{err: context.Cause(ctx)}
	}
	end := c.clock.Now()

	res := Result{Details: out.details, Timestamp: start, Duration: end.Sub(start)}
	callerGone := ctx.Err() != nil && !errors.Is(context.Cause(ctx), ErrTimeout)

	c.mu.Lock()
	defer c.mu.Unlock()
	if out.err == nil {
		if e.failures > 0 && !callerGone {
			c.log.Info("health check recovered", slog.String("check", e.name))
			e.failures = 0
		}
		return res
	}
	msg := out.err.Error()
	res.Error = &msg
	if callerGone {
		// The caller went away: this run says nothing about the check, so the counts stay.
		res.ContiguousFailures = e.failures
		if e.failures > 0 {
			first := e.firstFailure
			res.TimeOfFirstFailure = &first
		}
		return res
	}
	if e.failures == 0 {
		e.firstFailure = start
		c.log.Warn("health check failing", slog.String("check", e.name), slog.String("err", msg))
	}
	e.failures++
	first := e.firstFailure
	res.ContiguousFailures = e.failures
	res.TimeOfFirstFailure = &first
	return res
}
