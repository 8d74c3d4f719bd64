#!/usr/bin/env node
// solc 0.8.30 (solc-js, from the npm registry) behind the two calls forge makes of a native solc:
// `solc --version` and `solc [--base-path P] [--include-path P]... [--allow-paths P,...]
// --standard-json` with the input on stdin and the output on stdout. foundry.toml names this
// file as `solc`, so forge never downloads a compiler (it cannot here: issue #16 §4).
//
// forge puts every source it compiles into the input, so the import callback is only a
// fallback: it reads a file under the base path or an include path, as solc does, and nothing
// outside them.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const solc = createRequire(import.meta.url)("solc");

const args = process.argv.slice(2);
if (args.includes("--version")) {
  // forge reads the version from the last line, as native solc prints it.
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (!args.includes("--standard-json")) {
  process.stderr.write("solc.mjs: only --version and --standard-json (input on stdin) are supported\n");
  process.exit(2);
}

const roots = [];
for (let i = 0; i < args.length; i++) {
  if ((args[i] === "--base-path" || args[i] === "--include-path") && i + 1 < args.length) {
    roots.push(path.resolve(args[++i]));
  }
}
if (roots.length === 0) roots.push(process.cwd());

// findImports reads an import that forge did not put into the input, from under a root only.
function findImports(name) {
  for (const root of roots) {
    const file = path.resolve(root, name);
    if (file !== root && !file.startsWith(root + path.sep)) continue;
    try {
      return { contents: readFileSync(file, "utf8") };
    } catch {
      // not under this root; try the next
    }
  }
  return { error: `File not found: ${name}` };
}

const input = readFileSync(0, "utf8");
process.stdout.write(solc.compile(input, { import: findImports }));
