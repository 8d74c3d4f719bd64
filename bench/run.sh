#!/usr/bin/env bash
# bench/run.sh: benchmark a local cornice node's HTTP API and print the results as markdown for
# docs/benchmarks.md.
#
# What it does, in order:
#   1. builds cornice (/tmp/cornice-bench) and the load generator (bench/loadgen);
#   2. starts `cornice run` on network local in a fresh temporary data dir, on 127.0.0.1:$PORT,
#      as a separate process, and waits until info.getNodeVersion answers (at most 60 s);
#   3. records the start-up time and the idle RSS of the node (VmRSS from /proc/<pid>/status,
#      2 s after its first answer);
#   4. loads info.getNodeVersion, info.getNodeID and info.peers at each concurrency in $LEVELS;
#   5. records RSS after the load and the peak (VmHWM);
#   6. measures the ceiling of this machine for the same reply: a bare net/http server that answers
#      with the bytes and headers copied from the node's info.getNodeVersion reply, twice:
#        - "bare (in-process)": loadgen -bare, server and client in one Go process;
#        - "bare (process)": loadgen -serve in its own process, loaded by a second loadgen,
#          which is the same arrangement as the node runs.
#   7. stops the node with SIGTERM and records how long it took to exit.
#
# Cores: the load generator runs on the same machine as the server in every row, so client and
# server share the cores (2 on the reference machine). That is why the node runs as a separate
# process, and why the ceiling is given both in-process and as a separate process: compare the node
# with "bare (process)", and read the gap to "bare (in-process)" as the cost of two schedulers and
# the OS between them, not as the node's.
#
# Everything is loopback only and bounded: each level stops after $N requests or $DURATION, whichever
# comes first, and the trap stops every process this script started and deletes its temporary
# directory, whatever happens.
#
# Usage (from anywhere in the repository):
#   bench/run.sh                          # defaults below
#   PORT=29650 N=50000 DURATION=20s LEVELS=1,8,32,128 bench/run.sh
#
# Environment: PORT (node HTTP port, default 19650; the staking port is PORT+1 and the separate
# bare server uses PORT+2), N (requests per level, default 20000), DURATION (per level, warm-up
# included, default 10s), LEVELS (default 1,16,64), WARMUP (requests before each level, default 500),
# CORNICE_BIN (a cornice binary to benchmark instead of building ./cmd/cornice).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-19650}
staking_port=$((port + 1))
bare_port=$((port + 2))
n=${N:-20000}
duration=${DURATION:-10s}
levels=${LEVELS:-1,16,64}
warmup=${WARMUP:-500}
cornice=${CORNICE_BIN:-/tmp/cornice-bench}

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init bench
bench_log=$work/node.log
loadgen=$work/loadgen
node_pid=
rows=$work/rows.md

# load URL LABEL METHOD [loadgen flags...]: one loadgen run, its table rows appended to $rows. It
# runs in the background and is waited for, so a signal to this script is handled at once.
load() {
	local url=$1 label=$2 method=$3 pid
	shift 3
	"$loadgen" -url "$url" -label "$label" -method "$method" -c "$levels" -n "$n" \
		-duration "$duration" -warmup "$warmup" -header=false "$@" >>"$rows" &
	pid=$!
	bench_track "$pid"
	bench_wait "$pid"
}

for p in "$port" "$staking_port" "$bare_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "bench: 127.0.0.1:$p is already in use; set PORT to a free range" >&2
		exit 1
	fi
done

cd "$root"
echo "bench: building" >&2
if [[ -z ${CORNICE_BIN:-} ]]; then go build -o "$cornice" ./cmd/cornice; fi
go build -o "$loadgen" ./bench/loadgen

url=http://127.0.0.1:$port/ext/info
echo "bench: starting cornice on 127.0.0.1:$port (data in $work/data)" >&2
started=$(date +%s%N)
"$cornice" run --data-dir "$work/data" --http-port "$port" --staking-port "$staking_port" \
	>"$work/node.log" 2>&1 &
node_pid=$!
bench_track "$node_pid"
bench_ready "$url" "$node_pid"
ready=$(date +%s%N)
sleep 2
idle_rss=$(kib "$node_pid" VmRSS)

echo "bench: loading the node" >&2
load "$url" cornice info.getNodeVersion
load "$url" cornice info.getNodeID
load "$url" cornice info.peers
loaded_rss=$(kib "$node_pid" VmRSS)
peak_rss=$(kib "$node_pid" VmHWM)

echo "bench: loading the bare ceiling" >&2
load "$url" "bare (in-process)" info.getNodeVersion -bare
"$loadgen" -serve "127.0.0.1:$bare_port" -url "$url" -method info.getNodeVersion 2>>"$work/bare.log" &
bare_pid=$!
bench_track "$bare_pid"
bench_ready "http://127.0.0.1:$bare_port/ext/info" "$bare_pid"
load "http://127.0.0.1:$bare_port/ext/info" "bare (process)" info.getNodeVersion
bench_stop "$bare_pid"

reply_bytes=$(curl -s -o /dev/null -w '%{size_download}' --max-time 2 -H 'Content-Type: application/json' \
	-d '{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}' "$url" || echo '?')
bench_stop "$node_pid"
stop_ms=$stopped_ms

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
cat <<EOF
## HTTP API load ($(date -u +%Y-%m-%d))

Machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sr); $(go version | cut -d' ' -f3); commit $commit.
Node: \`cornice run\` on network local, fresh data dir; loadgen on the same machine (client and
server share the cores). $n requests per level or $duration, whichever comes first, after $warmup
warm-up requests; latency is exact over all samples, from sending the request to the last byte of
the reply. Reply copied for the bare rows: $reply_bytes bytes.

| target | method | c | requests | errors | req/s | p50 µs | p99 µs | max µs | time s |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
$(cat "$rows")

| node process | value |
|---|---|
| start-up to first answer | $(((ready - started) / 1000000)) ms |
| idle RSS (2 s after start-up) | $(mib "$idle_rss") |
| RSS after the load | $(mib "$loaded_rss") |
| peak RSS (VmHWM) | $(mib "$peak_rss") |
| exit after SIGTERM | $stop_ms ms |
EOF
