#!/usr/bin/env node
// compile.mjs: compiles the .sol files of this directory with solc-js 0.8.30 (the npm package
// "solc", resolved from SOLC_JS_DIR or e2e/foundry/node_modules) and prints, as JSON, each
// contract's ABI and creation bytecode: {"Name": {"abi": [...], "bin": "0x..."}}. build.sh
// writes it to contracts.json, which the Go package embeds; icm's tests compare the two when
// solc is available.
//
// Settings are fixed (optimizer on, 200 runs, EVM version cancun, no metadata hash), so the
// output depends only on the sources.

import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const solcDir = process.env.SOLC_JS_DIR || path.join(dir, "../../e2e/foundry/node_modules/solc");
const solc = createRequire(import.meta.url)(solcDir);
if (!solc.version().startsWith("0.8.30+")) {
  process.stderr.write(`compile.mjs: solc 0.8.30 needed, found ${solc.version()}\n`);
  process.exit(2);
}

const sources = {};
for (const f of readdirSync(dir).filter((f) => f.endsWith(".sol")).sort()) {
  sources[f] = { content: readFileSync(path.join(dir, f), "utf8") };
}
const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors || []).filter((e) => e.severity === "error");
for (const e of out.errors || []) process.stderr.write(e.formattedMessage);
if (errors.length > 0) process.exit(1);

const result = {};
for (const file of Object.keys(out.contracts).sort()) {
  for (const name of Object.keys(out.contracts[file]).sort()) {
    const c = out.contracts[file][name];
    if (c.evm.bytecode.object === "") continue; // interfaces
    result[name] = { abi: c.abi, bin: "0x" + c.evm.bytecode.object };
  }
}
process.stdout.write(JSON.stringify(result, null, 1) + "\n");
