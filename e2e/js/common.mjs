// common.mjs: what every e2e script needs and would otherwise repeat: the node's base URL, the
// assertion and timeout helpers, a random address, and the loop that runs a script's checks.
import { randomBytes } from "node:crypto";

// baseURL is the node's HTTP base from CORNICE_URL (default the local node), without a trailing slash.
export const baseURL = (process.env.CORNICE_URL ?? "http://127.0.0.1:9650").replace(/\/+$/, "");

// cChainRPC and cChainWS are the C-Chain's JSON-RPC endpoints on that node: HTTP and websocket.
export const cChainRPC = `${baseURL}/ext/bc/C/rpc`;
export const cChainWS = `${baseURL.replace(/^http/, "ws")}/ext/bc/C/ws`;

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// withTimeout settles as promise does, or rejects once ms have passed, naming what timed out.
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// randomAddress returns a fresh 20-byte address as lowercase 0x-hex: an account nobody holds.
export function randomAddress() {
  return `0x${randomBytes(20).toString("hex")}`;
}

// runChecks runs each [name, fn] of checks in order, each bounded by timeoutMs, and prints
// "ok - name" or "not ok - name: <reason(err)>", then "<label>: N passed, M failed". It ends the
// process, 0 only if every check passed: open sockets and pollers must not keep it alive.
export async function runChecks(label, checks, timeoutMs, reason = (err) => err?.shortMessage ?? err?.message ?? err) {
  let passed = 0;
  let failed = 0;
  for (const [name, fn] of checks) {
    try {
      await withTimeout(fn(), timeoutMs, name);
      passed++;
      console.log(`ok - ${name}`);
    } catch (err) {
      failed++;
      console.log(`not ok - ${name}: ${reason(err)}`);
    }
  }
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// l1FeeConfig is the fee config of the example L1 (examples/l1-genesis.json), as its fee
// manager's getFeeConfig reports it: the scripts' L1 checks compare against it.
export const l1FeeConfig = {
  gasLimit: 8000000,
  targetBlockRate: 2,
  minBaseFee: 25000000000,
  targetGas: 15000000,
  baseFeeChangeDenominator: 36,
  minBlockGasCost: 0,
  maxBlockGasCost: 1000000,
  blockGasCostStep: 200000,
};
