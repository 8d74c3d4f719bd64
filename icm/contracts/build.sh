#!/usr/bin/env bash
# build.sh: regenerates contracts.json (the ABI and creation bytecode of every contract in this
# directory) with solc-js 0.8.30. Needs node, and the npm package solc 0.8.30: from
# e2e/foundry (`npm ci --prefix e2e/foundry`) or the directory SOLC_JS_DIR names. The icm
# package's TestContractsUpToDate fails when the sources and contracts.json disagree.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
node "$dir/compile.mjs" >"$dir/contracts.json.tmp"
mv "$dir/contracts.json.tmp" "$dir/contracts.json"
