package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/clock"
)

// The developer methods (issue #16 §1) timed by the mine and snapshot modes, as anvil names them.
const (
	methodMine     = "evm_mine"
	methodMineMany = "anvil_mine"
	methodSnapshot = "evm_snapshot"
	methodRevert   = "evm_revert"
)

// blockNumber reads the head's height.
func blockNumber(ctx context.Context, c *rpcClient) (uint64, error) {
	var head hexutil.Uint64
	if err := c.call(ctx, &head, "eth_blockNumber"); err != nil {
		return 0, err
	}
	return uint64(head), nil
}

// wantHeight checks that the head is at want after what.
func wantHeight(ctx context.Context, c *rpcClient, want uint64, what string) error {
	got, err := blockNumber(ctx, c)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%w: height %d after %s, want %d", errDevMethod, got, what, want)
	}
	return nil
}

// runMine calls evm_mine cfg.n times in a row on one connection, each waiting for the last: the
// round trip of mining one empty block on demand. Every call must answer "0x0", and the chain
// must have grown by cfg.n blocks.
func runMine(ctx context.Context, clk clock.Clock, c *rpcClient, cfg cliConfig) (callResult, error) {
	from, err := blockNumber(ctx, c)
	if err != nil {
		return callResult{}, err
	}
	samples := make([]time.Duration, 0, cfg.n)
	start := clk.Now()
	for range cfg.n {
		t0 := clk.Now()
		var got string
		if err := c.call(ctx, &got, methodMine); err != nil {
			return callResult{}, fmt.Errorf("%s: %w", methodMine, err)
		}
		if got != "0x0" {
			return callResult{}, fmt.Errorf("%w: %s answered %q, want \"0x0\"", errDevMethod, methodMine, got)
		}
		samples = append(samples, clk.Now().Sub(t0))
	}
	elapsed := clk.Now().Sub(start)
	if err := wantHeight(ctx, c, from+uint64(cfg.n), fmt.Sprintf("%d %s", cfg.n, methodMine)); err != nil {
		return callResult{}, err
	}
	slices.Sort(samples)
	return callResult{
		conns: 1, calls: len(samples), elapsed: elapsed,
		p50: percentile(samples, 50), p99: percentile(samples, 99),
	}, nil
}

// snapshotResult is the outcome of the snapshot mode: the time of each step, and the p50 and p99
// of the rounds of snapshot and revert on the long chain.
type snapshotResult struct {
	blocks int
	// build is anvil_mine of the blocks; revertAll the evm_revert that drops all of them.
	build, revertAll time.Duration
	rounds           int
	snapshot, revert [2]time.Duration // p50, p99
}

func (r snapshotResult) rows(label string) string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("| %s | %s %d blocks | 1 | %s | |\n", label, methodMineMany, r.blocks, ms(r.build)) +
		fmt.Sprintf("| %s | %s at height %d+ | %d | %s | %s |\n", label, methodSnapshot, r.blocks, r.rounds, ms(r.snapshot[0]), ms(r.snapshot[1])) +
		fmt.Sprintf("| %s | %s of 1 block at height %d+ | %d | %s | %s |\n", label, methodRevert, r.blocks, r.rounds, ms(r.revert[0]), ms(r.revert[1])) +
		fmt.Sprintf("| %s | %s of %d blocks | 1 | %s | |", label, methodRevert, r.blocks, ms(r.revertAll))
}

func snapshotHeader() string {
	return "| target | step | times | p50 ms | p99 ms |\n|---|---|---:|---:|---:|"
}

// runSnapshot times evm_snapshot and evm_revert on a chain of cfg.blocks blocks: it takes a
// snapshot, mines cfg.blocks empty blocks with one anvil_mine, then cfg.rounds times takes a
// snapshot, mines one block and reverts to it, and at last reverts to the first snapshot, which
// drops every block it mined. Each revert must answer true and leave the chain at the height of
// its snapshot.
func runSnapshot(ctx context.Context, clk clock.Clock, c *rpcClient, cfg cliConfig) (snapshotResult, error) {
	res := snapshotResult{blocks: cfg.blocks, rounds: cfg.rounds}
	h0, err := blockNumber(ctx, c)
	if err != nil {
		return res, err
	}
	var first string
	if err := c.call(ctx, &first, methodSnapshot); err != nil {
		return res, fmt.Errorf("%s: %w", methodSnapshot, err)
	}
	t0 := clk.Now()
	if err := c.call(ctx, nil, methodMineMany, hexutil.Uint64(cfg.blocks)); err != nil {
		return res, fmt.Errorf("%s %d: %w", methodMineMany, cfg.blocks, err)
	}
	res.build = clk.Now().Sub(t0)
	top := h0 + uint64(cfg.blocks)
	if err := wantHeight(ctx, c, top, methodMineMany); err != nil {
		return res, err
	}

	snaps := make([]time.Duration, 0, cfg.rounds)
	reverts := make([]time.Duration, 0, cfg.rounds)
	for range cfg.rounds {
		t0 := clk.Now()
		var id string
		if err := c.call(ctx, &id, methodSnapshot); err != nil {
			return res, fmt.Errorf("%s: %w", methodSnapshot, err)
		}
		snaps = append(snaps, clk.Now().Sub(t0))
		if err := c.call(ctx, nil, methodMine); err != nil {
			return res, fmt.Errorf("%s: %w", methodMine, err)
		}
		d, err := revert(ctx, clk, c, id)
		if err != nil {
			return res, err
		}
		reverts = append(reverts, d)
		if err := wantHeight(ctx, c, top, methodRevert); err != nil {
			return res, err
		}
	}
	slices.Sort(snaps)
	slices.Sort(reverts)
	res.snapshot = [2]time.Duration{percentile(snaps, 50), percentile(snaps, 99)}
	res.revert = [2]time.Duration{percentile(reverts, 50), percentile(reverts, 99)}

	if res.revertAll, err = revert(ctx, clk, c, first); err != nil {
		return res, err
	}
	return res, wantHeight(ctx, c, h0, fmt.Sprintf("%s of %d blocks", methodRevert, cfg.blocks))
}

// revert reverts to snapshot id, which must answer true, and returns the call's time.
func revert(ctx context.Context, clk clock.Clock, c *rpcClient, id string) (time.Duration, error) {
	t0 := clk.Now()
	var ok bool
	if err := c.call(ctx, &ok, methodRevert, id); err != nil {
		return 0, fmt.Errorf("%s %s: %w", methodRevert, id, err)
	}
	d := clk.Now().Sub(t0)
	if !ok {
		return 0, fmt.Errorf("%w: %s %s answered false", errDevMethod, methodRevert, id)
	}
	return d, nil
}
