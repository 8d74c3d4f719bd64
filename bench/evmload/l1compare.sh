#!/usr/bin/env bash
# bench/evmload/l1compare.sh: transfers/s of the C-Chain against an L1 with the transaction allow
# list on (issue #6 §7), end to end over HTTP, printed as markdown rows for docs/benchmarks.md.
#
# It builds evmload once, then for ROUNDS rounds runs the two targets one after the other, the
# order swapped every round (C then L1, L1 then C, …), each on a fresh node in a fresh data dir:
#   C:  `evmload node`, loaded at its C-Chain with `evmload -url <node> … transfers`;
#   L1: `evmload -l1 node` (the same node, which creates the L1 on itself over its P-Chain and
#       prints its RPC URL), loaded with `evmload -url <L1 RPC URL> … transfers`.
# Both chains have the same fee config (benchFees) and the same 100 senders; the only difference
# is that the L1's senders pass the allow list. With REPEAT > 1 each node is loaded REPEAT times
# in a row (run 1 meets a fresh chain and cold caches, later runs a warm node with more state).
# Each node is stopped with SIGTERM (SIGKILL after
# 15 s) and its directory deleted. The load average is printed before and after.
#
# Usage (from anywhere in the repository): bash bench/evmload/l1compare.sh
# Environment: ROUNDS (default 5); REPEAT (runs per node, default 1); LOAD (evmload's flags, default "-n 10000 -batch 100 -c 2").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${ROUNDS:-5}
repeat=${REPEAT:-1}
read -r -a load <<<"${LOAD:--n 10000 -batch 100 -c 2}"
work=$(mktemp -d /tmp/cornice-l1compare.XXXXXX)
node_pid=

stop_node() {
	[[ -n $node_pid ]] || return 0
	kill -TERM "$node_pid" 2>/dev/null || true
	for _ in $(seq 150); do
		kill -0 "$node_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$node_pid" 2>/dev/null; then
		echo "l1compare: node ignored SIGTERM for 15 s, killing it" >&2
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

# start_node LOG PATTERN FLAGS...: starts `evmload FLAGS node` and sets url to what follows
# PATTERN on a line of its stdout (at most 60 s).
url=
start_node() {
	local log=$1 pattern=$2
	shift 2
	: >"$log"
	"$work/evmload" "$@" node >"$log" 2>&1 &
	node_pid=$!
	url=
	for _ in $(seq 600); do
		kill -0 "$node_pid" 2>/dev/null || { echo "l1compare: node exited; log:" >&2; cat "$log" >&2; return 1; }
		url=$(sed -n "s|^$pattern ||p" "$log" | head -n 1)
		[[ -n $url ]] && return 0
		sleep 0.1
	done
	echo "l1compare: node did not serve within 60 s" >&2
	return 1
}

# one TARGET ROUND: one run of TARGET (C or L1) on a fresh node.
one() {
	local target=$1 round=$2 dir="$work/$2-$1"
	if [[ $target == C ]]; then
		start_node "$dir.log" "evmload: node serves" -data-dir "$dir" -timeout 30m
	else
		start_node "$dir.log" "evmload: L1 serves" -l1 -data-dir "$dir" -timeout 30m
	fi
	for k in $(seq "$repeat"); do
		"$work/evmload" -url "$url" "${load[@]}" -label "$target (round $round, run $k)" -header=false transfers 2>/dev/null ||
			echo "| $target (round $round, run $k) | failed |"
	done
	stop_node
	rm -rf "$dir"
}

(cd "$root" && go build -o "$work/evmload" ./bench/evmload)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| target | transfers | batch | c | senders | time s | accepted/s | sent/s | blocks | txs/block | max txs/block |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $(seq "$rounds"); do
	if ((r % 2)); then
		one C "$r"
		one L1 "$r"
	else
		one L1 "$r"
		one C "$r"
	fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
