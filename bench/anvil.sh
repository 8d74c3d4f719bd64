#!/usr/bin/env bash
# bench/anvil.sh: anvil 1.7.1 and cornice side by side, on this machine, with the same load tool
# (bench/evmload) in the same run (issue #16 §5), printed as markdown for docs/benchmarks.md.
#
# What it does, in order:
#   1. builds cornice and bench/evmload, and installs anvil 1.7.1 from the npm registry with
#      `npm ci --prefix e2e/foundry` unless it is there;
#   2. starts anvil (its defaults: automine, in memory, its own request log on) and `cornice run`
#      (network local alone, so the developer methods are on; its C-Chain with its real fees,
#      ACP-176; a fresh data dir), each on 127.0.0.1 at a port the OS chooses, and gives the
#      well-known local key 1,000,000 ether on anvil with anvil_setBalance (cornice's genesis
#      funds it); then `evmload node` (the same node as cornice run, but a C-Chain gas target no
#      load reaches), for one row of transfers without the fee market;
#   3. loads each with the same evmload mode in turn, anvil first, and prints one table a
#      measurement:
#      - transfers accepted per second: $N pre-signed transfers from 100 senders, in JSON-RPC
#        batches of 100 on 2 connections, timed from the first call until the chain has accepted
#        the last (anvil mines each in its own block);
#      - evm_mine round trip: 1,000 evm_mine calls in a row on one connection;
#      - eth_call calls/s: get() of a storage contract on 1 and on 16 connections, 10 s each;
#      - evm_snapshot and evm_revert on a chain of $BLOCKS blocks: a snapshot, anvil_mine of
#        $BLOCKS empty blocks (timed), 20 rounds of evm_snapshot, evm_mine and evm_revert on
#        that long chain, then the evm_revert that drops all $BLOCKS blocks (timed);
#   4. stops anvil and the nodes (SIGTERM, SIGKILL after 15 s) and deletes its temporary directory.
#
# A measurement that fails is printed as a row with its error rather than stopping the script.
# Loopback only; every evmload call is bounded by its -timeout (30 min: anvil_mine of 10,000
# blocks takes minutes on a loaded machine), each call level by -duration.
#
# Usage (from anywhere in the repository): bash bench/anvil.sh
# Environment: N (transfers, default 2000), BLOCKS (default 10000), CORNICE_BIN (a cornice binary
# instead of building ./cmd/cornice), ONLY (the measurements to take, a comma-separated list of
# transfers, mine, call and snapshot; default all; anvil_mine of 10,000 blocks alone takes anvil
# many minutes), ROUNDS (how many times the eth_call rows are taken, anvil and cornice in
# alternation; default 1).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
n=${N:-2000}
blocks=${BLOCKS:-10000}
only=${ONLY:-transfers,mine,call,snapshot}
rounds=${ROUNDS:-1}
for m in ${only//,/ }; do
	case $m in
	transfers | mine | call | snapshot) ;;
	*)
		echo "bench: ONLY lists transfers, mine, call or snapshot, not $m" >&2
		exit 2
		;;
	esac
done
work=$(mktemp -d /tmp/cornice-anvil.XXXXXX)
pids=()

cleanup() {
	local rc=$? p
	trap - EXIT INT TERM
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		for _ in $(seq 150); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start LOG PATTERN CMD...: starts CMD in the background, logging to LOG, and sets url to the
# HTTP base that sed's PATTERN prints from LOG once the line appears (at most 60 s).
url=
start() {
	local log=$1 pattern=$2 pid
	shift 2
	"$@" >"$log" 2>&1 &
	pid=$!
	pids+=("$pid")
	url=
	for _ in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || { echo "bench: $1 exited; log:" >&2; cat "$log" >&2; return 1; }
		url=$(sed -n "$pattern" "$log" | head -n 1)
		[[ -n $url ]] && return 0
		sleep 0.1
	done
	echo "bench: $1 did not start within 60 s" >&2
	return 1
}

# want M: whether measurement M is among $only.
want() { [[ ,$only, == *,$1,* ]]; }

# load URL LABEL FLAGS...: one evmload run; its rows go to stdout, or a row with the error.
load() {
	local target=$1 label=$2 err
	shift 2
	if ! "$work/evmload" -url "$target" -label "$label" -header=false -timeout 30m "$@" 2>"$work/load.err"; then
		err=$(grep '^evmload: ' "$work/load.err" | grep -v ': wave \|: funding \|: signing ' | tail -n 1)
		echo "| $label | failed: ${err#evmload: } |"
	fi
}

cd "$root"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench: building" >&2
cornice=${CORNICE_BIN:-$work/cornice}
[[ -n ${CORNICE_BIN:-} ]] || go build -o "$cornice" ./cmd/cornice
go build -o "$work/evmload" ./bench/evmload
anvil=e2e/foundry/node_modules/.bin/anvil
if [[ ! -x $anvil ]]; then
	echo "bench: npm ci --prefix e2e/foundry" >&2
	timeout 300 npm ci --prefix e2e/foundry --no-audit --no-fund --loglevel=error >&2
fi

start "$work/anvil.log" 's/^Listening on \(127\.0\.0\.1:[0-9]*\)$/http:\/\/\1/p' \
	"$anvil" --host 127.0.0.1 --port 0
anvil_url=$url
curl -s --max-time 10 -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"anvil_setBalance","params":["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","0xd3c21bcecceda1000000"]}' \
	"$anvil_url" | grep -q '"result":null' || { echo "bench: anvil_setBalance failed" >&2; exit 1; }
start "$work/node.log" 's/.*"msg":"cornice node started".*"httpAddr":"\([^"]*\)".*/http:\/\/\1/p' \
	"$cornice" run --data-dir "$work/data" --http-host 127.0.0.1 --http-port 0 --staking-port 0
cornice_url=$url
if want transfers; then
	start "$work/bench-node.log" 's/^evmload: node serves \(.*\)$/\1/p' \
		"$work/evmload" -data-dir "$work/bench-data" -timeout 2h node
	bench_url=$url

	echo "### Transfers accepted per second ($n transfers, 100 senders, batches of 100 calls, 2 connections)"
	echo
	echo "| target | transfers | batch | c | senders | time s | accepted/s | sent/s | blocks | txs/block | max txs/block |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	load "$anvil_url" "anvil 1.7.1" -as-is -n "$n" -batch 100 -c 2 transfers
	load "$cornice_url" "cornice run (ACP-176 fees)" -n "$n" -batch 100 -c 2 transfers
	load "$bench_url" "cornice, evmload node (gas target never reached)" -n "$n" -batch 100 -c 2 transfers
	echo
fi
if want mine; then
	echo "### evm_mine round trip (1,000 calls in a row, one connection)"
	echo
	echo "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	load "$anvil_url" "anvil 1.7.1" -as-is -n 1000 mine
	load "$cornice_url" "cornice run" -n 1000 mine
	echo
fi
if want call; then
	echo "### eth_call calls/s (get() of a storage contract, 10 s a row)"
	echo
	echo "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	for _ in $(seq "$rounds"); do
		for c in 1 16; do
			load "$anvil_url" "anvil 1.7.1" -as-is -n 1000000 -duration 10s -c "$c" call
			load "$cornice_url" "cornice run" -n 1000000 -duration 10s -c "$c" call
		done
	done
	echo
fi
if want snapshot; then
	echo "### evm_snapshot and evm_revert on a chain of $blocks blocks"
	echo
	echo "| target | step | times | p50 ms | p99 ms |"
	echo "|---|---|---:|---:|---:|"
	load "$anvil_url" "anvil 1.7.1" -as-is -blocks "$blocks" -rounds 20 snapshot
	load "$cornice_url" "cornice run" -blocks "$blocks" -rounds 20 snapshot
	echo
fi
echo "Commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d), $(nproc) cores, load average $load_before at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end."
