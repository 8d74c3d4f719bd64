// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

// cornice's interchain messenger: the interface, events, message format and message IDs of
// Teleporter (ava-labs/icm-contracts TeleporterMessenger v1), written for cornice, so that the
// node's built-in relay, and contracts written for Teleporter, work with it unchanged. Messages
// travel as Warp messages (the precompile at 0x0200…05) whose payload is abi.encode of a
// TeleporterMessage; the messenger must live at the same address on every chain (a keyless
// deployment gives that), since a receiving messenger accepts only messages its own address sent.

struct WarpMessage {
    bytes32 sourceChainID;
    address originSenderAddress;
    bytes payload;
}

interface IWarpMessenger {
    function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
    function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory message, bool valid);
    function getBlockchainID() external view returns (bytes32 blockchainID);
}

struct TeleporterFeeInfo {
    address feeTokenAddress;
    uint256 amount;
}

struct TeleporterMessageInput {
    bytes32 destinationBlockchainID;
    address destinationAddress;
    TeleporterFeeInfo feeInfo;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    bytes message;
}

struct TeleporterMessageReceipt {
    uint256 receivedMessageNonce;
    address relayerRewardAddress;
}

struct TeleporterMessage {
    uint256 messageNonce;
    address originSenderAddress;
    bytes32 destinationBlockchainID;
    address destinationAddress;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    TeleporterMessageReceipt[] receipts;
    bytes message;
}

interface ITeleporterReceiver {
    function receiveTeleporterMessage(bytes32 sourceBlockchainID, address originSenderAddress, bytes calldata message)
        external;
}

interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
}

contract Messenger {
    IWarpMessenger public constant WARP_MESSENGER = IWarpMessenger(0x0200000000000000000000000000000000000005);

    // At most this many receipts ride along with one message, as in Teleporter.
    uint256 public constant MAX_RECEIPTS_BATCH_SIZE = 5;

    event BlockchainIDInitialized(bytes32 indexed blockchainID);
    event SendCrossChainMessage(
        bytes32 indexed messageID,
        bytes32 indexed destinationBlockchainID,
        TeleporterMessage message,
        TeleporterFeeInfo feeInfo
    );
    event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);
    event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message);
    event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
    event ReceiveCrossChainMessage(
        bytes32 indexed messageID,
        bytes32 indexed sourceBlockchainID,
        address indexed deliverer,
        address rewardRedeemer,
        TeleporterMessage message
    );
    event ReceiptReceived(
        bytes32 indexed messageID,
        bytes32 indexed destinationBlockchainID,
        address indexed relayerRewardAddress,
        TeleporterFeeInfo feeInfo
    );
    event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount);

    struct SentMessageInfo {
        bytes32 messageHash;
        TeleporterFeeInfo feeInfo;
    }

    // blockchainID is this chain's, read from the warp precompile on first use.
    bytes32 public blockchainID;
    // messageNonce is the nonce of the next message sent; the first is 1.
    uint256 public messageNonce = 1;

    // sentMessageInfo holds each sent message's hash and fee until its receipt comes back.
    mapping(bytes32 messageID => SentMessageInfo) internal sentMessageInfo;
    // relayerRewardAddresses is set for each received message: non-zero means delivered.
    mapping(bytes32 messageID => address) internal relayerRewardAddresses;
    // receivedFailedMessageHashes holds the hash of each received message whose execution failed.
    mapping(bytes32 messageID => bytes32) internal receivedFailedMessageHashes;
    mapping(address relayer => mapping(address token => uint256)) internal relayerRewardAmounts;
    // receiptQueues: the receipts of messages received from a chain, to send back to it, oldest
    // first from receiptQueueFirst.
    mapping(bytes32 sourceBlockchainID => TeleporterMessageReceipt[]) internal receiptQueues;
    mapping(bytes32 sourceBlockchainID => uint256) internal receiptQueueFirst;

    uint256 private sending = 1;
    uint256 private receiving = 1;

    modifier senderNonReentrant() {
        require(sending == 1, "ReentrancyGuards: sender reentrancy");
        sending = 2;
        _;
        sending = 1;
    }

    modifier receiverNonReentrant() {
        require(receiving == 1, "ReentrancyGuards: receiver reentrancy");
        receiving = 2;
        _;
        receiving = 1;
    }

    function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(sourceBlockchainID, destinationBlockchainID, nonce));
    }

    function sendCrossChainMessage(TeleporterMessageInput calldata messageInput)
        external
        senderNonReentrant
        returns (bytes32)
    {
        uint256 fee = _takeFee(messageInput.feeInfo);
        TeleporterMessage memory message = TeleporterMessage({
            messageNonce: messageNonce++,
            originSenderAddress: msg.sender,
            destinationBlockchainID: messageInput.destinationBlockchainID,
            destinationAddress: messageInput.destinationAddress,
            requiredGasLimit: messageInput.requiredGasLimit,
            allowedRelayerAddresses: messageInput.allowedRelayerAddresses,
            receipts: _takeReceipts(messageInput.destinationBlockchainID),
            message: messageInput.message
        });
        return _send(message, TeleporterFeeInfo(messageInput.feeInfo.feeTokenAddress, fee));
    }

    function retrySendCrossChainMessage(TeleporterMessage calldata message) external senderNonReentrant {
        bytes32 messageID = calculateMessageID(_blockchainID(), message.destinationBlockchainID, message.messageNonce);
        bytes32 hash = sentMessageInfo[messageID].messageHash;
        require(hash != bytes32(0), "TeleporterMessenger: message not found");
        require(keccak256(abi.encode(message)) == hash, "TeleporterMessenger: invalid message hash");
        WARP_MESSENGER.sendWarpMessage(abi.encode(message));
    }

    function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount)
        external
        senderNonReentrant
    {
        require(additionalFeeAmount > 0, "TeleporterMessenger: zero additional fee amount");
        require(feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
        SentMessageInfo storage info = sentMessageInfo[messageID];
        require(info.messageHash != bytes32(0), "TeleporterMessenger: message not found");
        require(info.feeInfo.feeTokenAddress == feeTokenAddress, "TeleporterMessenger: invalid fee asset contract address");
        info.feeInfo.amount += _transferIn(feeTokenAddress, additionalFeeAmount);
        emit AddFeeAmount(messageID, info.feeInfo);
    }

    function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)
        external
        receiverNonReentrant
    {
        require(relayerRewardAddress != address(0), "TeleporterMessenger: zero relayer reward address");
        (WarpMessage memory warpMessage, bool valid) = WARP_MESSENGER.getVerifiedWarpMessage(messageIndex);
        require(valid, "TeleporterMessenger: invalid warp message");
        TeleporterMessage memory message = abi.decode(warpMessage.payload, (TeleporterMessage));
        bytes32 here = _blockchainID();
        require(message.destinationBlockchainID == here, "TeleporterMessenger: invalid destination chain ID");
        require(warpMessage.originSenderAddress == address(this), "TeleporterMessenger: invalid origin sender address");
        require(_allowedRelayer(msg.sender, message.allowedRelayerAddresses), "TeleporterMessenger: unauthorized relayer");
        bytes32 source = warpMessage.sourceChainID;
        bytes32 messageID = calculateMessageID(source, here, message.messageNonce);
        require(relayerRewardAddresses[messageID] == address(0), "TeleporterMessenger: message already delivered");
        relayerRewardAddresses[messageID] = relayerRewardAddress;

        for (uint256 i = 0; i < message.receipts.length; i++) {
            _markReceipt(source, message.receipts[i]);
        }
        receiptQueues[source].push(TeleporterMessageReceipt(message.messageNonce, relayerRewardAddress));
        emit ReceiveCrossChainMessage(messageID, source, msg.sender, relayerRewardAddress, message);

        if (message.message.length > 0) {
            require(gasleft() >= message.requiredGasLimit, "TeleporterMessenger: insufficient gas");
            if (_execute(source, message)) {
                emit MessageExecuted(messageID, source);
            } else {
                receivedFailedMessageHashes[messageID] = keccak256(abi.encode(message));
                emit MessageExecutionFailed(messageID, source, message);
            }
        }
    }

    function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage calldata message)
        external
        receiverNonReentrant
    {
        bytes32 messageID = calculateMessageID(sourceBlockchainID, _blockchainID(), message.messageNonce);
        bytes32 hash = receivedFailedMessageHashes[messageID];
        require(hash != bytes32(0), "TeleporterMessenger: message not found");
        require(keccak256(abi.encode(message)) == hash, "TeleporterMessenger: invalid message hash");
        delete receivedFailedMessageHashes[messageID];
        require(_execute(sourceBlockchainID, message), "TeleporterMessenger: retry of message execution failed");
        emit MessageExecuted(messageID, sourceBlockchainID);
    }

    function redeemRelayerRewards(address feeTokenAddress) external {
        uint256 amount = relayerRewardAmounts[msg.sender][feeTokenAddress];
        require(amount > 0, "TeleporterMessenger: no reward to redeem");
        delete relayerRewardAmounts[msg.sender][feeTokenAddress];
        emit RelayerRewardsRedeemed(msg.sender, feeTokenAddress, amount);
        _call(feeTokenAddress, abi.encodeWithSelector(0xa9059cbb, msg.sender, amount)); // transfer
    }

    function getMessageHash(bytes32 messageID) external view returns (bytes32) {
        return sentMessageInfo[messageID].messageHash;
    }

    function messageReceived(bytes32 messageID) external view returns (bool) {
        return relayerRewardAddresses[messageID] != address(0);
    }

    function getRelayerRewardAddress(bytes32 messageID) external view returns (address) {
        require(relayerRewardAddresses[messageID] != address(0), "TeleporterMessenger: message not received");
        return relayerRewardAddresses[messageID];
    }

    function checkRelayerRewardAmount(address relayer, address feeTokenAddress) external view returns (uint256) {
        return relayerRewardAmounts[relayer][feeTokenAddress];
    }

    function getFeeInfo(bytes32 messageID) external view returns (address, uint256) {
        TeleporterFeeInfo memory fee = sentMessageInfo[messageID].feeInfo;
        return (fee.feeTokenAddress, fee.amount);
    }

    function getNextMessageID(bytes32 destinationBlockchainID) external view returns (bytes32) {
        bytes32 here = blockchainID;
        if (here == bytes32(0)) {
            here = WARP_MESSENGER.getBlockchainID();
        }
        return calculateMessageID(here, destinationBlockchainID, messageNonce);
    }

    function getReceiptQueueSize(bytes32 sourceBlockchainID) external view returns (uint256) {
        return receiptQueues[sourceBlockchainID].length - receiptQueueFirst[sourceBlockchainID];
    }

    function getReceiptAtIndex(bytes32 sourceBlockchainID, uint256 index)
        external
        view
        returns (TeleporterMessageReceipt memory)
    {
        uint256 at = receiptQueueFirst[sourceBlockchainID] + index;
        require(at < receiptQueues[sourceBlockchainID].length, "ReceiptQueue: index out of bounds");
        return receiptQueues[sourceBlockchainID][at];
    }

    function _send(TeleporterMessage memory message, TeleporterFeeInfo memory feeInfo) private returns (bytes32) {
        bytes32 messageID = calculateMessageID(_blockchainID(), message.destinationBlockchainID, message.messageNonce);
        bytes memory encoded = abi.encode(message);
        sentMessageInfo[messageID] = SentMessageInfo(keccak256(encoded), feeInfo);
        WARP_MESSENGER.sendWarpMessage(encoded);
        emit SendCrossChainMessage(messageID, message.destinationBlockchainID, message, feeInfo);
        return messageID;
    }

    // _takeFee moves the message's fee into the messenger and returns what arrived.
    function _takeFee(TeleporterFeeInfo calldata fee) private returns (uint256) {
        if (fee.amount == 0) {
            return 0;
        }
        require(fee.feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
        return _transferIn(fee.feeTokenAddress, fee.amount);
    }

    // _transferIn pulls amount of token from the caller and returns the balance gained, which a
    // token with transfer fees makes smaller than amount.
    function _transferIn(address token, uint256 amount) private returns (uint256) {
        uint256 before = IERC20Minimal(token).balanceOf(address(this));
        _call(token, abi.encodeWithSelector(0x23b872dd, msg.sender, address(this), amount)); // transferFrom
        return IERC20Minimal(token).balanceOf(address(this)) - before;
    }

    // _call calls an ERC-20 function and requires success, and true if anything is returned.
    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "SafeERC20: ERC20 operation did not succeed");
    }

    // _takeReceipts removes up to MAX_RECEIPTS_BATCH_SIZE receipts owed to chain, oldest first.
    function _takeReceipts(bytes32 chain) private returns (TeleporterMessageReceipt[] memory receipts) {
        uint256 first = receiptQueueFirst[chain];
        uint256 n = receiptQueues[chain].length - first;
        if (n > MAX_RECEIPTS_BATCH_SIZE) {
            n = MAX_RECEIPTS_BATCH_SIZE;
        }
        receipts = new TeleporterMessageReceipt[](n);
        for (uint256 i = 0; i < n; i++) {
            receipts[i] = receiptQueues[chain][first + i];
            delete receiptQueues[chain][first + i];
        }
        receiptQueueFirst[chain] = first + n;
    }

    // _markReceipt closes a message this chain sent to destination: its relayer earns its fee.
    function _markReceipt(bytes32 destination, TeleporterMessageReceipt memory receipt) private {
        bytes32 messageID = calculateMessageID(_blockchainID(), destination, receipt.receivedMessageNonce);
        SentMessageInfo memory info = sentMessageInfo[messageID];
        if (info.messageHash == bytes32(0)) {
            return; // already receipted
        }
        delete sentMessageInfo[messageID];
        if (info.feeInfo.amount > 0) {
            relayerRewardAmounts[receipt.relayerRewardAddress][info.feeInfo.feeTokenAddress] += info.feeInfo.amount;
        }
        emit ReceiptReceived(messageID, destination, receipt.relayerRewardAddress, info.feeInfo);
    }

    // _execute calls the receiver with the message's required gas; false if it failed or is no
    // contract.
    function _execute(bytes32 source, TeleporterMessage memory message) private returns (bool ok) {
        if (message.destinationAddress.code.length == 0) {
            return false;
        }
        (ok,) = message.destinationAddress.call{gas: message.requiredGasLimit}(
            abi.encodeCall(
                ITeleporterReceiver.receiveTeleporterMessage, (source, message.originSenderAddress, message.message)
            )
        );
    }

    function _allowedRelayer(address relayer, address[] memory allowed) private pure returns (bool) {
        if (allowed.length == 0) {
            return true;
        }
        for (uint256 i = 0; i < allowed.length; i++) {
            if (allowed[i] == relayer) {
                return true;
            }
        }
        return false;
    }

    function _blockchainID() private returns (bytes32 id) {
        id = blockchainID;
        if (id == bytes32(0)) {
            id = WARP_MESSENGER.getBlockchainID();
            blockchainID = id;
            emit BlockchainIDInitialized(id);
        }
    }
}
