// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DemoToken} from "./DemoToken.sol";

/// Creates DemoTokens owned by the caller, with CREATE or CREATE2 (salted, predictable address).
contract TokenFactory {
    event TokenCreated(address indexed token, address indexed owner, bool salted);

    function create(string calldata name, string calldata symbol, uint8 decimals, uint256 supply) external returns (address) {
        DemoToken token = new DemoToken(name, symbol, decimals, msg.sender, supply);
        emit TokenCreated(address(token), msg.sender, false);
        return address(token);
    }

    function create2(string calldata name, string calldata symbol, uint8 decimals, uint256 supply, bytes32 salt)
        external returns (address)
    {
        DemoToken token = new DemoToken{salt: salt}(name, symbol, decimals, msg.sender, supply);
        emit TokenCreated(address(token), msg.sender, true);
        return address(token);
    }
}
