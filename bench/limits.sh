#!/usr/bin/env bash
# bench/limits.sh: the abusive-client figures of docs/benchmarks.md (issue #11 §6), as markdown.
#
# What it does, in order:
#   1. builds cornice, bench/evmload and bench/loadgen (or uses $CORNICE_BIN);
#   2. starts `cornice run` on a fresh data dir on 127.0.0.1:$PORT and makes $BLOCKS C-Chain blocks
#      of one transfer each (evmload, waves of one transfer);
#   3. writes the abusive body: a batch of 1,000 index.getContainerRange calls (1,024 containers
#      from index 0, hex) for /ext/index/C/block, and records the size of one reply;
#   4. calls info.getNodeVersion alone at concurrency 1 for $DURATION (the baseline), then runs
#      $CLIENTS curl loops that POST that batch again and again for $DURATION, while loadgen
#      calls info.getNodeVersion at concurrency 1 (its max latency is the light-call figure), and
#      samples the node's VmRSS every 0.2 s;
#   5. prints the node's RSS before, the highest sample and VmHWM, the batches answered and the
#      light calls' latency; then stops the node (SIGTERM, SIGKILL after 15 s; bench/lib.sh).
#
# Loopback only; bounded by $DURATION and the trap, which stops every process this script started
# and deletes its temporary directory whatever happens. Against a node without the limits, keep
# CLIENTS=1: one such batch took a node to 1.07 GB.
#
# Usage: bash bench/limits.sh
# Environment: PORT (default 19750; the staking port is PORT+1), CLIENTS (default 20), DURATION
# (seconds, default 20), BLOCKS (default 300), CORNICE_BIN (a cornice binary to run instead of
# building ./cmd/cornice), NODE_FLAGS (extra flags of `cornice run`).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-19750}
clients=${CLIENTS:-20}
duration=${DURATION:-20}
blocks=${BLOCKS:-300}
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init limits
bench_log=$work/node.log
cornice=${CORNICE_BIN:-$work/cornice}

cd "$root"
echo "bench: building" >&2
if [[ -z ${CORNICE_BIN:-} ]]; then go build -o "$cornice" ./cmd/cornice; fi
go build -o "$work/evmload" ./bench/evmload
go build -o "$work/loadgen" ./bench/loadgen

base=http://127.0.0.1:$port
# shellcheck disable=SC2086 # NODE_FLAGS is a list of flags
"$cornice" run --data-dir "$work/data" --http-port "$port" --staking-port "$((port + 1))" \
	${NODE_FLAGS:-} >"$work/node.log" 2>&1 &
node_pid=$!
bench_track "$node_pid"
bench_ready "$base/ext/info" "$node_pid"

echo "bench: making $blocks C-Chain blocks" >&2
"$work/evmload" -url "$base" -n "$blocks" -senders 1 -c 1 -wave 1 -fee-cap-gwei 100000000 \
	-header=false transfers >"$work/evmload.out" 2>&1
last=$(curl -s -H 'Content-Type: application/json' \
	-d '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}' \
	"$base/ext/index/C/block" | sed -E 's/.*"index":"([0-9]+)".*/\1/')

call='{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":0,"numToFetch":1024,"encoding":"hex"}}'
{
	printf '['
	for i in $(seq 1000); do
		((i > 1)) && printf ','
		printf '%s' "$call"
	done
	printf ']'
} >"$work/batch.json"
one=$(curl -s -o /dev/null -w '%{size_download}' -H 'Content-Type: application/json' \
	--data-binary "@$work/batch.json" "$base/ext/index/C/block")
sleep 2
idle=$(kib "$node_pid" VmRSS)
# The light calls alone first, as the baseline of this machine at this moment.
"$work/loadgen" -url "$base/ext/info" -method info.getNodeVersion -c 1 -n 100000000 \
	-duration "${duration}s" -warmup 0 -header=false -label "info (alone)" >"$work/light.md"

echo "bench: $clients clients for ${duration}s" >&2
end=$(($(date +%s) + duration))
load_pids=()
for c in $(seq "$clients"); do
	(
		n=0
		while (($(date +%s) < end)); do
			curl -s -o /dev/null --max-time 60 -H 'Content-Type: application/json' \
				--data-binary "@$work/batch.json" "$base/ext/index/C/block" && n=$((n + 1))
		done
		echo "$n" >"$work/client.$c"
	) &
	load_pids+=($!)
	bench_track $!
done
"$work/loadgen" -url "$base/ext/info" -method info.getNodeVersion -c 1 -n 100000000 \
	-duration "${duration}s" -warmup 0 -header=false -label "info (beside the load)" >>"$work/light.md" &
load_pids+=($!)
bench_track $!
peak=0
while (($(date +%s) < end)); do
	r=$(kib "$node_pid" VmRSS)
	((r > peak)) && peak=$r
	sleep 0.2
done
for p in "${load_pids[@]}"; do bench_wait "$p" || true; done
hwm=$(kib "$node_pid" VmHWM)
batches=$(cat "$work"/client.* | awk '{ s += $1 } END { print s }')

cat <<EOF
$(measured_build), $(date -u +%Y-%m-%d),
$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg). C-Chain index: last accepted index $last. One batch of 1,000
getContainerRange calls: $one bytes of reply. $clients clients for ${duration}s: $batches batches answered.

| node process | value |
|---|---|
| RSS before the load | $(mib "$idle") |
| highest VmRSS sample during the load | $(mib "$peak") |
| VmHWM (peak) | $(mib "$hwm") |

| target | method | c | requests | errors | req/s | p50 µs | p99 µs | max µs | time s |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
$(cat "$work/light.md")
EOF
