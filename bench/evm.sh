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
#   4. stops every node with SIGTERM (SIGKILL after 15 s) and deletes its temporary directory.
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
work=$(mktemp -d /tmp/cornice-evmbench.XXXXXX)
node_pid=

# stop_node: SIGTERM, then SIGKILL after 15 s. Not to be called in a subshell.
stop_node() {
	[[ -n $node_pid ]] || return 0
	kill -TERM "$node_pid" 2>/dev/null || true
	for _ in $(seq 150); do
		kill -0 "$node_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$node_pid" 2>/dev/null; then
		echo "bench: node ignored SIGTERM for 15 s, killing it" >&2
		kill -KILL "$node_pid" 2>/dev/null || true
	fi
	wait "$node_pid" 2>/dev/null || true
	node_pid=
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	stop_node
	rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start_node LOG CMD...: starts CMD in the background, logging to LOG, and sets url to its HTTP
# base once the line naming it appears (at most 60 s).
url=
start_node() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	node_pid=$!
	url=
	for _ in $(seq 600); do
		kill -0 "$node_pid" 2>/dev/null || { echo "bench: node exited; log:" >&2; cat "$log" >&2; return 1; }
		url=$(sed -n -e 's/.*"msg":"cornice node started".*"httpAddr":"\([^"]*\)".*/http:\/\/\1/p' \
			-e 's/^evmload: node serves \(.*\)$/\1/p' "$log" | head -n 1)
		[[ -n $url ]] && return 0
		sleep 0.1
	done
	echo "bench: node did not start within 60 s" >&2
	return 1
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
	stop_node
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
stop_node
