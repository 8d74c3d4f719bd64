// End-to-end check of a running cornice node with the official Avalanche TypeScript SDK
// (@avalanche-sdk/client 0.1.1 over @avalabs/avalanchejs 5.2.0), issue #14 §4: info and index
// reads, P- and X-Chain BaseTx, a subnet, a chain on it and its conversion to an L1, a validator
// and a delegator read back, and AVAX moved P→X, X→P, X→C and C→X with the balances checked on
// both sides. e2e/run.sh starts the node and runs this script; to run
// it by hand against a node of your own:
//
//   npm ci --prefix e2e/js
//   CORNICE_URL=http://127.0.0.1:9650 node e2e/js/avalanche-sdk.mjs
//
// It signs with the well-known local key, funded on P, X and C by the local genesis. Every tx is
// sent as the SDK's prepared unsigned transaction object (sendXPTransaction), never as hex: the
// SDK's hex path looks UTXOs up under the public networks' address prefixes. The SDK's own
// import/export builders name the chains by their mainnet or Fuji IDs (getChainIdFromAlias throws
// on network 12345), so the atomic txs are built with avalanchejs's builders from the node's
// context (Context.getContextFromURI) and sent the same way. Every check is bounded in time; the
// last line is `avalanche-sdk: N passed, M failed`, and the exit code is 1 when a check failed.

import { createAvalancheClient, createAvalancheWalletClient } from "@avalanche-sdk/client";
import { privateKeyToAvalancheAccount } from "@avalanche-sdk/client/accounts";
import { avalancheLocal } from "@avalanche-sdk/client/chains";
import { avm, Context, evm, Id, pvm, TransferableOutput, utils } from "@avalabs/avalanchejs";
import { randomBytes } from "node:crypto";
import { assert, baseURL, runChecks } from "./common.mjs";

const base = baseURL;
const localKey = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const checkTimeoutMs = 60_000;
// A second key's addresses, to send to (vmrq of platform-exchange.md §2.5).
const otherP = "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2";
const otherX = "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2";
const avaxToWei = 1_000_000_000n;

const chain = { ...avalancheLocal, rpcUrls: { default: { http: [`${base}/ext/bc/C/rpc`] } } };
const transport = { type: "http", config: { timeout: 10_000, retryCount: 0 } };
const client = createAvalancheClient({ chain, transport });
const account = privateKeyToAvalancheAccount(localKey);
const wallet = createAvalancheWalletClient({ account, chain, transport });
const pAddr = account.getXPAddress("P", "local");
const xAddr = account.getXPAddress("X", "local");
const ethAddr = account.getEVMAddress();
const cAddr = account.getXPAddress("C", "local");
const xpBytes = utils.bech32ToBytes(xAddr); // the key's short address, the same on X, P and C
const pAPI = new pvm.PVMApi(base);
const xAPI = new avm.AVMApi(base);
const cAPI = new evm.EVMApi(base);
const moved = 5_000_000_000n; // each cross-chain check moves 5 AVAX
// maxFee bounds any one half's fee: 0.01 AVAX.
const maxFee = 10_000_000n;

// send signs and issues a prepared tx and waits until its chain accepts (or commits) it.
async function send(prepared) {
  const res = await wallet.sendXPTransaction(prepared);
  await wallet.waitForTxn({ ...res, sleepTime: 50, maxRetries: 400 });
  return res.txHash;
}

async function pBalance(address) {
  return BigInt((await client.pChain.getBalance({ addresses: [address] })).unlocked);
}

async function xBalance(address) {
  return BigInt((await client.xChain.getBalance({ address, assetID: "AVAX" })).balance);
}

// cBalance is the key's C-Chain balance in nAVAX (the checks move whole nAVAX).
async function cBalance() {
  return (await client.getBalance({ address: ethAddr })) / avaxToWei;
}

// received sums what an import tx's outputs (X, P: TransferableOutputs; C: EVMOutputs) give.
function received(unsigned) {
  const tx = unsigned.getTx();
  const outs = tx.baseTx?.outputs ?? tx.Outs ?? tx.outs;
  return outs.reduce((sum, out) => sum + (out.amount?.value?.() ?? out.amount()), 0n);
}

// crossChain exports `moved` from one chain and imports it on the other: exportTx builds the
// export, importTx the import from the atomic UTXOs; it checks that the source lost the amount and
// a fee, the destination gained what the import's outputs say, and nothing was left pending.
async function crossChain({ balanceFrom, balanceTo, exportTx, importTx, from, to, pendingUTXOs }) {
  const [fromBefore, toBefore] = [await balanceFrom(), await balanceTo()];
  await send({ tx: await exportTx(), chainAlias: from });
  const lost = fromBefore - (await balanceFrom());
  assert(lost > moved && lost - moved < maxFee, `${from} lost ${lost}, want ${moved} and a fee`);
  const utxos = await pendingUTXOs();
  assert(utxos.length === 1, `${utxos.length} UTXOs waiting on ${to}, want 1`);
  const imp = await importTx(utxos);
  await send({ tx: imp, chainAlias: to });
  const gained = (await balanceTo()) - toBefore;
  assert(gained === received(imp), `${to} gained ${gained}, the import's outputs ${received(imp)}`);
  assert(moved - gained > 0n && moved - gained < maxFee, `${to} gained ${gained} of ${moved}`);
  assert((await pendingUTXOs()).length === 0, `UTXOs still waiting on ${to}`);
}

const context = await Context.getContextFromURI(base);
const pFeeState = () => pAPI.getFeeState();
const amountOut = (chainBytes) => [TransferableOutput.fromNative(context.avaxAssetID, moved, [chainBytes])];
const xToP = {
  from: "X", to: "P", balanceFrom: () => xBalance(xAddr), balanceTo: () => pBalance(pAddr),
  exportTx: async () => avm.newExportTx(context, context.pBlockchainID, [xpBytes], (await xAPI.getUTXOs({ addresses: [xAddr] })).utxos, amountOut(xpBytes)),
  pendingUTXOs: async () => (await pAPI.getUTXOs({ addresses: [pAddr], sourceChain: "X" })).utxos,
  importTx: async (utxos) => pvm.newImportTx({ sourceChainId: context.xBlockchainID, fromAddressesBytes: [xpBytes], toAddressesBytes: [xpBytes], feeState: await pFeeState(), utxos }, context),
};
const pToX = {
  from: "P", to: "X", balanceFrom: () => pBalance(pAddr), balanceTo: () => xBalance(xAddr),
  exportTx: async () => pvm.newExportTx({ destinationChainId: context.xBlockchainID, fromAddressesBytes: [xpBytes], feeState: await pFeeState(), utxos: (await pAPI.getUTXOs({ addresses: [pAddr] })).utxos, outputs: amountOut(xpBytes) }, context),
  pendingUTXOs: async () => (await xAPI.getUTXOs({ addresses: [xAddr], sourceChain: "P" })).utxos,
  importTx: async (utxos) => avm.newImportTx(context, context.pBlockchainID, utxos, [xpBytes], [xpBytes]),
};
const xToC = {
  from: "X", to: "C", balanceFrom: () => xBalance(xAddr), balanceTo: cBalance,
  exportTx: async () => avm.newExportTx(context, context.cBlockchainID, [xpBytes], (await xAPI.getUTXOs({ addresses: [xAddr] })).utxos, amountOut(xpBytes)),
  pendingUTXOs: async () => (await cAPI.getUTXOs({ addresses: [cAddr], sourceChain: "X" })).utxos,
  importTx: async (utxos) => evm.newImportTxFromBaseFee(context, utils.hexToBuffer(ethAddr), [xpBytes], utxos, context.xBlockchainID, BigInt(await client.baseFee())),
};
const cToX = {
  from: "C", to: "X", balanceFrom: cBalance, balanceTo: () => xBalance(xAddr),
  exportTx: async () => evm.newExportTxFromBaseFee(context, BigInt(await client.baseFee()), moved, context.xBlockchainID,
    utils.hexToBuffer(ethAddr), [xpBytes], BigInt(await client.getTransactionCount({ address: ethAddr }))),
  pendingUTXOs: async () => (await xAPI.getUTXOs({ addresses: [xAddr], sourceChain: "C" })).utxos,
  importTx: async (utxos) => avm.newImportTx(context, context.cBlockchainID, utxos, [xpBytes], [xpBytes]),
};

// A node ID and the BLS proof of possession of a key made for this test (the local stakers are
// the genesis's validators already, so they cannot be added again).
const staker = {
  nodeID: "NodeID-ERrW1L9n1x5S8gqftgEjny5QGwjPsk6qM",
  publicKey: "0x934cf059fccf3035591d4fd7806bf17e67a4c9c14e0d9f253c926f68df6aca7a2335c705d02c6cfad964ea1c3dad37e7",
  pop: "0xacb39d028c95859f1c9324ca94f83a06364db9e70e6b2e2a7beed6c93826ca77208f91ca08f499628987f5f7ca7144371469c89847fc989ecdc7662304343df12019f46410a763c7b0f4866da6dd8a097f5ce02cf27dd802f40b47dafd56cd6c",
};

// The node's own identity: the L1's one validator.
const { nodeID, nodePOP } = await client.info.getNodeID();
let subnetID;
let chainID;

const checks = [
  [
    "info reads",
    async () => {
      const { networkID } = await client.info.getNetworkID();
      assert(networkID === "12345", `networkID ${networkID}`);
      const { version } = await client.info.getNodeVersion();
      assert(version.startsWith("cornice/"), `version ${version}`);
      const { blockchainID } = await client.info.getBlockchainID({ alias: "C" });
      assert(blockchainID === "2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC", `C is ${blockchainID}`);
      const { isBootstrapped } = await client.info.isBootstrapped({ chain: "P" });
      assert(isBootstrapped, "P not bootstrapped");
      assert(nodeID.startsWith("NodeID-") && nodePOP.publicKey.length === 98, `getNodeID ${nodeID}`);
    },
  ],
  [
    "proposervm reads",
    async () => {
      // Cornice has no proposer VM: a block built now would carry the P-Chain's last accepted
      // height, and the next block would open the chain's first epoch (docs/api.md).
      const { height } = await client.pChain.getHeight();
      for (const [name, api] of [["P", client.proposervm.pChain], ["C", client.proposervm.cChain]]) {
        const proposed = await api.getProposedHeight();
        assert(proposed.height === height, `${name}: proposed height ${proposed.height}, P-Chain height ${height}`);
        const epoch = await api.getCurrentEpoch();
        assert(epoch.number === "1" && epoch.pChainHeight === height && BigInt(epoch.startTime) > 0n,
          `${name}: epoch ${JSON.stringify(epoch)}`);
      }
    },
  ],
  [
    "P-Chain BaseTx",
    async () => {
      const before = await pBalance(otherP);
      const tx = await wallet.pChain.prepareBaseTxn({ outputs: [{ addresses: [otherP], amount: 1_000_000_000n }] });
      const txID = await send(tx);
      const { status } = await client.pChain.getTxStatus({ txID });
      assert(status === "Committed", `status ${status}`);
      assert((await pBalance(otherP)) === before + 1_000_000_000n, "recipient's P balance");
    },
  ],
  [
    "X-Chain BaseTx",
    async () => {
      const before = await xBalance(otherX);
      const tx = await wallet.xChain.prepareBaseTxn({ outputs: [{ addresses: [otherX], amount: 2_000_000_000n }] });
      const txID = await send(tx);
      const { status } = await client.xChain.getTxStatus({ txID });
      assert(status === "Accepted", `status ${status}`);
      assert((await xBalance(otherX)) === before + 2_000_000_000n, "recipient's X balance");
      const last = await client.indexTx.xChain.getLastAccepted({ encoding: "hex" });
      assert(last.id === txID, `X tx index's last is ${last.id}, want ${txID}`);
    },
  ],
  [
    "index reads",
    async () => {
      for (const [name, index] of [["P", client.indexBlock.pChain], ["X", client.indexBlock.xChain]]) {
        const last = await index.getLastAccepted({ encoding: "hex" });
        const again = await index.getContainerByIndex({ index: Number(last.index), encoding: "hex" });
        assert(again.id === last.id && again.bytes === last.bytes, `${name} index: container ${last.index}`);
        const { index: i } = await index.getIndex({ id: last.id });
        assert(i === last.index, `${name} index: getIndex ${i}, want ${last.index}`);
      }
    },
  ],
  [
    "create subnet",
    async () => {
      const tx = await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [pAddr], threshold: 1 } });
      subnetID = await send(tx);
      const subnet = await client.pChain.getSubnet({ subnetID });
      assert(subnet.controlKeys.includes(pAddr), `subnet's control keys ${subnet.controlKeys}`);
    },
  ],
  [
    "create chain",
    async () => {
      assert(subnetID, "no subnet");
      const tx = await wallet.pChain.prepareCreateChainTxn({
        subnetId: subnetID,
        vmId: new Id(randomBytes(32)).toString(),
        chainName: "sdk chain",
        genesisData: { note: "a chain of a VM no node runs" },
        subnetAuth: [0],
      });
      chainID = await send(tx);
      const { status } = await client.pChain.getBlockchainStatus({ blockchainID: chainID });
      assert(status !== "", "no blockchain status");
    },
  ],
  [
    "convert subnet to L1",
    async () => {
      assert(subnetID && chainID, "no subnet or chain");
      const owner = { addresses: [pAddr], threshold: 1 };
      const tx = await wallet.pChain.prepareConvertSubnetToL1Txn({
        subnetId: subnetID,
        blockchainId: chainID,
        managerContractAddress: "0x0feedc0de0000000000000000000000000000000",
        validators: [{ nodeId: nodeID, nodePoP: nodePOP, weight: 100n, initialBalanceInAvax: 1_000_000_000n, remainingBalanceOwner: owner, deactivationOwner: owner }],
        subnetAuth: [0],
      });
      await send(tx);
      const subnet = await client.pChain.getSubnet({ subnetID });
      assert(subnet.conversionID !== "11111111111111111111111111111111LpoYY", "no conversionID");
      assert(subnet.managerChainID === chainID, `managerChainID ${subnet.managerChainID}`);
    },
  ],
  [
    "add a validator",
    async () => {
      const end = BigInt(Math.floor(Date.now() / 1000) + 25 * 3600);
      const tx = await wallet.pChain.prepareAddPermissionlessValidatorTxn({
        nodeId: staker.nodeID, publicKey: staker.publicKey, signature: staker.pop,
        stakeInAvax: 2_000_000_000_000n, end, rewardAddresses: [pAddr], delegatorRewardAddresses: [pAddr], delegatorRewardPercentage: 2,
      });
      await send(tx);
      const { validators } = await client.pChain.getCurrentValidators({ nodeIDs: [staker.nodeID] });
      assert(validators.length === 1, `${validators.length} validators ${staker.nodeID}`);
      const [v] = validators;
      assert(BigInt(v.stakeAmount ?? v.weight) === 2_000_000_000_000n, `stake ${v.stakeAmount ?? v.weight}`);
      assert(BigInt(v.endTime) === end, `end ${v.endTime}, want ${end}`);
    },
  ],
  [
    "add a delegator",
    async () => {
      const end = BigInt(Math.floor(Date.now() / 1000) + 24 * 3600 + 1800);
      const tx = await wallet.pChain.prepareAddPermissionlessDelegatorTxn({
        nodeId: staker.nodeID, stakeInAvax: 25_000_000_000n, end, rewardAddresses: [pAddr],
      });
      await send(tx);
      const { validators } = await client.pChain.getCurrentValidators({ nodeIDs: [staker.nodeID] });
      const delegators = validators[0]?.delegators ?? [];
      assert(delegators.length === 1, `${delegators.length} delegators`);
      assert(BigInt(delegators[0].stakeAmount ?? delegators[0].weight) === 25_000_000_000n, "delegator's stake");
    },
  ],
  ["P→X export and import", () => crossChain(pToX)],
  ["X→P export and import", () => crossChain(xToP)],
  ["X→C export and import", () => crossChain(xToC)],
  ["C→X export and import", () => crossChain(cToX)],
  [
    "C-Chain atomic tx status and index",
    async () => {
      const nonce = await client.getTransactionCount({ address: ethAddr });
      const tx = await cToX.exportTx();
      const txID = await send({ tx, chainAlias: "C" });
      const { status, blockHeight } = await client.cChain.getAtomicTxStatus({ txID });
      assert(status === "Accepted" && blockHeight, `status ${status} at ${blockHeight}`);
      assert((await client.getTransactionCount({ address: ethAddr })) === nonce + 1, "nonce not bumped");
      const { tx: hex } = await client.cChain.getAtomicTx({ txID, encoding: "hex" });
      assert(hex.length > 2, "getAtomicTx");
      const last = await client.indexBlock.cChain.getLastAccepted({ encoding: "hex" });
      assert(BigInt(last.index) === BigInt(blockHeight) - 1n, `C index's last is ${last.index}, the tx is at height ${blockHeight}`);
      await send({ tx: await cToX.importTx(await cToX.pendingUTXOs()), chainAlias: "X" });
    },
  ],
];

await runChecks("avalanche-sdk", checks, checkTimeoutMs, (err) => err?.details ?? err?.shortMessage ?? err?.message ?? err);
