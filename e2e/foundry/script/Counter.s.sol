// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Counter} from "../src/Counter.sol";

/// @notice The two cheatcodes a broadcasting script needs, declared here rather than taken from
/// forge-std, which is not on the npm registry.
interface Vm {
    function startBroadcast() external;
    function stopBroadcast() external;
}

/// @notice Deploys a Counter at 7 and increments it: two transactions, sent by
/// `forge script --broadcast` from the key of --private-key.
contract CounterScript {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    function run() external returns (Counter counter) {
        vm.startBroadcast();
        counter = new Counter(7);
        counter.increment();
        vm.stopBroadcast();
    }
}
