// End-to-end check of a running cornice node with ethers v6, the other JavaScript client the
// product promise names ("go-ethereum's ethclient, ethers and viem, unchanged"): the C-Chain and,
// when the node runs one, an L1 made from examples/l1-genesis.json. e2e/run.sh starts the node and
// runs this script after check.mjs; to run it by hand against a node of your own:
//
//   npm ci --prefix e2e/js
//   CORNICE_URL=http://127.0.0.1:9650 CORNICE_L1_RPC=http://127.0.0.1:9650/ext/bc/<id>/rpc \
//     node e2e/js/ethers.mjs
//
// CORNICE_URL is the node's HTTP base; the script uses /ext/bc/C/rpc through a JsonRpcProvider
// and /ext/bc/C/ws through a WebSocketProvider. CORNICE_L1_RPC is the L1's RPC URL, as
// `cornice run --l1` prints it; without it the L1 checks are skipped. It signs with the
// well-known local key, funded in the local C-Chain genesis and in the example L1's alloc, where
// it is the admin of the transaction allow list. The providers keep ethers' defaults (network
// detection through eth_chainId, JSON-RPC batching) except for a 10 s request timeout, a
// 100 ms polling interval and no request cache (see newProvider); the checks "two transactions in
// a row" use a provider with every default, as README.md's section on ethers describes, and print
// which way the plain pattern went as a `# …` line. Every check is bounded in time; each prints `ok - …` or
// `not ok - …`, the last line is `ethers: N passed, M failed`, and the exit code is 1 when a
// check failed.

import {
  ContractFactory,
  Contract,
  FetchRequest,
  JsonRpcProvider,
  NonceManager,
  Wallet,
  WebSocketProvider,
  getAddress,
  hexlify,
  id,
  parseEther,
  randomBytes,
} from "ethers";
import { assert, sleep, cChainRPC as rpcURL, cChainWS as wsURL, l1FeeConfig, runChecks } from "./common.mjs";

const chainID = 43112n;
const localKey = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const localAddr = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const checkTimeoutMs = 60_000; // per check
const requestTimeoutMs = 10_000; // per JSON-RPC request
const receiptTimeoutMs = 30_000; // per transaction
const pollingInterval = 100;

// newProvider returns a JsonRpcProvider for url that detects its network with eth_chainId (no
// static network, so getNetwork really asks the node). cacheTimeout -1 turns off ethers' 250 ms
// cache of identical requests: the node seals a transaction's block within milliseconds, and
// the cache would then answer eth_getTransactionCount and eth_getBalance from before the block.
function newProvider(url) {
  const req = new FetchRequest(url);
  req.timeout = requestTimeoutMs;
  return new JsonRpcProvider(req, undefined, { pollingInterval, cacheTimeout: -1 });
}

const provider = newProvider(rpcURL);
const wallet = new Wallet(localKey, provider);

// A storage contract assembled by hand. set(uint256) stores its argument at slot 0 and emits
// ValueSet(msg.sender, value); get() returns slot 0; anything else reverts. The init code copies
// the 94-byte runtime and returns it. Offsets are in hex.
const storageAbi = [
  "function set(uint256 value)",
  "function get() view returns (uint256)",
  "event ValueSet(address indexed setter, uint256 value)",
];
const valueSetTopic = id("ValueSet(address,uint256)");
const storageRuntime = [
  "6000", "35", "60e0", "1c", //           00: selector = calldata[0:4]
  "80", "6360fe47b1", "14", "601f", "57", // 06: set(uint256) → 1f
  "80", "636d4ce63c", "14", "6052", "57", // 10: get() → 52
  "6000", "6000", "fd", //                 1a: revert(0, 0)
  "5b", "600435", "80", "6000", "55", //   1f: set: sstore(0, calldata[4:36])
  "6000", "52", "33", //                   27: mstore(0, value); topic1 = caller
  `7f${valueSetTopic.slice(2)}`, //        2b: topic0
  "6020", "6000", "a2", "00", //           4c: log2(0, 32, topic0, caller); stop
  "5b", "6000", "54", "6000", "52", //     52: get: mstore(0, sload(0))
  "6020", "6000", "f3", //                 59: return(0, 32)
].join("");
const storageInit = "605e80600b6000396000f3"; // codecopy(0, 0b, 5e); return(0, 5e)
const storageBytecode = `0x${storageInit}${storageRuntime}`;

function randomAddress() {
  return getAddress(hexlify(randomBytes(20)));
}

// mined waits for tx and requires that it succeeded.
async function mined(tx) {
  const receipt = await tx.wait(1, receiptTimeoutMs);
  assert(receipt, `no receipt for ${tx.hash}`);
  assert(receipt.status === 1, `transaction ${tx.hash} failed: status ${receipt.status}`);
  return receipt;
}

// transfer sends value wei from signer to a fresh address and checks the receipt and that the
// balances moved by exactly value and value + fee. It returns the receipt.
async function transfer(signer, value) {
  const { provider: p } = signer;
  const to = randomAddress();
  const from = await signer.getAddress();
  const before = await p.getBalance(from);
  const tx = await signer.sendTransaction({ to, value });
  assert(tx.type === 2, `ethers sent a type ${tx.type} transaction, want 2 (EIP-1559)`);
  const receipt = await mined(tx);
  assert(receipt.hash === tx.hash, `receipt hash ${receipt.hash}, want ${tx.hash}`);
  assert(receipt.from === from, `receipt from ${receipt.from}, want ${from}`);
  assert(receipt.to === to, `receipt to ${receipt.to}, want ${to}`);
  assert(receipt.gasUsed === 21000n, `gasUsed ${receipt.gasUsed}, want 21000`);
  const fee = receipt.gasUsed * receipt.gasPrice;
  assert(receipt.fee === fee, `receipt.fee ${receipt.fee}, want ${fee}`);
  const got = await p.getBalance(to);
  assert(got === value, `recipient balance ${got}, want ${value}`);
  const after = await p.getBalance(from);
  assert(before - after === value + fee, `sender paid ${before - after}, want ${value + fee}`);
  // The same difference between the states before and after the transaction's block.
  const atParent = await p.getBalance(from, receipt.blockNumber - 1);
  const atBlock = await p.getBalance(from, receipt.blockNumber);
  assert(atParent - atBlock === value + fee, `sender paid ${atParent - atBlock} in block ${receipt.blockNumber}`);
  const fetched = await p.getTransaction(tx.hash);
  assert(fetched.blockNumber === receipt.blockNumber, `transaction in block ${fetched.blockNumber}`);
  return receipt;
}

// twoInARow sends 1 wei from signer to a fresh address twice, each time waiting for the receipt
// before the next: what a script that deploys and then calls does.
async function twoInARow(signer) {
  for (let i = 0; i < 2; i++) {
    const tx = await signer.sendTransaction({ to: randomAddress(), value: 1n });
    await mined(tx);
  }
}

// plainPattern runs twoInARow with the local key on url through a JsonRpcProvider with every
// ethers default, as a new user writes it (README.md, "ethers and the 250 ms cache"), and says
// which way it went: both accepted, or the second refused with NONCE_EXPIRED because ethers
// answered its eth_getTransactionCount from its 250 ms cache of identical requests while the
// node had accepted the first within milliseconds. Any other failure is an error.
async function plainPattern(url) {
  const plain = new JsonRpcProvider(url);
  try {
    await twoInARow(new Wallet(localKey, plain));
    return "both transactions accepted";
  } catch (err) {
    if (err?.code !== "NONCE_EXPIRED") throw err;
    return `the second was refused (${err.shortMessage}: ${err?.info?.error?.message}), as README.md says`;
  } finally {
    plain.destroy();
  }
}

// withNonceManager runs twoInARow through a NonceManager over a default JsonRpcProvider, the
// workaround README.md gives: it counts nonces itself, so both must be accepted.
async function withNonceManager(url) {
  const plain = new JsonRpcProvider(url);
  try {
    await twoInARow(new NonceManager(new Wallet(localKey, plain)));
  } finally {
    plain.destroy();
  }
}

const checks = [
  [
    "two transactions in a row with the default JsonRpcProvider",
    async () => {
      console.log(`# C-Chain, default JsonRpcProvider: ${await plainPattern(rpcURL)}`);
    },
  ],
  [
    "two transactions in a row through a NonceManager",
    async () => withNonceManager(rpcURL),
  ],
  [
    "getNetwork",
    async () => {
      const { chainId } = await provider.getNetwork();
      assert(chainId === chainID, `chainId is ${chainId}, want ${chainID}`);
      assert(wallet.address === localAddr, `local key gives ${wallet.address}`);
    },
  ],
  [
    "getBlockNumber",
    async () => {
      const n = await provider.getBlockNumber();
      assert(Number.isSafeInteger(n) && n >= 0, `getBlockNumber is ${n}`);
      const block = await provider.getBlock(n);
      assert(block?.number === n, `getBlock(${n}) is block ${block?.number}`);
      assert(/^0x[0-9a-f]{64}$/.test(block.hash), `block ${n} hash ${block.hash}`);
    },
  ],
  [
    "getFeeData",
    async () => {
      const fee = await provider.getFeeData();
      assert(fee.gasPrice > 0n, `gasPrice ${fee.gasPrice}`);
      assert(fee.maxFeePerGas > 0n, `maxFeePerGas ${fee.maxFeePerGas} (no baseFeePerGas in the latest block?)`);
      // ethers falls back to 1 gwei when eth_maxPriorityFeePerGas fails: make sure the node answered.
      const tip = BigInt(await provider.send("eth_maxPriorityFeePerGas", []));
      assert(fee.maxPriorityFeePerGas === tip, `maxPriorityFeePerGas ${fee.maxPriorityFeePerGas}, node says ${tip}`);
      assert(fee.maxFeePerGas > fee.maxPriorityFeePerGas, `maxFeePerGas ${fee.maxFeePerGas} <= tip ${tip}`);
    },
  ],
  [
    "transfer",
    async () => {
      await transfer(wallet, 1_234_567_890n);
    },
  ],
  [
    "estimateGas",
    async () => {
      const gas = await provider.estimateGas({ from: localAddr, to: randomAddress(), value: 1n });
      assert(gas === 21000n, `transfer estimate ${gas}, want 21000`);
      const factory = new ContractFactory(storageAbi, storageBytecode, wallet);
      const deploy = await factory.getDeployTransaction();
      const create = await provider.estimateGas({ ...deploy, from: localAddr });
      assert(create > 53000n, `deploy estimate ${create}, want more than 53000`);
    },
  ],
  [
    "contract deploy, call, transaction and queryFilter",
    async () => {
      const factory = new ContractFactory(storageAbi, storageBytecode, wallet);
      const contract = await factory.deploy();
      const deployReceipt = await mined(contract.deploymentTransaction());
      await contract.waitForDeployment();
      const address = await contract.getAddress();
      assert(deployReceipt.contractAddress === address, `contractAddress ${deployReceipt.contractAddress}`);
      const code = await provider.getCode(address);
      assert(code === `0x${storageRuntime}`, `code at ${address} is ${code}`);

      let value = await contract.get();
      assert(value === 0n, `get() before set is ${value}`);
      const estimate = await contract.set.estimateGas(42n);
      const tx = await contract.set(42n);
      const receipt = await mined(tx);
      assert(receipt.gasUsed > 21000n && receipt.gasUsed <= estimate, `set(42) used ${receipt.gasUsed}, estimate ${estimate}`);
      value = await contract.get();
      assert(value === 42n, `get() after set(42) is ${value}`);
      const raw = await provider.call({ to: address, data: contract.interface.encodeFunctionData("get") });
      assert(BigInt(raw) === 42n, `eth_call get() is ${raw}`);

      assert(receipt.logs.length === 1, `${receipt.logs.length} logs in the receipt, want 1`);
      const parsed = contract.interface.parseLog(receipt.logs[0]);
      assert(parsed?.name === "ValueSet" && parsed.args.value === 42n, `receipt log ${parsed?.name}`);

      const events = await contract.queryFilter(
        contract.filters.ValueSet(localAddr),
        receipt.blockNumber,
        receipt.blockNumber,
      );
      assert(events.length === 1, `queryFilter found ${events.length} ValueSet events, want 1`);
      const [ev] = events;
      assert(ev.eventName === "ValueSet", `event ${ev.eventName}`);
      assert(ev.args.setter === localAddr && ev.args.value === 42n, `event args ${ev.args.setter}, ${ev.args.value}`);
      assert(ev.transactionHash === receipt.hash, `event in ${ev.transactionHash}, want ${receipt.hash}`);
      assert(ev.address === address && ev.topics[0] === valueSetTopic, "event address or topic0");
      const all = await contract.queryFilter("ValueSet");
      assert(all.length === 1, `queryFilter over all blocks found ${all.length} events, want 1`);
      const none = await contract.queryFilter(contract.filters.ValueSet(randomAddress()));
      assert(none.length === 0, `queryFilter for another setter found ${none.length} events`);
    },
  ],
  [
    "WebSocketProvider block subscription",
    async () => {
      const ws = new WebSocketProvider(wsURL);
      try {
        const { chainId } = await ws.getNetwork();
        assert(chainId === chainID, `websocket chainId is ${chainId}`);
        const seen = new Set();
        let wake = () => {};
        await ws.on("block", (n) => {
          seen.add(n);
          wake();
        });
        // The eth_subscribe may not be in place when the first block comes: make a transfer,
        // and another every 2 s until the websocket has announced a transfer's block.
        let seenBlock;
        for (let attempt = 0; attempt < 10 && seenBlock === undefined; attempt++) {
          const { blockNumber } = await transfer(wallet, 1n);
          const deadline = Date.now() + 2_000;
          while (!seen.has(blockNumber) && Date.now() < deadline) {
            await Promise.race([new Promise((r) => (wake = r)), sleep(100)]);
          }
          if (seen.has(blockNumber)) seenBlock = blockNumber;
        }
        assert(seenBlock !== undefined, `no block event for the transfers' blocks (saw ${[...seen]})`);
        const block = await ws.getBlock(seenBlock);
        assert(block?.number === seenBlock, `websocket getBlock(${seenBlock}) is ${block?.number}`);
      } finally {
        // destroy() drops the subscription without an eth_unsubscribe that it would then cancel.
        await ws.destroy();
      }
    },
  ],
];

// The example L1 (examples/l1-genesis.json): chain ID 99999, the default fee config, and the
// transaction allow list enabled at genesis with the local key as its admin.
const l1RPC = process.env.CORNICE_L1_RPC;
const l1ChainID = 99999n;
const txAllowList = "0x0200000000000000000000000000000000000002";
const allowListAbi = ["function readAllowList(address) view returns (uint256)"];
// The txpool's refusal (shared/reference/l1-evm.md §5.3), followed by the sender's address.
const notAllowListed = "cannot issue transaction from non-allow listed address";

if (l1RPC) {
  const l1 = newProvider(l1RPC);
  const l1Wallet = new Wallet(localKey, l1);
  checks.push(
    [
      "L1 getNetwork",
      async () => {
        const { chainId } = await l1.getNetwork();
        assert(chainId === l1ChainID, `L1 chainId is ${chainId}, want ${l1ChainID}`);
      },
    ],
    [
      "L1 transfer",
      async () => {
        await transfer(l1Wallet, 987_654_321n);
      },
    ],
    [
      "L1 two transactions in a row with the default JsonRpcProvider",
      async () => {
        console.log(`# L1, default JsonRpcProvider: ${await plainPattern(l1RPC)}`);
      },
    ],
    [
      "L1 two transactions in a row through a NonceManager",
      async () => withNonceManager(l1RPC),
    ],
    [
      "L1 eth_feeConfig",
      async () => {
        const got = await l1.send("eth_feeConfig", []);
        const want = { feeConfig: l1FeeConfig, lastChangedAt: 0 };
        assert(JSON.stringify(got) === JSON.stringify(want), `eth_feeConfig is ${JSON.stringify(got)}`);
      },
    ],
    [
      "L1 readAllowList",
      async () => {
        const allowList = new Contract(txAllowList, allowListAbi, l1);
        const role = await allowList.readAllowList(localAddr);
        assert(role === 2n, `the local key's tx allow list role is ${role}, want 2 (admin)`);
      },
    ],
    [
      "L1 transfer from a non-allow-listed address is refused",
      async () => {
        const outsider = Wallet.createRandom().connect(l1);
        const funding = await l1Wallet.sendTransaction({ to: outsider.address, value: parseEther("1") });
        await mined(funding);
        const allowList = new Contract(txAllowList, allowListAbi, l1);
        const role = await allowList.readAllowList(outsider.address);
        assert(role === 0n, `the fresh wallet's role is ${role}, want 0 (none)`);
        let refusal;
        try {
          const tx = await outsider.sendTransaction({ to: randomAddress(), value: 1n });
          refusal = new Error(`the node accepted ${tx.hash}`);
        } catch (err) {
          // ethers wraps the JSON-RPC error of eth_sendRawTransaction; err.error is the node's.
          const msg = err?.error?.message ?? err?.info?.error?.message ?? "";
          const want = `${notAllowListed}: ${outsider.address}`;
          if (msg !== want) {
            refusal = new Error(`refused with ${JSON.stringify(msg || err?.message)}, want ${JSON.stringify(want)}`);
          }
        }
        if (refusal) throw refusal;
        const balance = await l1.getBalance(outsider.address);
        assert(balance === parseEther("1"), `the refused sender's balance is ${balance}`);
        const nonce = await l1.getTransactionCount(outsider.address, "pending");
        assert(nonce === 0, `the refused sender's pending nonce is ${nonce}`);
      },
    ],
  );
} else {
  console.log("skip - L1 checks: CORNICE_L1_RPC is not set");
}

await runChecks("ethers", checks, checkTimeoutMs);
