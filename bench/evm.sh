#!/usr/bin/env bash
# bench/evm.sh: C-Chain load figures for docs/benchmarks.md (issue #4 §5), printed as markdown.
#
# What it does, in order:
#   1. builds cornice and bench/evmload;
#   2. starts `cornice run --dev-methods=false` (the C-Chain with its real fees, ACP-176 at the
#      reference's target: with developer methods on, a lone local node's default, its target
#      would be 1G gas a second from the first block, docs/configuration.md) on a fresh data dir,
#      on 127.0.0.1 at a port the OS chooses, and sends 4,000 pre-signed transfers (84M gas: the first
#      10M at once, then ACP-176's 2M gas a second) in JSON-RPC batches of 100, then not batched;
#      then the same not batched on a node started with --evm-block-time 50ms. Each on a fresh
#      node; every transfer has the fee cap of FEE_CAP_GWEI;
#   3. starts `evmload node` (the same node, but its C-Chain without Fortuna and with a window
#      gas target no load reaches, so the base fee stays at its minimum and nothing caps the gas
#      a second) and sends 10,000 transfers batched and not, calls eth_call at
#      concurrency 1 and 16, then sends 100,000 transfers in waves of 10,000 and reads the node's
#      resident memory;
#   4. stops every node with SIGTERM (SIGKILL after 15 s) and deletes its temporary directory
#      (bench/lib.sh).
#
# A run that fails (transfers refused because the base fee rose above their fee cap) is printed
# as a row with its error rather than stopping the script. Loopback only; each wave is bounded by
# evmload's -timeout, each call level by -duration.
#
# Usage (from anywhere in the repository): bash bench/evm.sh
# Environment: FEE_CAP_GWEI (fee cap of every transfer against `cornice run`, default 25: the
# pre-ACP-176 minimum base fee, far above the few wei ACP-176 asks after such a burst).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
fee_cap=${FEE_CAP_GWEI:-25}
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init evmbench
node_pid=

# start_node LOG CMD...: starts a cornice node or `evmload node` and sets url and node_pid.
start_node() {
	local log=$1
	shift
	bench_start "$log" "$bench_cornice_url;s/^evmload: node serves \(.*\)$/\1/p" "$@"
	node_pid=$started
}

# load LABEL FLAGS...: one evmload run against $url; its rows go to stdout, or a row with the
# error when it fails.
load() {
	local label=$1 err
	shift
	if ! "$work/evmload" -url "$url" -label "$label" -header=false "$@" 2>"$work/load.err"; then
		err=$(grep '^evmload: ' "$work/load.err" | grep -v ': wave \|: funding \|: signing ' | tail -n 1)
		echo "| $label | failed: ${err#evmload: } |"
	fi
}

cd "$root"
echo "bench: building" >&2
go build -o "$work/cornice" ./cmd/cornice
go build -o "$work/evmload" ./bench/evmload

transfers_header="| target | transfers | batch | c | senders | time s | accepted/s | sent/s | blocks | txs/block | max txs/block |
|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"

echo "### cornice run, the C-Chain's fees (ACP-176; fee cap $fee_cap gwei)"
echo
echo "$transfers_header"
for run in "batch 100 0s" "batch 1 0s" "batch 1 50ms"; do
	read -r _ batch block_time <<<"$run"
	rm -rf "$work/data"
	start_node "$work/node.log" "$work/cornice" run --data-dir "$work/data" --http-host 127.0.0.1 \
		--http-port 0 --staking-port 0 --evm-block-time "$block_time" --dev-methods=false
	c=4
	((batch > 1)) && c=2
	load "cornice run, --evm-block-time $block_time" -n 4000 -batch "$batch" -c "$c" \
		-fee-cap-gwei "$fee_cap" -timeout 120s transfers
	bench_stop "$node_pid"
done

echo
echo "### evmload node: the same node, no ACP-176 and a window gas target never reached (base fee at its minimum)"
echo
rm -rf "$work/data"
start_node "$work/node.log" "$work/evmload" -data-dir "$work/data" -timeout 30m node
echo "$transfers_header"
load "evmload node" -n 10000 -batch 100 -c 2 transfers
load "evmload node" -n 10000 -batch 1 -c 4 transfers
echo
echo "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
load "evmload node" -n 100000 -duration 10s -c 1 call
load "evmload node" -n 100000 -duration 10s -c 16 call
echo
echo "$transfers_header"
load "evmload node" -n 100000 -wave 10000 -batch 100 -c 2 -pid "$node_pid" transfers
bench_stop "$node_pid"
