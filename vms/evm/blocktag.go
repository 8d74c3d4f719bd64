package evm

import (
	"bytes"
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
)

// The block parameters of the eth_* methods: go-ethereum's rpc.BlockNumber
// and rpc.BlockNumberOrHash, plus the tag "accepted", an alias of
// "finalized" (l1-evm.md §1.1). go-ethereum's types do not know it.

// acceptedTag is the JSON of the tag that go-ethereum does not know, and
// finalizedTag the one it stands for.
var (
	acceptedTag  = []byte(`"accepted"`)
	finalizedTag = []byte(`"finalized"`)
)

// withAcceptedAlias returns data with the tag "accepted" read as
// "finalized".
func withAcceptedAlias(data []byte) []byte {
	if bytes.Equal(bytes.TrimSpace(data), acceptedTag) {
		return finalizedTag
	}
	return data
}

// blockNumber is a block number or tag: "earliest", "latest", "pending",
// "safe", "finalized", "accepted" or a hex number.
type blockNumber rpc.BlockNumber

// UnmarshalJSON decodes a tag or a hex number.
func (n *blockNumber) UnmarshalJSON(data []byte) error {
	var bn rpc.BlockNumber
	if err := bn.UnmarshalJSON(withAcceptedAlias(data)); err != nil {
		return err
	}
	*n = blockNumber(bn)
	return nil
}

// MarshalText encodes n as go-ethereum does: a tag or a hex number.
func (n blockNumber) MarshalText() ([]byte, error) { return rpc.BlockNumber(n).MarshalText() }

// blockNumberOrHash is a block tag, number or hash, or the object form
// {"blockNumber": …} / {"blockHash": …, "requireCanonical": …}.
type blockNumberOrHash struct {
	rpc.BlockNumberOrHash
}

// latestBlock is the block parameter's default.
func latestBlock() blockNumberOrHash {
	return blockNumberOrHash{rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)}
}

// orLatest returns *b, or latestBlock when b is nil.
func (b *blockNumberOrHash) orLatest() rpc.BlockNumberOrHash {
	if b == nil {
		return latestBlock().BlockNumberOrHash
	}
	return b.BlockNumberOrHash
}

// UnmarshalJSON decodes every form go-ethereum's rpc.BlockNumberOrHash
// takes, with "accepted" as well, with go-ethereum's error texts.
func (b *blockNumberOrHash) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return b.BlockNumberOrHash.UnmarshalJSON(withAcceptedAlias(data))
	}
	var obj struct {
		BlockNumber      *blockNumber `json:"blockNumber"`
		BlockHash        *common.Hash `json:"blockHash"`
		RequireCanonical bool         `json:"requireCanonical"`
	}
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return err
	}
	switch {
	case obj.BlockNumber != nil && obj.BlockHash != nil:
		return errBothNumberAndHash
	case obj.BlockNumber == nil && obj.BlockHash == nil:
		return errNeitherNumberNorHash
	}
	b.BlockNumberOrHash = rpc.BlockNumberOrHash{BlockHash: obj.BlockHash, RequireCanonical: obj.RequireCanonical}
	if obj.BlockNumber != nil {
		n := rpc.BlockNumber(*obj.BlockNumber)
		b.BlockNumber = &n
	}
	return nil
}

// MarshalJSON encodes b as go-ethereum's rpc.BlockNumberOrHash does.
func (b blockNumberOrHash) MarshalJSON() ([]byte, error) { return json.Marshal(b.BlockNumberOrHash) }
