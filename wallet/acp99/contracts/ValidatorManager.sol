// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.30;

// ValidatorManager: a minimal proof-of-authority validator manager that follows ACP-99 (the
// function names, arguments and events of ava-labs/icm-contracts' ValidatorManager), written
// for cornice. The owner alone initiates registrations, weight changes and removals; anyone
// may deliver the P-Chain's answers. The messages it sends and reads are the ACP-77 messages,
// encoded as the P-Chain's codec writes them (big-endian, codec version 0, then a type ID).

interface IWarpMessenger {
    struct WarpMessage {
        bytes32 sourceChainID;
        address originSenderAddress;
        bytes payload;
    }

    function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
    function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory message, bool valid);
    function getBlockchainID() external view returns (bytes32 blockchainID);
}

struct PChainOwner {
    uint32 threshold;
    address[] addresses;
}

struct InitialValidator {
    bytes nodeID;
    bytes blsPublicKey;
    uint64 weight;
}

struct ConversionData {
    bytes32 subnetID;
    bytes32 validatorManagerBlockchainID;
    address validatorManagerAddress;
    InitialValidator[] initialValidators;
}

enum ValidatorStatus {
    Unknown,
    PendingAdded,
    Active,
    PendingRemoved,
    Completed,
    Invalidated
}

struct Validator {
    ValidatorStatus status;
    bytes nodeID;
    uint64 startingWeight;
    uint64 sentNonce;
    uint64 receivedNonce;
    uint64 weight;
    uint64 startTime;
    uint64 endTime;
}

contract ValidatorManager {
    IWarpMessenger private constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
    // How long a registration message stays valid: the P-Chain accepts at most 24 hours ahead.
    uint64 public constant REGISTRATION_EXPIRY_LENGTH = 12 hours;

    uint16 private constant CODEC_VERSION = 0;
    uint32 private constant SUBNET_TO_L1_CONVERSION = 0;
    uint32 private constant REGISTER_L1_VALIDATOR = 1;
    uint32 private constant L1_VALIDATOR_REGISTRATION = 2;
    uint32 private constant L1_VALIDATOR_WEIGHT = 3;

    address public owner;
    bytes32 public subnetID;
    bool public initialized;
    uint64 public l1TotalWeight;

    mapping(bytes32 => Validator) private _validators;
    mapping(bytes => bytes32) private _activeValidators;
    // The RegisterL1Validator message of each validation, which the P-Chain needs as the
    // justification of its L1ValidatorRegistration(false).
    mapping(bytes32 => bytes) private _registrationMessages;

    event RegisteredInitialValidator(bytes32 indexed validationID, bytes20 indexed nodeID, uint64 weight);
    event InitiatedValidatorRegistration(
        bytes32 indexed validationID,
        bytes20 indexed nodeID,
        bytes32 registrationMessageID,
        uint64 registrationExpiry,
        uint64 weight
    );
    event CompletedValidatorRegistration(bytes32 indexed validationID, uint64 weight);
    event InitiatedValidatorRemoval(
        bytes32 indexed validationID, bytes32 validatorWeightMessageID, uint64 weight, uint64 endTime
    );
    event CompletedValidatorRemoval(bytes32 indexed validationID);
    event InitiatedValidatorWeightUpdate(
        bytes32 indexed validationID, uint64 nonce, bytes32 weightUpdateMessageID, uint64 weight
    );
    event CompletedValidatorWeightUpdate(bytes32 indexed validationID, uint64 nonce, uint64 weight);

    error Unauthorized(address sender);
    error AlreadyInitialized();
    error NotInitialized();
    error InvalidWarpMessage();
    error InvalidWarpSourceChainID(bytes32 sourceChainID);
    error InvalidWarpOriginSenderAddress(address senderAddress);
    error InvalidMessageLength(uint32 actual, uint32 expected);
    error InvalidCodecID(uint16 id);
    error InvalidMessageType();
    error InvalidConversionID(bytes32 expected, bytes32 actual);
    error InvalidBlockchainID(bytes32 blockchainID);
    error InvalidManagerAddress(address manager);
    error InvalidNodeID(bytes nodeID);
    error InvalidBLSKeyLength(uint256 length);
    error InvalidPChainOwnerThreshold(uint256 threshold, uint256 addressesLength);
    error NodeAlreadyRegistered(bytes nodeID);
    error InvalidValidationID(bytes32 validationID);
    error InvalidValidatorStatus(ValidatorStatus status);
    error InvalidNonce(uint64 nonce);
    error InvalidWeight(uint64 weight);

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    // The owner is set by the constructor, or by the L1's genesis: a genesis `alloc` of this
    // contract's runtime code stores the owner in slot 0.
    constructor(address initialOwner) {
        owner = initialOwner;
    }

    function getValidator(bytes32 validationID) external view returns (Validator memory) {
        return _validators[validationID];
    }

    function getNodeValidationID(bytes calldata nodeID) external view returns (bytes32) {
        return _activeValidators[nodeID];
    }

    function registrationMessage(bytes32 validationID) external view returns (bytes memory) {
        return _registrationMessages[validationID];
    }

    // initializeValidatorSet registers the conversion's validators, once the P-Chain's
    // SubnetToL1Conversion message proves that conversionData is what the subnet became.
    function initializeValidatorSet(ConversionData calldata conversionData, uint32 messageIndex) external {
        if (initialized) revert AlreadyInitialized();
        if (conversionData.validatorManagerBlockchainID != WARP.getBlockchainID()) {
            revert InvalidBlockchainID(conversionData.validatorManagerBlockchainID);
        }
        if (conversionData.validatorManagerAddress != address(this)) {
            revert InvalidManagerAddress(conversionData.validatorManagerAddress);
        }
        bytes memory m = _pChainMessage(messageIndex);
        _expectHeader(m, SUBNET_TO_L1_CONVERSION, 38);
        bytes32 conversionID = _readBytes32(m, 6);

        bytes memory data = abi.encodePacked(
            CODEC_VERSION,
            conversionData.subnetID,
            conversionData.validatorManagerBlockchainID,
            uint32(20),
            conversionData.validatorManagerAddress,
            uint32(conversionData.initialValidators.length)
        );
        uint64 total;
        for (uint32 i = 0; i < conversionData.initialValidators.length; i++) {
            InitialValidator calldata v = conversionData.initialValidators[i];
            if (v.blsPublicKey.length != 48) revert InvalidBLSKeyLength(v.blsPublicKey.length);
            data = abi.encodePacked(data, uint32(v.nodeID.length), v.nodeID, v.blsPublicKey, v.weight);
            bytes32 validationID = sha256(abi.encodePacked(conversionData.subnetID, i));
            if (_activeValidators[v.nodeID] != bytes32(0)) revert NodeAlreadyRegistered(v.nodeID);
            _activeValidators[v.nodeID] = validationID;
            Validator storage val = _validators[validationID];
            val.status = ValidatorStatus.Active;
            val.nodeID = v.nodeID;
            val.startingWeight = v.weight;
            val.weight = v.weight;
            val.startTime = uint64(block.timestamp);
            total += v.weight;
            emit RegisteredInitialValidator(validationID, _nodeID20(v.nodeID), v.weight);
        }
        if (sha256(data) != conversionID) revert InvalidConversionID(conversionID, sha256(data));
        subnetID = conversionData.subnetID;
        l1TotalWeight = total;
        initialized = true;
    }

    // initiateValidatorRegistration sends the RegisterL1Validator message that a
    // RegisterL1ValidatorTx carries to the P-Chain.
    function initiateValidatorRegistration(
        bytes memory nodeID,
        bytes memory blsPublicKey,
        PChainOwner memory remainingBalanceOwner,
        PChainOwner memory disableOwner,
        uint64 weight
    ) external onlyOwner returns (bytes32 validationID) {
        if (!initialized) revert NotInitialized();
        if (nodeID.length != 20 || bytes20(nodeID) == bytes20(0)) revert InvalidNodeID(nodeID);
        if (blsPublicKey.length != 48) revert InvalidBLSKeyLength(blsPublicKey.length);
        if (weight == 0) revert InvalidWeight(weight);
        _checkOwner(remainingBalanceOwner);
        _checkOwner(disableOwner);
        if (_activeValidators[nodeID] != bytes32(0)) revert NodeAlreadyRegistered(nodeID);

        uint64 expiry = uint64(block.timestamp) + REGISTRATION_EXPIRY_LENGTH;
        bytes memory m = abi.encodePacked(
            CODEC_VERSION, REGISTER_L1_VALIDATOR, subnetID, uint32(nodeID.length), nodeID, blsPublicKey, expiry
        );
        m = abi.encodePacked(m, _packOwner(remainingBalanceOwner), _packOwner(disableOwner), weight);
        validationID = sha256(m);
        if (_validators[validationID].status != ValidatorStatus.Unknown) revert InvalidValidationID(validationID);
        bytes32 messageID = WARP.sendWarpMessage(m);

        _activeValidators[nodeID] = validationID;
        _registrationMessages[validationID] = m;
        Validator storage v = _validators[validationID];
        v.status = ValidatorStatus.PendingAdded;
        v.nodeID = nodeID;
        v.startingWeight = weight;
        v.weight = weight;
        l1TotalWeight += weight;
        emit InitiatedValidatorRegistration(validationID, bytes20(nodeID), messageID, expiry, weight);
    }

    // resendRegisterValidatorMessage sends a pending registration's message again, so that it
    // can be signed by the L1's validators as they are now.
    function resendRegisterValidatorMessage(bytes32 validationID) external {
        if (_validators[validationID].status != ValidatorStatus.PendingAdded) {
            revert InvalidValidatorStatus(_validators[validationID].status);
        }
        WARP.sendWarpMessage(_registrationMessages[validationID]);
    }

    // completeValidatorRegistration reads the P-Chain's L1ValidatorRegistration(true).
    function completeValidatorRegistration(uint32 messageIndex) external returns (bytes32 validationID) {
        bool registered;
        (validationID, registered) = _registrationAnswer(messageIndex);
        if (!registered) revert InvalidMessageType();
        Validator storage v = _validators[validationID];
        if (v.status != ValidatorStatus.PendingAdded) revert InvalidValidatorStatus(v.status);
        v.status = ValidatorStatus.Active;
        v.startTime = uint64(block.timestamp);
        emit CompletedValidatorRegistration(validationID, v.weight);
    }

    // initiateValidatorWeightUpdate sends the L1ValidatorWeight message that a
    // SetL1ValidatorWeightTx carries to the P-Chain.
    function initiateValidatorWeightUpdate(bytes32 validationID, uint64 newWeight)
        external
        onlyOwner
        returns (uint64 nonce, bytes32 messageID)
    {
        if (newWeight == 0) revert InvalidWeight(newWeight);
        Validator storage v = _validators[validationID];
        if (v.status != ValidatorStatus.Active) revert InvalidValidatorStatus(v.status);
        l1TotalWeight = l1TotalWeight - v.weight + newWeight;
        v.weight = newWeight;
        (nonce, messageID) = _sendWeight(validationID, v, newWeight);
        emit InitiatedValidatorWeightUpdate(validationID, nonce, messageID, newWeight);
    }

    // completeValidatorWeightUpdate reads the P-Chain's L1ValidatorWeight acknowledgement.
    function completeValidatorWeightUpdate(uint32 messageIndex) external returns (bytes32 validationID, uint64 nonce) {
        bytes memory m = _pChainMessage(messageIndex);
        _expectHeader(m, L1_VALIDATOR_WEIGHT, 54);
        validationID = _readBytes32(m, 6);
        nonce = _readUint64(m, 38);
        uint64 weight = _readUint64(m, 46);
        Validator storage v = _validators[validationID];
        if (v.status != ValidatorStatus.Active) revert InvalidValidatorStatus(v.status);
        if (nonce > v.sentNonce || (v.receivedNonce != 0 && nonce <= v.receivedNonce)) revert InvalidNonce(nonce);
        v.receivedNonce = nonce;
        emit CompletedValidatorWeightUpdate(validationID, nonce, weight);
    }

    // initiateValidatorRemoval sends the L1ValidatorWeight message with weight 0.
    function initiateValidatorRemoval(bytes32 validationID) external onlyOwner {
        Validator storage v = _validators[validationID];
        if (v.status != ValidatorStatus.Active) revert InvalidValidatorStatus(v.status);
        l1TotalWeight -= v.weight;
        v.status = ValidatorStatus.PendingRemoved;
        v.endTime = uint64(block.timestamp);
        (, bytes32 messageID) = _sendWeight(validationID, v, 0);
        emit InitiatedValidatorRemoval(validationID, messageID, v.weight, v.endTime);
    }

    // completeValidatorRemoval reads the P-Chain's L1ValidatorRegistration(false): the
    // validation is over (removed, or never registered and expired).
    function completeValidatorRemoval(uint32 messageIndex) external returns (bytes32 validationID) {
        bool registered;
        (validationID, registered) = _registrationAnswer(messageIndex);
        if (registered) revert InvalidMessageType();
        Validator storage v = _validators[validationID];
        if (v.status == ValidatorStatus.PendingRemoved) {
            v.status = ValidatorStatus.Completed;
        } else if (v.status == ValidatorStatus.PendingAdded) {
            l1TotalWeight -= v.weight;
            v.status = ValidatorStatus.Invalidated;
        } else {
            revert InvalidValidatorStatus(v.status);
        }
        delete _activeValidators[v.nodeID];
        emit CompletedValidatorRemoval(validationID);
    }

    function _sendWeight(bytes32 validationID, Validator storage v, uint64 weight)
        private
        returns (uint64 nonce, bytes32 messageID)
    {
        nonce = ++v.sentNonce;
        messageID = WARP.sendWarpMessage(abi.encodePacked(CODEC_VERSION, L1_VALIDATOR_WEIGHT, validationID, nonce, weight));
    }

    function _registrationAnswer(uint32 messageIndex) private view returns (bytes32 validationID, bool registered) {
        bytes memory m = _pChainMessage(messageIndex);
        _expectHeader(m, L1_VALIDATOR_REGISTRATION, 39);
        validationID = _readBytes32(m, 6);
        uint8 b = uint8(m[38]);
        if (b > 1) revert InvalidMessageType();
        registered = b == 1;
    }

    // _pChainMessage returns the payload of the verified warp message at messageIndex, which
    // must come from the P-Chain itself (zero chain ID, zero sender).
    function _pChainMessage(uint32 messageIndex) private view returns (bytes memory) {
        (IWarpMessenger.WarpMessage memory w, bool valid) = WARP.getVerifiedWarpMessage(messageIndex);
        if (!valid) revert InvalidWarpMessage();
        if (w.sourceChainID != bytes32(0)) revert InvalidWarpSourceChainID(w.sourceChainID);
        if (w.originSenderAddress != address(0)) revert InvalidWarpOriginSenderAddress(w.originSenderAddress);
        return w.payload;
    }

    function _expectHeader(bytes memory m, uint32 typeID, uint32 length) private pure {
        if (m.length != length) revert InvalidMessageLength(uint32(m.length), length);
        uint16 codec = uint16(uint8(m[0])) << 8 | uint16(uint8(m[1]));
        if (codec != CODEC_VERSION) revert InvalidCodecID(codec);
        uint32 t;
        for (uint256 i = 2; i < 6; i++) {
            t = t << 8 | uint32(uint8(m[i]));
        }
        if (t != typeID) revert InvalidMessageType();
    }

    function _readBytes32(bytes memory m, uint256 offset) private pure returns (bytes32 r) {
        assembly {
            r := mload(add(add(m, 32), offset))
        }
    }

    function _readUint64(bytes memory m, uint256 offset) private pure returns (uint64) {
        return uint64(bytes8(_readBytes32(m, offset)));
    }

    function _checkOwner(PChainOwner memory o) private pure {
        if (o.threshold > o.addresses.length || (o.threshold == 0 && o.addresses.length != 0)) {
            revert InvalidPChainOwnerThreshold(o.threshold, o.addresses.length);
        }
    }

    function _packOwner(PChainOwner memory o) private pure returns (bytes memory b) {
        b = abi.encodePacked(o.threshold, uint32(o.addresses.length));
        for (uint256 i = 0; i < o.addresses.length; i++) {
            b = abi.encodePacked(b, o.addresses[i]);
        }
    }

    function _nodeID20(bytes memory nodeID) private pure returns (bytes20) {
        return bytes20(nodeID);
    }
}
