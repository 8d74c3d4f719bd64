// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @notice A counter with an owner-free setter, an increment and an event: enough for forge
/// create, forge script, cast send and cast call to show that each reached the chain.
contract Counter {
    uint256 public number;

    event NumberSet(address indexed by, uint256 number);

    constructor(uint256 initial) {
        number = initial;
    }

    function setNumber(uint256 newNumber) external {
        number = newNumber;
        emit NumberSet(msg.sender, newNumber);
    }

    function increment() external {
        number += 1;
        emit NumberSet(msg.sender, number);
    }
}
