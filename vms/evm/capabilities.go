package evm

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// capabilities is eth_capabilities' answer, with go-ethereum's shape
// (internal/ethapi/capabilities.go, execution-apis PR 755): the head and,
// for each kind of historical data, whether it is served and from which
// block.
type capabilities struct {
	Head        capabilityHead     `json:"head"`
	State       capabilityResource `json:"state"`
	Tx          capabilityResource `json:"tx"`
	Logs        capabilityResource `json:"logs"`
	Receipts    capabilityResource `json:"receipts"`
	Blocks      capabilityResource `json:"blocks"`
	StateProofs capabilityResource `json:"stateproofs"`
}

type capabilityHead struct {
	Number hexutil.Uint64 `json:"number"`
	Hash   common.Hash    `json:"hash"`
}

// capabilityResource is one kind of data. go-ethereum adds a
// "deleteStrategy" for data pruned over a sliding window; this node prunes
// nothing, so it never has one.
type capabilityResource struct {
	Disabled    bool            `json:"disabled"`
	OldestBlock *hexutil.Uint64 `json:"oldestBlock,omitempty"`
}

// Capabilities is eth_capabilities. This node keeps everything from the
// genesis on: every state root (an archive on the hash scheme), every block
// with its receipts and transaction lookups, and serves logs of any range
// by scanning blooms; so every resource starts at block 0.
func (a *ethAPI) Capabilities() *capabilities {
	head := a.vm.currentHead()
	all := func() capabilityResource {
		zero := hexutil.Uint64(0)
		return capabilityResource{OldestBlock: &zero}
	}
	return &capabilities{
		Head:        capabilityHead{Number: hexutil.Uint64(head.NumberU64()), Hash: head.Hash()},
		State:       all(),
		Tx:          all(),
		Logs:        all(),
		Receipts:    all(),
		Blocks:      all(),
		StateProofs: all(),
	}
}
