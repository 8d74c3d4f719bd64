// viem's test client (createTestClient, modes 'anvil' and 'hardhat') against the developer
// methods of issue #16 §1, on the C-Chain and on an L1 of a running cornice node. The checks
// state anvil 1.7.1's behaviour: e2e/run.sh runs the same script against anvil too, and cornice
// must answer the same.
//
//   npm ci --prefix e2e/js
//   CORNICE_URL=http://127.0.0.1:9650 CORNICE_L1_RPC=<the L1's RPC URL> node e2e/js/testclient.mjs
//   RPC_URLS=anvil=http://127.0.0.1:8545 node e2e/js/testclient.mjs
//
// RPC_URLS (label=url, comma-separated) replaces the C-Chain of CORNICE_URL and CORNICE_L1_RPC.
// Every chain gets the whole list in mode 'anvil', then the methods anvil also accepts under a
// hardhat_ name in mode 'hardhat' (anvil has no hardhat_setBlockTimestampInterval,
// hardhat_removeBlockTimestampInterval or hardhat_nodeInfo, and viem's hardhat mode multiplies
// setIntervalMining's seconds by 1000), then anvil_reset last, since it drops every block.
//
// Funds come from setBalance, and from the well-known local key (funded in the local C-Chain
// genesis and in examples/l1-genesis.json's alloc; on a node where it is not, it is funded with
// setBalance). Every check is bounded in time; the last line is
// `testclient: N passed, M failed`, and the exit code is 1 when a check failed.

import { gunzipSync } from "node:zlib";
import {
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseAbi,
  publicActions,
  walletActions,
  numberToHex,
  pad,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assert, withTimeout, randomAddress, sleep, baseURL } from "./common.mjs";

const localKey = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const local = privateKeyToAccount(localKey);
const checkTimeoutMs = 60_000;
const requestTimeoutMs = 20_000;
const ether = 10n ** 18n;

// The storage contract of check.mjs: set(uint256) stores slot 0, get() returns it.
const storageAbi = parseAbi(["function set(uint256 value)", "function get() view returns (uint256)"]);
const storageRuntime =
  "0x60003560e01c806360fe47b114601e5780636d4ce63c14602657600080fd5b600435600055005b60005460005260206000f3";

// The transaction allow list of examples/l1-genesis.json's L1 (Subnet-EVM's precompile), whose
// admin is the local key: a fresh address must be enabled there before it may send.
const txAllowList = "0x0200000000000000000000000000000000000002";
const allowListAbi = parseAbi([
  "function setEnabled(address addr)",
  "function readAllowList(address addr) view returns (uint256)",
]);

// hasAllowList tells whether the chain has the transaction allow list, with the local key its
// admin (role 2). Where nothing lives at the precompile's address the call fails to decode.
async function hasAllowList(c) {
  try {
    const role = await c.readContract({ address: txAllowList, abi: allowListAbi, functionName: "readAllowList", args: [local.address] });
    return role === 2n;
  } catch {
    return false;
  }
}

// freshSender returns a new address funded with one ether by setBalance, enabled on the
// transaction allow list where the chain has one.
async function freshSender({ c, w, allowList }) {
  const address = randomAddress();
  await c.setBalance({ address, value: ether });
  if (allowList) {
    const hash = await w.writeContract({ address: txAllowList, abi: allowListAbi, functionName: "setEnabled", args: [address] });
    eq("setEnabled's status", (await c.waitForTransactionReceipt({ hash, timeout: 30_000 })).status, "success");
  }
  return address;
}

// noSigner checks the refusal of eth_sendTransaction from an address the node holds no key for
// and does not impersonate: anvil's error, or the one cornice's eth_sendTransaction has always
// answered (geth's), which impersonation leaves as it was.
function noSigner(err) {
  const got = `${err.code} ${err.message}`;
  assert(
    got === "-32602 No Signer available" || got === "-32000 unknown account",
    `error of a send without a signer is ${got}, want anvil's "-32602 No Signer available" or "-32000 unknown account"`,
  );
}

function targets() {
  if (process.env.RPC_URLS) {
    return process.env.RPC_URLS.split(",").map((pair) => {
      const i = pair.indexOf("=");
      return { label: pair.slice(0, i), url: pair.slice(i + 1) };
    });
  }
  const base = baseURL;
  const list = [{ label: "C", url: `${base}/ext/bc/C/rpc` }];
  if (process.env.CORNICE_L1_RPC) list.push({ label: "L1", url: process.env.CORNICE_L1_RPC });
  return list;
}

function eq(what, got, want) {
  assert(got === want, `${what} is ${got}, want ${want}`);
}

// rpcError runs fn, which must fail with a JSON-RPC error, and returns that error's code and
// message as the node sent them.
async function rpcError(fn) {
  try {
    await fn();
  } catch (err) {
    let e = err;
    while (e && e.code === undefined && e.cause) e = e.cause;
    let inner = err;
    while (inner?.cause) inner = inner.cause;
    return { code: e?.code, message: inner?.details ?? e?.details ?? inner?.message };
  }
  throw new Error("the call succeeded, want an error");
}

// sleep waits ms milliseconds.

// until polls fn every 100 ms until it returns a truthy value, for at most ms.
async function until(what, fn, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

// The checks. Each has a name, whether it runs in mode 'hardhat' too, and fn(t), where t holds
// the test client of the mode (t.c, with public and wallet actions), the mode, a wallet of the
// local key (t.w), and whether the chain has the transaction allow list.
const checks = [
  {
    name: "mine (count and interval) and evm_mine",
    hardhat: true,
    fn: async ({ c, mode }) => {
      const before = await c.getBlock();
      await c.mine({ blocks: 3, interval: 10 });
      const head = await c.getBlockNumber();
      eq("block number after mine(3)", head, before.number + 3n);
      const blocks = await Promise.all([1n, 2n, 3n].map((i) => c.getBlock({ blockNumber: before.number + i })));
      assert(blocks[0].timestamp >= before.timestamp, "mined block older than its parent");
      eq("timestamp step of mine's interval", blocks[1].timestamp - blocks[0].timestamp, 10n);
      eq("second timestamp step", blocks[2].timestamp - blocks[1].timestamp, 10n);
      for (const b of blocks) eq(`transactions of mined block ${b.number}`, b.transactions.length, 0);
      eq("evm_mine's result", await c.request({ method: "evm_mine", params: [] }), "0x0");
      eq("block number after evm_mine", await c.getBlockNumber(), head + 1n);
      // With no arguments anvil_mine mines one block.
      await c.request({ method: `${mode}_mine`, params: [] });
      eq("block number after a bare mine", await c.getBlockNumber(), head + 2n);
    },
  },
  {
    name: "setBalance",
    hardhat: true,
    fn: async ({ c }) => {
      const address = randomAddress();
      const value = 123n * ether + 456n;
      await c.setBalance({ address, value });
      eq("balance after setBalance", await c.getBalance({ address }), value);
      await c.setBalance({ address, value: 0n });
      eq("balance after setBalance 0", await c.getBalance({ address }), 0n);
      const big = { address, value: 2n ** 256n };
      const err = await rpcError(() => c.setBalance(big));
      eq("error code of a balance of 2^256", err.code, -32602);
      eq("balance after the refused setBalance", await c.getBalance({ address }), 0n);
    },
  },
  {
    name: "setCode and setStorageAt",
    hardhat: true,
    fn: async ({ c }) => {
      const address = randomAddress();
      await c.setCode({ address, bytecode: storageRuntime });
      eq("code after setCode", await c.getCode({ address }), storageRuntime);
      eq("get() of fresh code", await c.readContract({ address, abi: storageAbi, functionName: "get" }), 0n);
      await c.setStorageAt({ address, index: 0, value: pad(numberToHex(42)) });
      eq("slot 0 after setStorageAt", await c.getStorageAt({ address, slot: "0x0" }), pad(numberToHex(42)));
      eq("get() after setStorageAt", await c.readContract({ address, abi: storageAbi, functionName: "get" }), 42n);
      const err = await rpcError(() => c.setCode({ address, bytecode: "0x123" }));
      eq("error code of odd-length code", err.code, -32602);
      eq("code after the refused setCode", await c.getCode({ address }), storageRuntime);
    },
  },
  {
    name: "setNonce",
    hardhat: true,
    fn: async ({ c }) => {
      const address = randomAddress();
      await c.setNonce({ address, nonce: 7 });
      eq("nonce after setNonce", await c.getTransactionCount({ address }), 7);
    },
  },
  {
    name: "impersonateAccount and stopImpersonatingAccount",
    hardhat: true,
    fn: async (t) => {
      const { c } = t;
      const from = await freshSender(t);
      const to = randomAddress();
      await c.impersonateAccount({ address: from });
      const hash = await c.sendTransaction({ account: from, to, value: 1000n, chain: null });
      const receipt = await c.waitForTransactionReceipt({ hash, timeout: 30_000 });
      eq("status", receipt.status, "success");
      eq("receipt's from", receipt.from.toLowerCase(), from);
      eq("recipient's balance", await c.getBalance({ address: to }), 1000n);
      await c.stopImpersonatingAccount({ address: from });
      noSigner(await rpcError(() => c.sendTransaction({ account: from, to, value: 1n, chain: null })));
    },
  },
  {
    name: "autoImpersonateAccount",
    hardhat: true,
    fn: async (t) => {
      const { c, mode } = t;
      const from = await freshSender(t);
      await c.request({ method: `${mode}_autoImpersonateAccount`, params: [true] });
      try {
        const hash = await c.sendTransaction({ account: from, to: randomAddress(), value: 1n, chain: null });
        const receipt = await c.waitForTransactionReceipt({ hash, timeout: 30_000 });
        eq("status", receipt.status, "success");
      } finally {
        await c.request({ method: `${mode}_autoImpersonateAccount`, params: [false] });
      }
      noSigner(await rpcError(() => c.sendTransaction({ account: from, to: randomAddress(), value: 1n, chain: null })));
    },
  },
  {
    name: "eth_sendUnsignedTransaction",
    hardhat: false,
    fn: async (t) => {
      const { c } = t;
      const from = await freshSender(t);
      const to = randomAddress();
      const hash = await c.sendUnsignedTransaction({ from, to, value: 77n });
      const receipt = await c.waitForTransactionReceipt({ hash, timeout: 30_000 });
      eq("status", receipt.status, "success");
      eq("receipt's from", receipt.from.toLowerCase(), from);
      eq("recipient's balance", await c.getBalance({ address: to }), 77n);
    },
  },
  {
    name: "setAutomine, getAutomine, dropTransaction, dropAllTransactions",
    hardhat: true,
    fn: async ({ c, w, mode }) => {
      eq("getAutomine", await c.getAutomine(), true);
      await c.setAutomine(false);
      try {
        eq("getAutomine after setAutomine(false)", await c.getAutomine(), false);
        const head = await c.getBlockNumber();
        const nonce = await c.getTransactionCount({ address: local.address, blockTag: "pending" });
        const send = (n) => w.sendTransaction({ to: randomAddress(), value: 1n, nonce: n, gas: 21000n });
        const first = await send(nonce);
        await sleep(300);
        eq("block number with automine off", await c.getBlockNumber(), head);
        eq("first tx's block", (await c.getTransaction({ hash: first })).blockNumber, null);
        await c.dropTransaction({ hash: first });
        await until("first tx dropped", async () => {
          try {
            return (await c.getTransaction({ hash: first })) === null;
          } catch (err) {
            return err.name === "TransactionNotFoundError";
          }
        });
        const second = await send(nonce);
        const third = await send(nonce + 1);
        await c.request({ method: `${mode}_dropAllTransactions`, params: [] });
        for (const hash of [second, third]) {
          await rpcError(() => c.getTransaction({ hash }));
        }
        const fourth = await send(nonce);
        await c.request({ method: "evm_mine", params: [] });
        const receipt = await c.waitForTransactionReceipt({ hash: fourth, timeout: 30_000 });
        eq("mined tx's block", receipt.blockNumber, head + 1n);
      } finally {
        await c.setAutomine(true);
      }
      eq("getAutomine after setAutomine(true)", await c.getAutomine(), true);
    },
  },
  {
    name: "evm_setIntervalMining",
    hardhat: false,
    fn: async ({ c }) => {
      const head = await c.getBlockNumber();
      await c.setIntervalMining({ interval: 1 });
      try {
        await until("two blocks mined by the interval", async () => (await c.getBlockNumber()) >= head + 2n);
      } finally {
        await c.setIntervalMining({ interval: 0 });
      }
      // Interval 0 stops mining altogether, automine included, as anvil does.
      eq("getAutomine after setIntervalMining(0)", await c.getAutomine(), false);
      const stopped = await c.getBlockNumber();
      await sleep(1500);
      eq("block number after interval mining stopped", await c.getBlockNumber(), stopped);
      await c.setAutomine(true);
    },
  },
  {
    name: "evm_increaseTime and evm_setNextBlockTimestamp",
    hardhat: false,
    fn: async ({ c }) => {
      const before = await c.getBlock();
      await c.increaseTime({ seconds: 3600 });
      await c.request({ method: "evm_mine", params: [] });
      const after = await c.getBlock();
      assert(after.timestamp >= before.timestamp + 3600n, `timestamp ${after.timestamp} after increaseTime(3600) from ${before.timestamp}`);
      const next = after.timestamp + 1000n;
      await c.setNextBlockTimestamp({ timestamp: next });
      await c.request({ method: "evm_mine", params: [] });
      eq("timestamp after setNextBlockTimestamp", (await c.getBlock()).timestamp, next);
      const err = await rpcError(() => c.setNextBlockTimestamp({ timestamp: before.timestamp }));
      eq(
        "error of a past timestamp",
        `${err.code} ${err.message}`,
        `-32602 Timestamp error: ${before.timestamp} is lower than previous block's timestamp`,
      );
    },
  },
  {
    name: "setBlockTimestampInterval and removeBlockTimestampInterval",
    hardhat: false,
    fn: async ({ c }) => {
      await c.setBlockTimestampInterval({ interval: 5 });
      await c.request({ method: "evm_mine", params: [] });
      const a = await c.getBlock();
      await c.request({ method: "evm_mine", params: [] });
      const b = await c.getBlock();
      eq("timestamp step with interval 5", b.timestamp - a.timestamp, 5n);
      eq("removeBlockTimestampInterval", await c.request({ method: "anvil_removeBlockTimestampInterval", params: [] }), true);
      eq("removeBlockTimestampInterval again", await c.request({ method: "anvil_removeBlockTimestampInterval", params: [] }), false);
    },
  },
  {
    name: "evm_setBlockGasLimit",
    hardhat: false,
    fn: async ({ c }) => {
      const gasLimit = 20_000_000n;
      eq("evm_setBlockGasLimit", await c.request({ method: "evm_setBlockGasLimit", params: [numberToHex(gasLimit)] }), true);
      await c.request({ method: "evm_mine", params: [] });
      eq("gas limit of the next block", (await c.getBlock()).gasLimit, gasLimit);
    },
  },
  {
    name: "setCoinbase, setNextBlockBaseFeePerGas, setMinGasPrice",
    hardhat: true,
    fn: async ({ c }) => {
      const coinbase = randomAddress();
      await c.setCoinbase({ address: coinbase });
      const baseFee = 7_000_000_007n;
      await c.setNextBlockBaseFeePerGas({ baseFeePerGas: baseFee });
      await c.request({ method: "evm_mine", params: [] });
      const block = await c.getBlock();
      eq("miner of the next block", block.miner.toLowerCase(), coinbase);
      eq("base fee of the next block", block.baseFeePerGas, baseFee);
      // Every chain here has EIP-1559 fees, where anvil refuses a minimum gas price.
      const err = await rpcError(() => c.setMinGasPrice({ gasPrice: 1n }));
      eq("setMinGasPrice", `${err.code} ${err.message}`, `-32602 ${c.mode}_setMinGasPrice is not supported when EIP-1559 is active`.replace("hardhat_", "anvil_"));
    },
  },
  {
    name: "setLoggingEnabled",
    hardhat: true,
    fn: async ({ c }) => {
      await c.setLoggingEnabled(false);
      await c.setLoggingEnabled(true);
    },
  },
  {
    name: "evm_snapshot and evm_revert",
    hardhat: false,
    fn: async ({ c, w }) => {
      const address = randomAddress();
      await c.setBalance({ address, value: 5n });
      const head = await c.getBlock();
      const id = await c.snapshot();
      assert(/^0x[0-9a-f]+$/.test(id), `snapshot id ${id} is not a hex quantity`);
      await c.setBalance({ address, value: 6n });
      await c.mine({ blocks: 3 });
      const hash = await w.sendTransaction({ to: randomAddress(), value: 1n });
      await c.waitForTransactionReceipt({ hash, timeout: 30_000 });
      eq("evm_revert", await c.request({ method: "evm_revert", params: [id] }), true);
      eq("block number after revert", await c.getBlockNumber(), head.number);
      eq("head hash after revert", (await c.getBlock()).hash, head.hash);
      eq("balance after revert", await c.getBalance({ address }), 5n);
      await rpcError(() => c.getTransactionReceipt({ hash }));
      eq("evm_revert of the same id again", await c.request({ method: "evm_revert", params: [id] }), false);
      eq("evm_revert of an unknown id", await c.request({ method: "evm_revert", params: ["0x7fffffff"] }), false);
    },
  },
  {
    name: "dumpState and loadState",
    hardhat: true,
    fn: async ({ c, mode }) => {
      const address = randomAddress();
      await c.setBalance({ address, value: 1111n });
      await c.setCode({ address, bytecode: storageRuntime });
      const state = await c.dumpState();
      assert(/^0x1f8b/.test(state), `dumpState is not gzip as hex: ${state.slice(0, 10)}…`);
      const json = JSON.parse(gunzipSync(Buffer.from(state.slice(2), "hex")).toString("utf8"));
      const account = json.accounts?.[address];
      assert(account, "the dump has no entry for the account");
      eq("dumped balance", BigInt(account.balance), 1111n);
      eq("dumped code", account.code, storageRuntime);
      await c.setBalance({ address, value: 2222n });
      eq("loadState", await c.request({ method: `${mode}_loadState`, params: [state] }), true);
      eq("balance after loadState", await c.getBalance({ address }), 1111n);
      const err = await rpcError(() => c.loadState({ state: "0x00" }));
      eq("loadState of a corrupt blob", `${err.code} ${err.message}`, "-32602 Failed to decode state dump");
    },
  },
  {
    name: "anvil_nodeInfo and anvil_metadata",
    hardhat: false,
    fn: async ({ c }) => {
      const block = await c.getBlock();
      const chainId = await c.getChainId();
      const info = await c.request({ method: "anvil_nodeInfo", params: [] });
      eq("nodeInfo.currentBlockNumber", info.currentBlockNumber, numberToHex(block.number));
      eq("nodeInfo.currentBlockHash", info.currentBlockHash, block.hash);
      eq("nodeInfo.currentBlockTimestamp", info.currentBlockTimestamp, Number(block.timestamp));
      eq("nodeInfo.environment.chainId", info.environment?.chainId, chainId);
      const meta = await c.request({ method: "anvil_metadata", params: [] });
      eq("metadata.chainId", meta.chainId, chainId);
      eq("metadata.latestBlockNumber", meta.latestBlockNumber, Number(block.number));
      eq("metadata.latestBlockHash", meta.latestBlockHash, block.hash);
      assert(typeof meta.clientVersion === "string" && meta.clientVersion !== "", "metadata.clientVersion");
      assert(/^0x[0-9a-f]{64}$/.test(meta.instanceId), `metadata.instanceId ${meta.instanceId}`);
    },
  },
];

// reset runs last on each chain: it drops every block back to genesis. viem's reset() always
// sends a forking object (here with neither URL nor block): anvil, which does not fork unless
// started so, refuses it; cornice, which never forks, takes it as a plain reset (docs/api.md).
// A fork URL is refused by both: by cornice at once, by anvil when the URL does not answer.
const resetCheck = {
  name: "reset to genesis (and a forking reset refused)",
  fn: async ({ c, mode }) => {
    const onAnvil = (await c.request({ method: "anvil_metadata", params: [] })).clientVersion.startsWith("anvil/");
    const address = randomAddress();
    await c.setBalance({ address, value: 9n });
    const fork = await rpcError(() => c.reset({ jsonRpcUrl: "http://127.0.0.1:1", blockNumber: 1n }));
    eq("error code of a reset to a fork", fork.code, onAnvil ? -32603 : -32602);
    if (!onAnvil) {
      eq("reset to a fork", fork.message, "forking is not supported: anvil_reset resets the chain to its genesis");
    }
    eq("balance after the refused reset", await c.getBalance({ address }), 9n);
    if (onAnvil) {
      const err = await rpcError(() => c.reset());
      eq("anvil's reset() without a fork URL", `${err.code} ${err.message}`, "-32602 Forking not enabled and RPC URL not provided to start forking");
      eq("balance after the refused reset()", await c.getBalance({ address }), 9n);
    } else {
      await c.reset();
      eq("block number after reset()", await c.getBlockNumber(), 0n);
      eq("balance after reset()", await c.getBalance({ address }), 0n);
      await c.setBalance({ address, value: 9n });
      await c.mine({ blocks: 1 });
    }
    await c.request({ method: `${mode}_reset`, params: [] });
    eq("block number after reset", await c.getBlockNumber(), 0n);
    eq("balance after reset", await c.getBalance({ address }), 0n);
  },
};

const results = { passed: 0, failed: 0 };

async function run(label, name, fn) {
  try {
    await withTimeout(fn(), checkTimeoutMs, name);
    results.passed++;
    console.log(`ok - ${label}: ${name}`);
  } catch (err) {
    results.failed++;
    console.log(`not ok - ${label}: ${name}: ${err?.shortMessage ?? err?.message ?? err}`);
    if (err?.details) console.log(`#   ${err.details}`);
  }
}

for (const { label, url } of targets()) {
  const transport = http(url, { timeout: requestTimeoutMs, retryCount: 0 });
  const probe = createTestClient({ mode: "anvil", transport }).extend(publicActions);
  let chainId;
  try {
    chainId = await probe.getChainId();
  } catch (err) {
    results.failed++;
    console.log(`not ok - ${label}: eth_chainId at ${url}: ${err?.shortMessage ?? err}`);
    continue;
  }
  const chain = defineChain({
    id: chainId,
    name: label,
    nativeCurrency: { name: "Avalanche", symbol: "AVAX", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const client = (mode) =>
    createTestClient({ mode, chain, transport, pollingInterval: 50, cacheTime: 0 }).extend(publicActions).extend(walletActions);
  // w signs with the local key (eth_sendRawTransaction).
  const w = createWalletClient({ chain, transport, account: local, pollingInterval: 50 });
  if ((await probe.getBalance({ address: local.address })) < ether) {
    await probe.setBalance({ address: local.address, value: 1000n * ether });
  }
  const allowList = await hasAllowList(probe);
  for (const mode of ["anvil", "hardhat"]) {
    const c = client(mode);
    for (const check of checks) {
      if (mode === "hardhat" && !check.hardhat) continue;
      await run(`${label} ${mode}`, check.name, () => check.fn({ c, w, mode, allowList }));
    }
  }
  const c = client("hardhat");
  await run(`${label} hardhat`, resetCheck.name, () => resetCheck.fn({ c, mode: "hardhat" }));
}

console.log(`testclient: ${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed === 0 ? 0 : 1);
