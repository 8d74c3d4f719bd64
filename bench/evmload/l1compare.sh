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
# 15 s) and its directory deleted (bench/lib.sh). The load average is printed before and after.
#
# Usage (from anywhere in the repository): bash bench/evmload/l1compare.sh
# Environment: ROUNDS (default 5); REPEAT (runs per node, default 1); LOAD (evmload's flags, default "-n 10000 -batch 100 -c 2").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${ROUNDS:-5}
repeat=${REPEAT:-1}
read -r -a load <<<"${LOAD:--n 10000 -batch 100 -c 2}"
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init l1compare

# one TARGET ROUND: one run of TARGET (C or L1) on a fresh node.
one() {
	local target=$1 round=$2 dir="$work/$2-$1"
	if [[ $target == C ]]; then
		bench_start "$dir.log" 's|^evmload: node serves ||p' "$work/evmload" -data-dir "$dir" -timeout 30m node
	else
		bench_start "$dir.log" 's|^evmload: L1 serves ||p' "$work/evmload" -l1 -data-dir "$dir" -timeout 30m node
	fi
	for k in $(seq "$repeat"); do
		"$work/evmload" -url "$url" "${load[@]}" -label "$target (round $round, run $k)" -header=false transfers 2>/dev/null ||
			echo "| $target (round $round, run $k) | failed |"
	done
	bench_stop "$started"
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
