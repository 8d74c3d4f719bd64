// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {TeleporterMessageInput, TeleporterFeeInfo} from "./Messenger.sol";

interface IMessenger {
    function sendCrossChainMessage(TeleporterMessageInput calldata messageInput) external returns (bytes32);
}

interface IToken {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @notice A Teleporter receiver for tests: it records what the messenger delivered, refuses
/// the message "fail" (so that a failed execution can be seen), and sends messages of its own.
contract TestReceiver {
    address public immutable messenger;
    uint256 public received;
    bytes32 public lastSourceBlockchainID;
    address public lastOriginSender;
    bytes public lastMessage;

    constructor(address messenger_) {
        messenger = messenger_;
    }

    function receiveTeleporterMessage(bytes32 sourceBlockchainID, address originSenderAddress, bytes calldata message)
        external
    {
        require(msg.sender == messenger, "TestReceiver: not the messenger");
        require(keccak256(message) != keccak256("fail"), "TestReceiver: refused");
        received++;
        lastSourceBlockchainID = sourceBlockchainID;
        lastOriginSender = originSenderAddress;
        lastMessage = message;
    }

    /// @notice sends message to destination on chain, paying fee of token (approved from this
    /// contract's balance) to the relayer.
    function send(bytes32 chain, address destination, bytes calldata message, address token, uint256 fee)
        external
        returns (bytes32)
    {
        if (fee > 0) {
            IToken(token).approve(messenger, fee);
        }
        return IMessenger(messenger).sendCrossChainMessage(
            TeleporterMessageInput({
                destinationBlockchainID: chain,
                destinationAddress: destination,
                feeInfo: TeleporterFeeInfo(token, fee),
                requiredGasLimit: 200_000,
                allowedRelayerAddresses: new address[](0),
                message: message
            })
        );
    }
}

/// @notice A minimal ERC-20 fee token for tests: anyone may mint.
contract TestToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        return _move(msg.sender, to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        allowance[from][msg.sender] -= amount;
        return _move(from, to, amount);
    }

    function _move(address from, address to, uint256 amount) private returns (bool) {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}
