// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Fails on purpose: `fail` with an Error(string) reason, `divide` by zero with Panic(0x12).
contract Reverter {
    uint256 public calls;

    function fail() external {
        calls++;
        require(false, "reverter: always fails");
    }

    function divide(uint256 a, uint256 b) external returns (uint256) {
        calls++;
        return a / b;
    }

    function ping() external returns (uint256) {
        return ++calls;
    }
}
