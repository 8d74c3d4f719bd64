#!/usr/bin/env bash
# e2e/run.sh: end-to-end check of the C-Chain and of an L1 with a JavaScript client (issue #4 §4,
# issue #6 §7), of both with Foundry (issue #16 §4), and of the Primary Network with the official
# Avalanche TypeScript SDK (issue #14 §4).
#
# What it does, in order:
#   1. builds cornice into a temporary directory;
#   2. starts `cornice run --l1 examples/l1-genesis.json` on network local with a fresh data dir,
#      serving HTTP on 127.0.0.1 at a port the OS chooses (read back from the node's "cornice node
#      started" log line, JSON when written to a file), and waits until the C-Chain answers
#      eth_chainId and the node has printed its banner with the L1's "rpc <url>" line, which it
#      does once the L1 answers (at most 60 s);
#   3. installs e2e/js's pinned dependencies (viem and ethers v6) and e2e/foundry's with `npm ci`
#      and runs five scripts against the same node, each printing `ok - …`/`not ok - …` lines
#      and a summary:
#      - e2e/js/check.mjs (viem): on the C-Chain, chain ID, a transfer, a contract deploy and
#        call, a newHeads subscription over the websocket; on the L1, chain ID 99999, a transfer,
#        eth_feeConfig and mintNativeCoin through writeContract. Last line `viem: N passed, M failed`;
#      - e2e/js/ethers.mjs (ethers v6 JsonRpcProvider, Wallet, ContractFactory, WebSocketProvider,
#        NonceManager): on the C-Chain and on the L1, two transactions in a row with a provider of
#        every ethers default (printing `# …: both transactions accepted` or the refusal README.md
#        explains, which depends on timing) and through a NonceManager; on the C-Chain, getNetwork, getBlockNumber, getFeeData, a transfer with exact balances,
#        estimateGas, a contract deploy, call, transaction and queryFilter, a block subscription
#        over the websocket; on the L1, getNetwork, a transfer, eth_feeConfig, readAllowList of the
#        tx allow list, and the refusal of a transfer from a funded but non-allow-listed wallet.
#        Last line `ethers: N passed, M failed`;
#      - e2e/foundry/check.sh (issue #16 §4; Foundry 1.7.1 and solc-js 0.8.30, installed from the
#        npm registry with `npm ci --prefix e2e/foundry`, whose time it prints): on the C-Chain
#        and on the L1, forge create, cast send and cast call, forge script --broadcast,
#        cast rpc anvil_setBalance and forge test --fork-url. Last line
#        `foundry: N passed, M failed`;
#      - e2e/js/testclient.mjs (viem's test client, modes anvil and hardhat; issue #16 §4): every
#        developer method of issue #16 §1 on the C-Chain and on the L1, as anvil 1.7.1 answers
#        it; it resets both chains to genesis, so it runs last. Last line
#        `testclient: N passed, M failed`;
#      - e2e/js/avalanche-sdk.mjs (the official Avalanche TypeScript SDK, @avalanche-sdk/client
#        0.1.1 over @avalabs/avalanchejs 5.2.0; issue #14 §4), after the test client's reset: info,
#        index and proposervm reads (P and C), a P- and an X-Chain BaseTx, a subnet, a chain on it
#        and its conversion to an L1 with this node as validator, a validator (a node ID and BLS
#        proof of possession made for the test) and a delegator read back, AVAX moved P→X, X→P, X→C and C→X (export, then
#        import) with the balances checked on both sides, and a C-Chain atomic tx's status, nonce
#        and index entry. Last line `avalanche-sdk: N passed, M failed`;
#   4. starts anvil 1.7.1 (from e2e/foundry's packages; chain ID 43112, the local C-Chain's) on a
#      port the OS chooses and runs check.sh and testclient.mjs against it: what the scripts
#      expect of cornice is anvil's behaviour, and this keeps them true to it; then prints the
#      sum of all as `e2e: N passed, M failed`. A script that ends without its summary line (a
#      crash, the timeout) counts as one more failure;
#   5. stops anvil, and the node with SIGTERM (SIGKILL after 15 s), and deletes the temporary
#      directory, whatever happened.
#
# Exits non-zero when the build, the node or a check fails. Without node or npm on the PATH it
# says so and exits 0 without checking (.ci/run installs both). Loopback only; every step is
# bounded in time.
#
# Usage (from anywhere in the repository): bash e2e/run.sh
# Environment: CORNICE_BIN (a cornice binary to test instead of building ./cmd/cornice).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "e2e: skipped: node and npm are needed (apt-get install nodejs npm)" >&2
	exit 0
fi

# The temporary directory, and the clean-up on exit by any path: SIGTERM to the node and anvil
# (SIGKILL after 15 s), the node log's last lines when a step failed, the directory deleted.
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_init e2e
bench_log=$work/node.log

cornice=${CORNICE_BIN:-$work/cornice}
if [[ -z ${CORNICE_BIN:-} ]]; then
	echo "e2e: building cornice" >&2
	go build -o "$cornice" ./cmd/cornice
fi

echo "e2e: starting cornice (data in $work/data)" >&2
# The logs exist before the loops below read them, however late the shell's child opens them:
# sed on a missing file would end the script under set -e.
: >"$work/node.log"
"$cornice" run --data-dir "$work/data" --http-host 127.0.0.1 --http-port 0 --staking-port 0 \
	--l1 examples/l1-genesis.json >"$work/node.log" 2>&1 &
node_pid=$!
bench_track "$node_pid"

# Wait for the bound address in the start-up log line, then for the C-Chain to answer and the
# L1's RPC URL to be printed.
addr=
c_up=
l1_rpc=
for _ in $(seq 600); do
	if ! kill -0 "$node_pid" 2>/dev/null; then
		echo "e2e: cornice exited before answering" >&2
		exit 1
	fi
	if [[ -z $addr ]]; then
		addr=$(sed -n 's/.*"msg":"cornice node started".*"httpAddr":"\([^"]*\)".*/\1/p' "$work/node.log" | head -n 1)
	fi
	if [[ -n $addr && -z $c_up ]] && curl -s --max-time 2 -H 'Content-Type: application/json' \
		-d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' \
		"http://$addr/ext/bc/C/rpc" | grep -q '"result"'; then
		c_up=1
	fi
	if [[ -z $l1_rpc ]]; then
		# The banner's second "rpc" line is the L1's (the C-Chain comes first).
		l1_rpc=$(sed -n 's/^    rpc  *\(http[^ ]*\)$/\1/p' "$work/node.log" | sed -n 2p)
	fi
	if [[ -n $c_up && -n $l1_rpc ]]; then
		break
	fi
	sleep 0.1
done
if [[ -z $c_up || -z $l1_rpc ]]; then
	echo "e2e: cornice did not answer, or did not print the L1's URL, within 60 s" >&2
	exit 1
fi
echo "e2e: cornice serves http://$addr; the L1 at $l1_rpc" >&2

echo "e2e: npm ci" >&2
timeout 300 npm ci --prefix e2e/js --no-audit --no-fund --loglevel=error >&2
# Foundry's binaries (about 180 MB) and solc-js: about 6 s on this machine, with an empty cache.
started=$SECONDS
timeout 300 npm ci --prefix e2e/foundry --no-audit --no-fund --loglevel=error >&2
echo "e2e: Foundry installed in $((SECONDS - started)) s" >&2

# run_script LABEL CMD... runs one check script against the node, echoing its output, and adds
# the counts of its `LABEL: N passed, M failed` line to the totals. A script that fails without
# printing that line counts as one failure.
total_passed=0
total_failed=0
run_script() {
	local label=$1 rc=0 counts p f
	shift
	echo "e2e: running $*" >&2
	CORNICE_URL="http://$addr" CORNICE_L1_RPC="$l1_rpc" timeout 600 "$@" |
		tee "$work/$label.out" || rc=$?
	counts=$(sed -n "s/^$label: \([0-9]*\) passed, \([0-9]*\) failed\$/\1 \2/p" "$work/$label.out" | tail -n 1)
	if [[ -z $counts ]]; then
		echo "not ok - $* ended without its summary line (exit $rc)"
		total_failed=$((total_failed + 1))
		return
	fi
	read -r p f <<<"$counts"
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + f))
	if ((rc != 0 && f == 0)); then
		echo "not ok - $* exited $rc after its checks passed"
		total_failed=$((total_failed + 1))
	fi
}
run_script viem node e2e/js/check.mjs
run_script ethers node e2e/js/ethers.mjs
run_script foundry bash e2e/foundry/check.sh "C=http://$addr/ext/bc/C/rpc" "L1=$l1_rpc"
# Last: its final check resets each chain to genesis.
run_script testclient node e2e/js/testclient.mjs
# After the reset: a developer's roll-back past a block with atomic txs is refused.
run_script avalanche-sdk node e2e/js/avalanche-sdk.mjs

# The same Foundry and test-client checks against anvil 1.7.1: what cornice is checked against
# is anvil's behaviour, and this keeps the scripts true to it.
echo "e2e: starting anvil" >&2
: >"$work/anvil.log"
e2e/foundry/node_modules/.bin/anvil --host 127.0.0.1 --port 0 --chain-id 43112 >"$work/anvil.log" 2>&1 &
anvil_pid=$!
bench_track "$anvil_pid"
anvil_url=
for _ in $(seq 300); do
	anvil_url=$(sed -n 's/^Listening on \(127\.0\.0\.1:[0-9]*\)$/http:\/\/\1/p' "$work/anvil.log")
	[[ -z $anvil_url ]] || break
	sleep 0.1
done
if [[ -z $anvil_url ]]; then
	echo "not ok - anvil did not start within 30 s"
	total_failed=$((total_failed + 1))
else
	run_script foundry bash e2e/foundry/check.sh "anvil=$anvil_url"
	RPC_URLS="anvil=$anvil_url" run_script testclient node e2e/js/testclient.mjs
fi
echo "e2e: $total_passed passed, $total_failed failed"
((total_failed == 0))
