#!/usr/bin/env node
// compile.mjs: compiles ValidatorManager.sol with solc-js 0.8.30 (the npm package "solc",
// resolved from SOLC_JS_DIR or e2e/foundry/node_modules) and prints its ABI and creation and
// runtime bytecode as JSON. build.sh writes it to manager.json, which package acp99 embeds;
// TestContractUpToDate compares the two when solc-js is installed.
//
// Settings are fixed (optimizer on, 200 runs, EVM cancun, no metadata), so the output depends
// only on the source.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const solcDir = process.env.SOLC_JS_DIR || path.join(dir, "../../../e2e/foundry/node_modules/solc");
const solc = createRequire(import.meta.url)(solcDir);
if (!solc.version().startsWith("0.8.30+")) {
  process.stderr.write(`compile.mjs: solc 0.8.30 needed, found ${solc.version()}\n`);
  process.exit(2);
}
const file = "ValidatorManager.sol";
const input = {
  language: "Solidity",
  sources: { [file]: { content: readFileSync(path.join(dir, file), "utf8") } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    viaIR: true,
    evmVersion: "cancun",
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: { "*": { ValidatorManager: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
for (const e of out.errors || []) process.stderr.write(e.formattedMessage);
if ((out.errors || []).some((e) => e.severity === "error")) process.exit(1);
const c = out.contracts[file].ValidatorManager;
const result = { abi: c.abi, bin: "0x" + c.evm.bytecode.object, runtime: "0x" + c.evm.deployedBytecode.object };
process.stdout.write(JSON.stringify(result, null, 1) + "\n");
