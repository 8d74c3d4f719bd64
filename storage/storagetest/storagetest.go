// Package storagetest checks storage's rule "one answer, one state" (package storage, "One
// answer, one state") from the outside: answers made of several reads are read over and over
// while a writer commits what they read, and none may show half of a commit.
package storagetest

import (
	"sync"
	"sync/atomic"
	"testing"
)

// ReadsWhole runs each of reads over and over, each on its own goroutine, while commit runs for
// cycle 1 to cycles on the test's goroutine (commit fails t itself, with require). A read returns
// an error for an answer that is torn or fails. The first error of each read fails t; the cycles
// stop early once a read has failed. The count of cycles bounds the test, not a clock.
func ReadsWhole(t testing.TB, cycles int, commit func(cycle int), reads ...func() error) {
	t.Helper()
	var (
		wg   sync.WaitGroup
		stop atomic.Bool
		torn = make(chan error, len(reads))
	)
	for _, read := range reads {
		wg.Go(func() {
			for !stop.Load() {
				if err := read(); err != nil {
					torn <- err
					return
				}
			}
		})
	}
	// Stop the readers even if commit fails t (runtime.Goexit), so that none outlives the test.
	defer func() {
		stop.Store(true)
		wg.Wait()
		close(torn)
		for err := range torn {
			t.Error(err)
		}
	}()
	for cycle := 1; cycle <= cycles && len(torn) == 0; cycle++ {
		commit(cycle)
	}
}
