package l1validators

import "github.com/cornice-node/cornice/ids"

// GetCurrentValidatorsArgs are the params of validators.getCurrentValidators (reference/l1-evm.md
// §2.2).
type GetCurrentValidatorsArgs struct {
	// NodeIDs filters the result. Missing, null or empty: every validator. IDs of nodes that are
	// not validators are ignored.
	NodeIDs []ids.NodeID `json:"nodeIDs"`
}

// GetCurrentValidatorsReply is the result of validators.getCurrentValidators (reference/l1-evm.md
// §2.3). Validators is never nil, so an empty set is sent as [].
type GetCurrentValidatorsReply struct {
	Validators []CurrentValidator `json:"validators"`
}

// CurrentValidator is one validator in the reply, with the reference's keys in the reference's
// order (reference/l1-evm.md §2.3). The integers are JSON numbers.
type CurrentValidator struct {
	ValidationID   ids.ID     `json:"validationID"`
	NodeID         ids.NodeID `json:"nodeID"`
	Weight         uint64     `json:"weight"`
	StartTimestamp uint64     `json:"startTimestamp"`
	IsActive       bool       `json:"isActive"`
	IsL1Validator  bool       `json:"isL1Validator"`
	IsConnected    bool       `json:"isConnected"`
	// UptimePercentage is 100 × up / (now − start), from 0 to 100; 100 when no time has passed.
	UptimePercentage float32 `json:"uptimePercentage"`
	// UptimeSeconds is the up time in whole seconds, rounded down.
	UptimeSeconds uint64 `json:"uptimeSeconds"`
}
