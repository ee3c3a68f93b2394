// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Forwards calls with value. `split` pays two addresses and then makes one call that is allowed
/// to fail: its failure is recorded in an event, the transaction itself succeeds.
contract Router {
    event Forwarded(address indexed target, uint256 value, bool success);

    function forward(address target, bytes calldata data) external payable returns (bytes memory result) {
        bool ok;
        (ok, result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly { revert(add(result, 32), mload(result)) } // bubble the inner revert up
        }
        emit Forwarded(target, msg.value, true);
    }

    function split(address payable a, address payable b, address mayFail, bytes calldata data) external payable returns (bool ok) {
        uint256 half = msg.value / 2;
        (bool okA, ) = a.call{value: half}("");
        (bool okB, ) = b.call{value: msg.value - half}("");
        require(okA && okB, "payment failed");
        emit Forwarded(a, half, true);
        emit Forwarded(b, msg.value - half, true);
        (ok, ) = mayFail.call(data);
        emit Forwarded(mayFail, 0, ok);
    }
}
