// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Counter} from "../src/Counter.sol";

/// @notice Run as `forge test --fork-url <a cornice chain's RPC URL>`: every account, code and
/// block header these tests read comes from the node, and no test calls a cheatcode, so what
/// passes is the node's state as forge fetched it.
contract CounterTest {
    /// The well-known local key's address, funded in the genesis of the local C-Chain and of
    /// examples/l1-genesis.json.
    address internal constant LOCAL = 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC;

    Counter internal counter;

    function setUp() public {
        counter = new Counter(1);
    }

    function test_IncrementAndSet() public {
        counter.increment();
        require(counter.number() == 2, "increment");
        counter.setNumber(42);
        require(counter.number() == 42, "setNumber");
    }

    function test_NodeState() public view {
        require(block.chainid == 43112 || block.chainid == 99999, "not a cornice local chain");
        require(block.number > 0, "forked at genesis: the e2e run has sent transactions before");
        require(LOCAL.balance > 0, "local key not funded");
        require(LOCAL.code.length == 0, "local key has code");
    }
}
