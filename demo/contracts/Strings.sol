// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Decimal and base64 encoding for on-chain metadata (data: URIs).
library Strings {
    function decimal(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 v = value; v != 0; v /= 10) digits++;
        bytes memory out = new bytes(digits);
        for (; value != 0; value /= 10) out[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(out);
    }

    function base64(bytes memory data) internal pure returns (string memory) {
        bytes memory table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        bytes memory out = new bytes(4 * ((data.length + 2) / 3));
        uint256 j;
        for (uint256 i = 0; i < data.length; i += 3) {
            uint256 chunk = uint256(uint8(data[i])) << 16;
            if (i + 1 < data.length) chunk |= uint256(uint8(data[i + 1])) << 8;
            if (i + 2 < data.length) chunk |= uint256(uint8(data[i + 2]));
            out[j++] = table[(chunk >> 18) & 63];
            out[j++] = table[(chunk >> 12) & 63];
            out[j++] = i + 1 < data.length ? table[(chunk >> 6) & 63] : bytes1("=");
            out[j++] = i + 2 < data.length ? table[chunk & 63] : bytes1("=");
        }
        return string(out);
    }

    /// data:application/json;base64 metadata with a name and an inline SVG image.
    function jsonDataUri(string memory name, uint256 id) internal pure returns (string memory) {
        string memory label = string.concat(name, " #", decimal(id));
        string memory svg = string.concat(
            "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='60'><text x='8' y='36'>", label, "</text></svg>"
        );
        bytes memory json = abi.encodePacked(
            '{"name":"', label, '","description":"scoutkit demo token","image":"data:image/svg+xml;base64,',
            base64(bytes(svg)), '"}'
        );
        return string.concat("data:application/json;base64,", base64(json));
    }
}
