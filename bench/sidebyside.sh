#!/usr/bin/env bash
# bench/sidebyside.sh: info.getNodeVersion on a node against a bare net/http server answering the
# same bytes (issue #11 §4), side by side in one run, as markdown for docs/benchmarks.md.
#
# It starts `cornice run` (fresh data dir, 127.0.0.1:$PORT) and `loadgen -serve` (the bare server,
# its reply copied from the node's), then for $ROUNDS rounds loads each in turn at concurrency
# $C with $N requests, and reads each server process's CPU time (utime+stime, /proc/<pid>/stat)
# before and after its load. Per row: requests/s and the server's CPU per request. Throughput on a
# shared machine swings with the load of other processes; CPU per request moves much less, and the
# ratio of the two servers' CPU per request is the node's overhead. Interleaving the rounds exposes
# both servers to the same moments of the machine.
#
# With SETTINGS=1 a third server is loaded in each round: the bare server again, given the node's
# connection timeouts and cleartext HTTP/2 (`loadgen -serve -node-settings`), so that what those
# settings cost is told apart from what the node's handlers cost.
#
# Usage: bash bench/sidebyside.sh
# Environment: PORT (default 19650; PORT+1 staking, PORT+2 bare server, PORT+3 the bare server
# with the node's settings), N (default 50000), C (default 16), ROUNDS (default 3), CORNICE_BIN
# (a binary instead of building ./cmd/cornice), CPU (all, the default: user and system time; user:
# user time only), SETTINGS (1: load the third server too).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-19650}
n=${N:-50000}
conc=${C:-16}
rounds=${ROUNDS:-3}
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init side
bench_log=$work/node.log
cornice=${CORNICE_BIN:-$work/cornice}

cd "$root"
if [[ -z ${CORNICE_BIN:-} ]]; then go build -o "$cornice" ./cmd/cornice; fi
go build -o "$work/loadgen" ./bench/loadgen

node_url=http://127.0.0.1:$port/ext/info
bare_url=http://127.0.0.1:$((port + 2))/ext/info
"$cornice" run --data-dir "$work/data" --http-port "$port" --staking-port "$((port + 1))" >"$work/node.log" 2>&1 &
node_pid=$!
bench_track "$node_pid"
bench_ready "$node_url" "$node_pid"
"$work/loadgen" -serve "127.0.0.1:$((port + 2))" -url "$node_url" 2>"$work/bare.log" &
bare_pid=$!
bench_track "$bare_pid"
bench_ready "$bare_url" "$bare_pid"
targets=(node bare)
if [[ ${SETTINGS:-} == 1 ]]; then
	settings_url=http://127.0.0.1:$((port + 3))/ext/info
	"$work/loadgen" -serve "127.0.0.1:$((port + 3))" -node-settings -url "$node_url" 2>"$work/settings.log" &
	settings_pid=$!
	bench_track "$settings_pid"
	bench_ready "$settings_url" "$settings_pid"
	targets+=(bare+settings)
fi

# CPU=user counts user time only: the handler chain's work, without the kernel's TCP work that
# both servers share and that moves most with the machine's load.
if [[ ${CPU:-all} == user ]]; then
	ticks() { awk '{ print $14 }' "/proc/$1/stat"; }
else
	ticks() { cpu_ticks "$1"; }
fi
hz=$(getconf CLK_TCK)

echo "| round | server | req/s | server CPU µs/request |"
echo "|---:|---|---:|---:|"
for round in $(seq "$rounds"); do
	for target in "${targets[@]}"; do
		case $target in
		node) pid=$node_pid url=$node_url ;;
		bare) pid=$bare_pid url=$bare_url ;;
		*) pid=$settings_pid url=$settings_url ;;
		esac
		"$work/loadgen" -url "$url" -c "$conc" -n 2000 -warmup 0 -header=false >/dev/null
		t0=$(ticks "$pid")
		row=$("$work/loadgen" -url "$url" -c "$conc" -n "$n" -duration 60s -warmup 0 -header=false)
		t1=$(ticks "$pid")
		# loadgen's row: | label | method | c | requests | errors | req/s | ...
		awk -F'|' -v r="$round" -v t="$target" -v cpu=$((t1 - t0)) -v hz="$hz" '{
			gsub(/ /, "", $5); gsub(/ /, "", $7)
			printf "| %s | %s | %s | %.1f |\n", r, t, $7, cpu / hz * 1e6 / $5
		}' <<<"$row"
	done
done
echo
echo "$(measured_build), $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), c=$conc, $n requests per row."
