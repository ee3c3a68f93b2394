// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Strings} from "./Strings.sol";

interface IERC1155Receiver {
    function onERC1155Received(address op, address from, uint256 id, uint256 value, bytes calldata data)
        external returns (bytes4);
    function onERC1155BatchReceived(address op, address from, uint256[] calldata ids, uint256[] calldata values, bytes calldata data)
        external returns (bytes4);
}

/// A minimal ERC-1155; the owner mints, holders (or their operators) transfer and burn.
contract DemoMulti {
    address public owner;
    mapping(uint256 => mapping(address => uint256)) private balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    constructor() {
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0xd9b67a26 || id == 0x0e89341c; // ERC-165, ERC-1155, metadata URI
    }

    function uri(uint256 id) external pure returns (string memory) {
        return Strings.jsonDataUri("Demo Multi", id);
    }

    /// ERC-1155 balanceOf(account, id) — the standard's argument order
    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return balances[id][account];
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids) external view returns (uint256[] memory out) {
        require(accounts.length == ids.length, "length mismatch");
        out = new uint256[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) out[i] = balances[ids[i]][accounts[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        require(to != address(0), "transfer to zero address");
        _move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, value, data);
            require(answer == IERC1155Receiver.onERC1155Received.selector, "receiver rejected tokens");
        }
    }

    function safeBatchTransferFrom(
        address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata data
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        require(to != address(0), "transfer to zero address");
        require(ids.length == values.length, "length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], values[i]);
        emit TransferBatch(msg.sender, from, to, ids, values);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data);
            require(answer == IERC1155Receiver.onERC1155BatchReceived.selector, "receiver rejected tokens");
        }
    }

    function mint(address to, uint256 id, uint256 value) external {
        require(msg.sender == owner, "only owner");
        _move(address(0), to, id, value);
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external {
        require(msg.sender == owner, "only owner");
        require(ids.length == values.length, "length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _move(address(0), to, ids[i], values[i]);
        emit TransferBatch(msg.sender, address(0), to, ids, values);
    }

    function burn(address from, uint256 id, uint256 value) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        _move(from, address(0), id, value);
        emit TransferSingle(msg.sender, from, address(0), id, value);
    }

    function _move(address from, address to, uint256 id, uint256 value) private {
        if (from != address(0)) {
            require(balances[id][from] >= value, "insufficient balance");
            balances[id][from] -= value;
        }
        if (to != address(0)) balances[id][to] += value;
    }
}
