package evm

import (
	"encoding/json"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// Limits of a log query (go-ethereum's eth/filters: LOG0 to LOG4 give at
// most 4 topic positions).
const (
	maxTopics    = 4
	maxSubTopics = 1000
)

// filterCriteria is the argument of eth_getLogs, eth_newFilter and the logs
// subscription: go-ethereum's FilterCriteria, with the "accepted" tag.
//
// Addresses match if any matches (none: every address). Topics[i] lists
// the values allowed at position i (empty: any).
type filterCriteria struct {
	BlockHash *common.Hash
	// FromBlock and ToBlock are nil when absent, which means latest.
	FromBlock *rpc.BlockNumber
	ToBlock   *rpc.BlockNumber
	Addresses []common.Address
	Topics    [][]common.Hash
}

// UnmarshalJSON decodes a filter object as go-ethereum does, with its error
// texts: "address" is one address or a list; "topics" is a list whose items
// are null, a topic, or a list of topics (with null in the list meaning
// any).
func (c *filterCriteria) UnmarshalJSON(data []byte) error {
	var raw struct {
		BlockHash *common.Hash `json:"blockHash"`
		FromBlock *blockNumber `json:"fromBlock"`
		ToBlock   *blockNumber `json:"toBlock"`
		Addresses any          `json:"address"`
		Topics    []any        `json:"topics"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*c = filterCriteria{Addresses: []common.Address{}}
	if raw.BlockHash != nil {
		if raw.FromBlock != nil || raw.ToBlock != nil {
			return errBothHashAndRange
		}
		c.BlockHash = raw.BlockHash
	}
	if raw.FromBlock != nil {
		n := rpc.BlockNumber(*raw.FromBlock)
		c.FromBlock = &n
	}
	if raw.ToBlock != nil {
		n := rpc.BlockNumber(*raw.ToBlock)
		c.ToBlock = &n
	}
	switch addrs := raw.Addresses.(type) {
	case nil:
	case string:
		a, err := decodeAddress(addrs)
		if err != nil {
			return invalidAddressError(err)
		}
		c.Addresses = []common.Address{a}
	case []any:
		for i, v := range addrs {
			s, ok := v.(string)
			if !ok {
				return nonStringAddressError(i)
			}
			a, err := decodeAddress(s)
			if err != nil {
				return addressAtIndexError(i, err)
			}
			c.Addresses = append(c.Addresses, a)
		}
	default:
		return errInvalidAddresses
	}
	if len(raw.Topics) > maxTopics {
		return errExceedMaxTopics
	}
	if len(raw.Topics) > 0 {
		c.Topics = make([][]common.Hash, len(raw.Topics))
	}
	for i, t := range raw.Topics {
		switch t := t.(type) {
		case nil: // any topic
		case string:
			h, err := decodeTopic(t)
			if err != nil {
				return err
			}
			c.Topics[i] = []common.Hash{h}
		case []any:
			if len(t) > maxSubTopics {
				return errExceedMaxTopics
			}
			for _, v := range t {
				if v == nil {
					c.Topics[i] = nil // null in the list: any topic
					break
				}
				s, ok := v.(string)
				if !ok {
					return errInvalidTopic
				}
				h, err := decodeTopic(s)
				if err != nil {
					return err
				}
				c.Topics[i] = append(c.Topics[i], h)
			}
		default:
			return errInvalidTopic
		}
	}
	return nil
}

// MarshalJSON encodes c in the form UnmarshalJSON reads, as ethclient
// sends it.
func (c filterCriteria) MarshalJSON() ([]byte, error) {
	m := map[string]any{"address": c.Addresses}
	if c.BlockHash != nil {
		m["blockHash"] = *c.BlockHash
	}
	if c.FromBlock != nil {
		m["fromBlock"] = *c.FromBlock
	}
	if c.ToBlock != nil {
		m["toBlock"] = *c.ToBlock
	}
	topics := make([]any, len(c.Topics))
	for i, t := range c.Topics {
		if len(t) > 0 {
			topics[i] = t
		}
	}
	m["topics"] = topics
	return json.Marshal(m)
}

func decodeAddress(s string) (common.Address, error) {
	b, err := hexutil.Decode(s)
	if err == nil && len(b) != common.AddressLength {
		err = hexLengthError(len(b), common.AddressLength, "address")
	}
	return common.BytesToAddress(b), err
}

func decodeTopic(s string) (common.Hash, error) {
	b, err := hexutil.Decode(s)
	if err == nil && len(b) != common.HashLength {
		err = hexLengthError(len(b), common.HashLength, "topic")
	}
	return common.BytesToHash(b), err
}

// matchesAddressAndTopics reports whether l has one of c's addresses (any
// if none) and c's topics.
func (c *filterCriteria) matchesAddressAndTopics(l *types.Log) bool {
	if len(c.Addresses) > 0 && !slices.Contains(c.Addresses, l.Address) {
		return false
	}
	if len(c.Topics) > len(l.Topics) {
		return false
	}
	for i, allowed := range c.Topics {
		if len(allowed) > 0 && !slices.Contains(allowed, l.Topics[i]) {
			return false
		}
	}
	return true
}

// mayContain reports whether a block with bloom may hold a matching log.
func (c *filterCriteria) mayContain(bloom types.Bloom) bool {
	if len(c.Addresses) > 0 && !slices.ContainsFunc(c.Addresses, func(a common.Address) bool { return types.BloomLookup(bloom, a) }) {
		return false
	}
	for _, allowed := range c.Topics {
		if len(allowed) > 0 && !slices.ContainsFunc(allowed, func(h common.Hash) bool { return types.BloomLookup(bloom, h) }) {
			return false
		}
	}
	return true
}
