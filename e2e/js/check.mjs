// End-to-end check of a running cornice node with viem, a JavaScript client written for any EVM
// chain: the C-Chain (issue #4 §4) and, when the node runs one, an L1 made from
// examples/l1-genesis.json (issue #6 §7). e2e/run.sh starts the node and runs this script; to
// run it by hand against a node of your own:
//
//   npm ci --prefix e2e/js
//   CORNICE_URL=http://127.0.0.1:9650 CORNICE_L1_RPC=http://127.0.0.1:9650/ext/bc/<id>/rpc \
//     node e2e/js/check.mjs
//
// CORNICE_URL is the node's HTTP base; the script uses /ext/bc/C/rpc over HTTP and /ext/bc/C/ws
// over a websocket. CORNICE_L1_RPC is the L1's RPC URL, as `cornice run --l1` prints it; without
// it the L1 checks are skipped. It signs with the well-known local key, funded in the local
// C-Chain genesis and in the example L1's alloc, where it is the admin of the transaction allow
// list, the native minter and the fee manager. Every check is bounded in time; the last line is
// `viem: N passed, M failed`, and the exit code is 1 when a check failed.

import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseAbi,
  parseEventLogs,
  webSocket,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assert, randomAddress, cChainRPC as rpcURL, cChainWS as wsURL, l1FeeConfig, runChecks } from "./common.mjs";

const chainID = 43112;
const localKey = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const localAddr = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const checkTimeoutMs = 60_000; // per check
const requestTimeoutMs = 10_000; // per JSON-RPC request

const chain = defineChain({
  id: chainID,
  name: "cornice local C-Chain",
  nativeCurrency: { name: "Avalanche", symbol: "AVAX", decimals: 18 },
  rpcUrls: { default: { http: [rpcURL], webSocket: [wsURL] } },
});
const account = privateKeyToAccount(localKey);
const transport = http(rpcURL, { timeout: requestTimeoutMs, retryCount: 0 });
const client = createPublicClient({ chain, transport, pollingInterval: 50 });
const wallet = createWalletClient({ chain, transport, account, pollingInterval: 50 });

// A storage contract assembled by hand: set(uint256) stores its argument at slot 0, get()
// returns slot 0, anything else reverts. The init code copies the 50-byte runtime and returns it.
const storageAbi = parseAbi(["function set(uint256 value)", "function get() view returns (uint256)"]);
const storageRuntime =
  "60003560e01c806360fe47b114601e5780636d4ce63c14602657600080fd5b600435600055005b60005460005260206000f3";
const storageInit = "603280600b6000396000f3";
const storageBytecode = `0x${storageInit}${storageRuntime}`;

async function waitSuccess(hash) {
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
  assert(receipt.status === "success", `transaction ${hash} failed: status ${receipt.status}`);
  return receipt;
}

// sendValue sends wei to a fresh address and returns the receipt.
async function sendValue(to, value) {
  const hash = await wallet.sendTransaction({ to, value });
  return waitSuccess(hash);
}

const checks = [
  [
    "chain ID",
    async () => {
      const id = await client.getChainId();
      assert(id === chainID, `eth_chainId is ${id}, want ${chainID}`);
      assert(account.address === localAddr, `local key gives ${account.address}`);
    },
  ],
  [
    "transfer",
    async () => {
      const to = randomAddress();
      const value = 1_234_567_890n;
      const before = await client.getBalance({ address: localAddr });
      const receipt = await sendValue(to, value);
      assert(receipt.from.toLowerCase() === localAddr.toLowerCase(), `receipt from ${receipt.from}`);
      assert(receipt.to.toLowerCase() === to, `receipt to ${receipt.to}`);
      const got = await client.getBalance({ address: to });
      assert(got === value, `recipient balance ${got}, want ${value}`);
      const after = await client.getBalance({ address: localAddr });
      const fee = receipt.gasUsed * receipt.effectiveGasPrice;
      assert(before - after === value + fee, `sender paid ${before - after}, want ${value + fee}`);
      const tx = await client.getTransaction({ hash: receipt.transactionHash });
      assert(tx.blockNumber === receipt.blockNumber, `transaction in block ${tx.blockNumber}`);
    },
  ],
  [
    "contract deploy and call",
    async () => {
      const deployHash = await wallet.deployContract({ abi: storageAbi, bytecode: storageBytecode });
      const { contractAddress: address } = await waitSuccess(deployHash);
      assert(address, "deploy receipt has no contractAddress");
      const code = await client.getCode({ address });
      assert(code === `0x${storageRuntime}`, `code at ${address} is ${code}`);
      let value = await client.readContract({ address, abi: storageAbi, functionName: "get" });
      assert(value === 0n, `get() before set is ${value}`);
      const setHash = await wallet.writeContract({ address, abi: storageAbi, functionName: "set", args: [42n] });
      await waitSuccess(setHash);
      value = await client.readContract({ address, abi: storageAbi, functionName: "get" });
      assert(value === 42n, `get() after set(42) is ${value}`);
    },
  ],
  [
    "newHeads subscription",
    async () => {
      const wsTransport = webSocket(wsURL, { timeout: requestTimeoutMs, retryCount: 0, reconnect: false });
      const ws = createPublicClient({ chain, transport: wsTransport });
      const start = await client.getBlockNumber();
      let resolveHead;
      let rejectHead;
      const head = new Promise((resolve, reject) => {
        resolveHead = resolve;
        rejectHead = reject;
      });
      const unwatch = ws.watchBlocks({
        emitOnBegin: false,
        onBlock: (block) => {
          if (block.number > start) resolveHead(block);
        },
        onError: (err) => rejectHead(err),
      });
      try {
        // The subscription may not be in place when the first block comes: make a block,
        // and another every 2 s until one is seen.
        let block;
        for (let attempt = 0; attempt < 10 && !block; attempt++) {
          await sendValue(randomAddress(), 1n);
          block = await Promise.race([head, new Promise((r) => setTimeout(r, 2_000))]);
        }
        assert(block, "no newHeads notification for the blocks made");
        const byNumber = await client.getBlock({ blockNumber: block.number });
        assert(byNumber.hash === block.hash, `notified hash ${block.hash}, block ${byNumber.hash}`);
        assert(block.parentHash === byNumber.parentHash, "notified parentHash differs");
        assert(block.baseFeePerGas === byNumber.baseFeePerGas, "notified baseFeePerGas differs");
      } finally {
        unwatch();
        const socket = await ws.transport.getRpcClient?.();
        socket?.close?.();
      }
    },
  ],
];

// The example L1 (examples/l1-genesis.json): chain ID 99999, the default fee config, the fee
// manager enabled at genesis, and the native minter at its fixed address.
const l1RPC = process.env.CORNICE_L1_RPC;
const l1ChainID = 99999;
const nativeMinter = "0x0200000000000000000000000000000000000001";
const minterAbi = parseAbi([
  "function mintNativeCoin(address addr, uint256 amount)",
  "function readAllowList(address addr) view returns (uint256 role)",
  "event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)",
]);

if (l1RPC) {
  const l1Chain = defineChain({
    id: l1ChainID,
    name: "cornice example L1",
    nativeCurrency: { name: "Example", symbol: "EX", decimals: 18 },
    rpcUrls: { default: { http: [l1RPC] } },
  });
  const l1Transport = http(l1RPC, { timeout: requestTimeoutMs, retryCount: 0 });
  const l1 = createPublicClient({ chain: l1Chain, transport: l1Transport, pollingInterval: 50 });
  const l1Wallet = createWalletClient({ chain: l1Chain, transport: l1Transport, account, pollingInterval: 50 });
  const l1Success = async (hash) => {
    const receipt = await l1.waitForTransactionReceipt({ hash, timeout: 30_000 });
    assert(receipt.status === "success", `L1 transaction ${hash} failed: status ${receipt.status}`);
    return receipt;
  };
  checks.push(
    [
      "L1 chain ID",
      async () => {
        const id = await l1.getChainId();
        assert(id === l1ChainID, `L1 eth_chainId is ${id}, want ${l1ChainID}`);
      },
    ],
    [
      "L1 transfer",
      async () => {
        const to = randomAddress();
        const value = 987_654_321n;
        const before = await l1.getBalance({ address: localAddr });
        const receipt = await l1Success(await l1Wallet.sendTransaction({ to, value }));
        const got = await l1.getBalance({ address: to });
        assert(got === value, `L1 recipient balance ${got}, want ${value}`);
        const after = await l1.getBalance({ address: localAddr });
        const fee = receipt.gasUsed * receipt.effectiveGasPrice;
        assert(before - after === value + fee, `L1 sender paid ${before - after}, want ${value + fee}`);
      },
    ],
    [
      "L1 eth_feeConfig",
      async () => {
        const got = await l1.request({ method: "eth_feeConfig", params: [] });
        const want = { feeConfig: l1FeeConfig, lastChangedAt: 0 };
        assert(JSON.stringify(got) === JSON.stringify(want), `eth_feeConfig is ${JSON.stringify(got)}`);
      },
    ],
    [
      "L1 mintNativeCoin",
      async () => {
        const role = await l1.readContract({
          address: nativeMinter,
          abi: minterAbi,
          functionName: "readAllowList",
          args: [localAddr],
        });
        assert(role === 2n, `the local key's minter role is ${role}, want 2 (admin)`);
        const to = randomAddress();
        const amount = 10n ** 18n;
        const hash = await l1Wallet.writeContract({
          address: nativeMinter,
          abi: minterAbi,
          functionName: "mintNativeCoin",
          args: [to, amount],
        });
        const receipt = await l1Success(hash);
        const got = await l1.getBalance({ address: to });
        assert(got === amount, `minted balance ${got}, want ${amount}`);
        assert(receipt.logs.length === 1, `${receipt.logs.length} logs, want NativeCoinMinted`);
        const [log] = parseEventLogs({ abi: minterAbi, logs: receipt.logs });
        assert(log?.eventName === "NativeCoinMinted", `log is ${log?.eventName}`);
        assert(log.args.recipient.toLowerCase() === to && log.args.amount === amount, "NativeCoinMinted args");
      },
    ],
  );
} else {
  console.log("skip - L1 checks: CORNICE_L1_RPC is not set");
}

await runChecks("viem", checks, checkTimeoutMs);
