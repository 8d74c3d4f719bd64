#!/usr/bin/env bash
# build.sh: regenerates manager.json (ABI, creation and runtime bytecode of ValidatorManager.sol)
# with solc-js 0.8.30. Needs node and the npm package solc 0.8.30: from e2e/foundry
# (`npm ci --prefix e2e/foundry`) or the directory SOLC_JS_DIR names. TestContractUpToDate
# fails when the source and manager.json disagree.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
node "$dir/compile.mjs" >"$dir/manager.json.tmp"
mv "$dir/manager.json.tmp" "$dir/manager.json"
