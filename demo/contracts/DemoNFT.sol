// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Strings} from "./Strings.sol";

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 id, bytes calldata data) external returns (bytes4);
}

/// A minimal ERC-721 with metadata; the owner mints any id (ids above 2^53 included).
contract DemoNFT {
    string public name;
    string public symbol;
    address public owner;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed id);
    event Approval(address indexed owner, address indexed approved, uint256 indexed id);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f; // ERC-165, ERC-721, metadata
    }

    function ownerOf(uint256 id) public view returns (address holder) {
        holder = owners[id];
        require(holder != address(0), "token does not exist");
    }

    function tokenURI(uint256 id) external view returns (string memory) {
        ownerOf(id);
        return Strings.jsonDataUri(name, id);
    }

    function approve(address to, uint256 id) external {
        address holder = ownerOf(id);
        require(msg.sender == holder || isApprovedForAll[holder][msg.sender], "not allowed");
        getApproved[id] = to;
        emit Approval(holder, to, id);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 id) public {
        require(ownerOf(id) == from, "wrong owner");
        require(to != address(0), "transfer to zero address");
        require(_allowed(from, id), "not allowed");
        _set(from, to, id);
    }

    function safeTransferFrom(address from, address to, uint256 id) external {
        safeTransferFrom(from, to, id, "");
    }

    function safeTransferFrom(address from, address to, uint256 id, bytes memory data) public {
        transferFrom(from, to, id);
        if (to.code.length > 0) {
            bytes4 answer = IERC721Receiver(to).onERC721Received(msg.sender, from, id, data);
            require(answer == IERC721Receiver.onERC721Received.selector, "receiver rejected token");
        }
    }

    function mint(address to, uint256 id) external {
        require(msg.sender == owner, "only owner");
        require(to != address(0), "mint to zero address");
        require(owners[id] == address(0), "token exists");
        _set(address(0), to, id);
    }

    function burn(uint256 id) external {
        address holder = ownerOf(id);
        require(_allowed(holder, id), "not allowed");
        _set(holder, address(0), id);
    }

    function _allowed(address holder, uint256 id) private view returns (bool) {
        return msg.sender == holder || getApproved[id] == msg.sender || isApprovedForAll[holder][msg.sender];
    }

    function _set(address from, address to, uint256 id) private {
        if (from != address(0)) balanceOf[from]--;
        if (to != address(0)) balanceOf[to]++;
        owners[id] = to;
        delete getApproved[id];
        emit Transfer(from, to, id);
    }
}
