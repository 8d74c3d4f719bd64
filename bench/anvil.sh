#!/usr/bin/env bash
# bench/anvil.sh: anvil 1.7.1 and cornice side by side, on this machine, with the same load tool
# (bench/evmload) in the same run (issue #16 §5), printed as markdown for docs/benchmarks.md.
#
# What it does, in order:
#   1. builds cornice and bench/evmload, and installs anvil 1.7.1 from the npm registry with
#      `npm ci --prefix e2e/foundry` unless it is there;
#   2. starts anvil (its defaults: automine, in memory, its own request log on) and `cornice run`
#      (network local alone, so the developer methods are on: its C-Chain with ACP-176 at the dev
#      gas target, 1G gas a second from the first block; a fresh data dir), each on 127.0.0.1 at a
#      port the OS chooses, and gives the well-known local key 1,000,000 ether on anvil with
#      anvil_setBalance (cornice's genesis funds it); for the l1 rows, two more `cornice run --l1
#      examples/l1-genesis.json` (the example L1 with its own fee config, untouched), one a row;
#   3. loads each with the same evmload mode in turn, anvil first, and prints one table a
#      measurement (ROWS picks them):
#      - transfers: transfers accepted per second: $N pre-signed transfers from 100 senders, in
#        JSON-RPC batches of 100 on 2 connections, in waves of $WAVE, each timed from its first
#        call until the chain has accepted its last (anvil mines each call's transfer at once,
#        several to a block); the waves keep anvil's pool small: given 10,000 at once, anvil
#        1.7.1 grew to 3.5 GB and had mined 190 blocks after 19 minutes on this machine; l1 adds the same on the example
#        L1 (evmload -allow-senders: the local key, its allow list's admin, enables the senders),
#        with a fee cap of 1,000 gwei and then of 10⁸ gwei, as its fee config prices a burst;
#      - mine: evm_mine round trip: 1,000 evm_mine calls in a row on one connection;
#      - call: eth_call calls/s: get() of a storage contract on 1 and on 16 connections, 10 s each;
#        the mine and call rows end with the server's CPU time a call (from /proc), which a
#        shared machine moves less than calls/s;
#      - snapshot: evm_snapshot and evm_revert on a chain of $BLOCKS blocks: a snapshot,
#        anvil_mine of $BLOCKS empty blocks (timed), 20 rounds of evm_snapshot, evm_mine and
#        evm_revert on that long chain, then the evm_revert that drops all $BLOCKS blocks (timed);
#   4. stops anvil and the nodes (SIGTERM, SIGKILL after 15 s) and deletes its temporary directory
#      (bench/lib.sh).
#
# A measurement that fails is printed as a row with its error rather than stopping the script.
# Loopback only; every evmload call is bounded by its -timeout (30 min: anvil_mine of 10,000
# blocks takes minutes on a loaded machine), each call level by -duration.
#
# Usage (from anywhere in the repository): bash bench/anvil.sh
# Environment: N (transfers, default 10000: anvil takes about 20 s of them on a loaded machine,
# long enough for a steady state), WAVE (default 1000), BLOCKS (default 10000), ROWS (the measurements, separated by
# commas, default transfers,l1,mine,call,snapshot), ROUNDS (how many times the mine, call and
# snapshot rows are taken, anvil first in odd rounds and cornice first in even ones; default 1), CORNICE_BIN (a cornice binary instead of
# building ./cmd/cornice), CORNICE_BASE_BIN (another cornice binary, such as main's build, whose
# `cornice run` the mine, call and snapshot rows load too, in turn with the other two).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
n=${N:-10000}
wave=${WAVE:-1000}
blocks=${BLOCKS:-10000}
rounds=${ROUNDS:-1}
rows=,${ROWS:-transfers,l1,mine,call,snapshot},
for r in ${rows//,/ }; do
	case $r in
	transfers | l1 | mine | call | snapshot) ;;
	*) echo "bench: unknown row $r in ROWS (transfers, l1, mine, call, snapshot)" >&2 && exit 2 ;;
	esac
done
# want ROW: whether ROWS has ROW.
want() { [[ $rows == *,$1,* ]]; }
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init anvil

# load URL LABEL FLAGS...: one evmload run; its rows go to stdout, or a row with the error.
load() {
	local target=$1 label=$2 err waves
	shift 2
	if ! "$work/evmload" -url "$target" -label "$label" -header=false -timeout 30m "$@" 2>"$work/load.err"; then
		err=$(grep '^evmload: ' "$work/load.err" | grep -v ': wave \|: funding \|: signing \|: enabling ' | tail -n 1)
		waves=$(grep -c ': wave ' "$work/load.err" || true)
		[[ $waves == 0 ]] && waves= || waves=" after $waves waves accepted in full"
		echo "| $label | failed$waves: ${err#evmload: } |"
	fi
}

# pair ROUND FLAGS...: the same evmload run on anvil and on cornice's C-Chain, anvil first in
# odd rounds and cornice first in even ones, so that neither always runs on the machine the
# other has just warmed or loaded. With CPU=1 each row gets one more column: the server's CPU
# time (user and system, from /proc) over the calls of the row, in µs a call: the figure that
# moves least when other work shares the cores.
# With CORNICE_BASE_BIN the same run also loads a third server, `cornice run` of that build,
# and the order rotates among the three (anvil, cornice, base; then cornice, base, anvil; …).
pair() {
	local round=$1 i n targets=(anvil cornice)
	shift
	[[ -n $base_url ]] && targets+=(base)
	n=${#targets[@]}
	for ((i = 0; i < n; i++)); do
		case ${targets[(i + round - 1) % n]} in
		anvil) measure "$anvil_pid" "$anvil_url" "anvil 1.7.1" -as-is "$@" ;;
		cornice) measure "$cornice_pid" "$cornice_url" "cornice run" "$@" ;;
		base) measure "$base_pid" "$base_url" "cornice run, CORNICE_BASE_BIN" "$@" ;;
		esac
	done
}

# measure PID URL LABEL FLAGS...: load, with the CPU column when CPU=1.
measure() {
	local pid=$1 row c0 c1 calls
	shift
	if [[ ${CPU:-} != 1 ]]; then
		load "$@"
		return
	fi
	c0=$(cpu_ticks "$pid")
	row=$(load "$@")
	c1=$(cpu_ticks "$pid")
	calls=$(awk -F'|' '{gsub(/ /, "", $5); print $5}' <<<"$row")
	if [[ $calls =~ ^[0-9]+$ ]] && ((calls > 0)); then
		echo "$row $(((c1 - c0) * 1000000 / $(getconf CLK_TCK) / calls)) |"
	else
		echo "$row |"
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

bench_start "$work/anvil.log" 's/^Listening on \(127\.0\.0\.1:[0-9]*\)$/http:\/\/\1/p' \
	"$anvil" --host 127.0.0.1 --port 0
anvil_url=$url
anvil_pid=$started
curl -s --max-time 10 -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"anvil_setBalance","params":["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","0xd3c21bcecceda1000000"]}' \
	"$anvil_url" | grep -q '"result":null' || { echo "bench: anvil_setBalance failed" >&2; exit 1; }
if want transfers || want mine || want call || want snapshot; then
	bench_start "$work/node.log" "$bench_cornice_url" \
		"$cornice" run --data-dir "$work/data" --http-host 127.0.0.1 --http-port 0 --staking-port 0
	cornice_url=$url
	cornice_pid=$started
fi
base_url=
if [[ -n ${CORNICE_BASE_BIN:-} ]] && { want mine || want call || want snapshot; }; then
	bench_start "$work/base.log" "$bench_cornice_url" \
		"$CORNICE_BASE_BIN" run --data-dir "$work/base" --http-host 127.0.0.1 --http-port 0 --staking-port 0
	base_url=$url
	base_pid=$started
fi
if want l1; then
	# Two nodes with the example L1, one for each fee cap: a run leaves transfers its fee cap
	# cannot pay in the mempool, which the next run's could not replace (same senders and tips).
	# The banner lists the L1's RPC URL once the L1 exists; the C-Chain's alias is one letter.
	l1_urls=()
	for d in l1a l1b; do
		bench_start "$work/$d.log" 's/^    rpc  *\(http:\/\/.*\/ext\/bc\/[^/][^/][^/]*\/rpc\)$/\1/p' \
			"$cornice" run --data-dir "$work/$d" --http-host 127.0.0.1 --http-port 0 --staking-port 0 \
			--l1 examples/l1-genesis.json
		l1_urls+=("$url")
	done
fi

if want transfers || want l1; then
	echo "### Transfers accepted per second ($n transfers in waves of $wave, 100 senders, batches of 100 calls, 2 connections)"
	echo
	echo "| target | transfers | batch | c | senders | time s | accepted/s | sent/s | blocks | txs/block | max txs/block |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	load "$anvil_url" "anvil 1.7.1" -as-is -n "$n" -wave "$wave" -batch 100 -c 2 transfers
	if want transfers; then
		load "$cornice_url" "cornice run (C-Chain, dev gas target)" -n "$n" -wave "$wave" -batch 100 -c 2 transfers
	fi
	if want l1; then
		# Its fee config prices a burst by the window (25 gwei and up): first with evmload's
		# usual fee cap (1,000 gwei, a wallet's), then with one no base fee of the run reaches.
		load "${l1_urls[0]}" "cornice run --l1 examples/l1-genesis.json (the L1), fee cap 1,000 gwei" \
			-allow-senders -n "$n" -wave "$wave" -batch 100 -c 2 transfers
		load "${l1_urls[1]}" "the same on another node, fee cap 10⁸ gwei" \
			-allow-senders -fee-cap-gwei 100000000 -n "$n" -wave "$wave" -batch 100 -c 2 transfers
	fi
	echo
fi
if want mine; then
	echo "### evm_mine round trip (1,000 calls in a row, one connection)"
	echo
	echo "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs | server CPU µs/call |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for r in $(seq "$rounds"); do
		CPU=1 pair "$r" -n 1000 mine
	done
	echo
fi
if want call; then
	echo "### eth_call calls/s (get() of a storage contract, 10 s a row)"
	echo
	echo "| target | method | c | calls | errors | calls/s | p50 µs | p99 µs | server CPU µs/call |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for r in $(seq "$rounds"); do
		for c in 1 16; do
			CPU=1 pair "$r" -n 1000000 -duration 10s -c "$c" call
		done
	done
	echo
fi
if want snapshot; then
	echo "### evm_snapshot and evm_revert on a chain of $blocks blocks"
	echo
	echo "| target | step | times | p50 ms | p99 ms |"
	echo "|---|---|---:|---:|---:|"
	for r in $(seq "$rounds"); do
		pair "$r" -blocks "$blocks" -rounds 20 snapshot
	done
	echo
fi
echo "$(measured_build), $(date -u +%Y-%m-%d), $(nproc) cores, load average $load_before at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end."
