#!/usr/bin/env bash
# e2e/foundry/check.sh: Foundry against running chains (issue #16 §4): forge 1.7.1 and cast 1.7.1
# from the npm registry, compiling with solc 0.8.30 (solc-js, npm) through solc.mjs, offline.
#
# For each LABEL=RPC_URL argument (a cornice node's C-Chain, /ext/bc/C/rpc, or an L1's RPC URL,
# or any node such as anvil), it runs, each bounded in time:
#   - cast chain-id;
#   - forge create --broadcast of src/Counter.sol with 5, then cast call number() is 5;
#   - cast send setNumber(99), then cast call number() is 99 and the receipt has the NumberSet log;
#   - forge script --broadcast of script/Counter.s.sol (deploy at 7 and increment: two
#     transactions), then cast call number() of the deployed counter is 8;
#   - cast rpc anvil_setBalance of a fresh address, then cast balance is what was set;
#   - forge test --fork-url: test/Counter.t.sol, cheatcode-free tests on the node's state.
# It signs with the well-known local key, funded on the local C-Chain and on
# examples/l1-genesis.json's L1 (and with anvil_setBalance where it is not, as on anvil). Each
# check prints `ok - LABEL: …` or `not ok - LABEL: …`; the last line is
# `foundry: N passed, M failed`, and the exit code is 1 when a check failed.
#
# Needs `npm ci --prefix e2e/foundry` first (e2e/run.sh does it). forge's out/, cache/ and
# broadcast/ go to a temporary directory, so the tree stays clean.
#
# Usage: bash e2e/foundry/check.sh C=http://127.0.0.1:9650/ext/bc/C/rpc L1=<the L1's RPC URL>
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
PATH=$here/node_modules/.bin:$PATH
if ! command -v forge >/dev/null || ! command -v cast >/dev/null; then
	echo "foundry: forge and cast are missing: run npm ci --prefix e2e/foundry" >&2
	exit 1
fi

key=0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027
limit=120 # seconds, per command

work=$(mktemp -d /tmp/cornice-foundry.XXXXXX)
trap 'rm -rf "$work"' EXIT
export FOUNDRY_OUT=$work/out FOUNDRY_CACHE_PATH=$work/cache FOUNDRY_BROADCAST=$work/broadcast
export FOUNDRY_DISABLE_NIGHTLY_WARNING=1 NO_COLOR=1

passed=0
failed=0
# check LABEL NAME FUNC ARGS...: runs FUNC ARGS... with its output in $work/last, and prints ok or
# not ok with that output.
check() {
	local label=$1 name=$2
	shift 2
	if "$@" >"$work/last" 2>&1; then
		echo "ok - $label: $name"
		passed=$((passed + 1))
	else
		echo "not ok - $label: $name"
		sed 's/^/#   /' "$work/last" | tail -n 20
		failed=$((failed + 1))
	fi
}
run() { timeout "$limit" "$@"; }
want() { # want WHAT GOT EXPECTED
	if [[ $2 != "$3" ]]; then
		echo "$1 is $2, want $3"
		return 1
	fi
}

chain_id() {
	local got
	got=$(run cast chain-id --rpc-url "$1")
	[[ $got =~ ^[0-9]+$ ]] || { echo "cast chain-id printed $got"; return 1; }
	echo "chain ID $got"
}

# forge_create deploys Counter(5) and leaves its address in $work/counter.
forge_create() {
	local out addr
	out=$(run forge create --rpc-url "$1" --private-key "$key" --broadcast --json \
		src/Counter.sol:Counter --constructor-args 5)
	echo "$out"
	addr=$(sed -n 's/.*"deployedTo": *"\(0x[0-9a-fA-F]\{40\}\)".*/\1/p' <<<"$out")
	[[ -n $addr ]] || { echo "no deployedTo in forge create's output"; return 1; }
	echo "$addr" >"$work/counter"
	want "number()" "$(run cast call --rpc-url "$1" "$addr" 'number()(uint256)')" 5
}

cast_send() {
	local addr receipt
	addr=$(cat "$work/counter")
	receipt=$(run cast send --rpc-url "$1" --private-key "$key" --json "$addr" 'setNumber(uint256)' 99)
	echo "$receipt"
	grep -q '"status":"0x1"' <<<"$receipt" || { echo "receipt status is not 0x1"; return 1; }
	# NumberSet(address indexed by, uint256 number): one log, its data 99.
	grep -q "\"data\":\"0x$(printf %064x 99)\"" <<<"$receipt" || { echo "no NumberSet(99) log"; return 1; }
	want "number()" "$(run cast call --rpc-url "$1" "$addr" 'number()(uint256)')" 99
}

forge_script() {
	local out addr
	out=$(run forge script script/Counter.s.sol:CounterScript --rpc-url "$1" --private-key "$key" \
		--broadcast --slow --json)
	echo "$out"
	grep -q '"status":"success","transactions"' <<<"$out" || { echo "forge script did not finish its broadcast"; return 1; }
	addr=$(sed -n 's/.*"contract_address":"\(0x[0-9a-fA-F]\{40\}\)".*"contract_name":"Counter"}$/\1/p' <<<"$out" | head -n 1)
	[[ -n $addr ]] || { echo "no deployed Counter in forge script's output"; return 1; }
	want "number() of $addr" "$(run cast call --rpc-url "$1" "$addr" 'number()(uint256)')" 8
}

set_balance() {
	local addr
	addr=0x$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
	run cast rpc --rpc-url "$1" anvil_setBalance "$addr" 0x1234567890abcdef
	want "balance of $addr" "$(run cast balance --rpc-url "$1" "$addr")" $((0x1234567890abcdef))
}

forge_test() {
	run forge test --fork-url "$1"
}

for arg in "$@"; do
	label=${arg%%=*}
	url=${arg#*=}
	# A node where the local key is not funded (anvil) gets it funded.
	if [[ $(run cast balance --rpc-url "$url" "$(cast wallet address "$key")") == 0 ]]; then
		run cast rpc --rpc-url "$url" anvil_setBalance "$(cast wallet address "$key")" 0x3635c9adc5de9fffff >/dev/null
	fi
	check "$label" "cast chain-id" chain_id "$url"
	check "$label" "forge create" forge_create "$url"
	check "$label" "cast send and cast call" cast_send "$url"
	check "$label" "forge script --broadcast" forge_script "$url"
	check "$label" "cast rpc anvil_setBalance" set_balance "$url"
	check "$label" "forge test --fork-url" forge_test "$url"
done
echo "foundry: $passed passed, $failed failed"
((failed == 0))
