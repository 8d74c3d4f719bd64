package acp99

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

//go:embed contracts/manager.json
var managerJSON []byte

// Compiled is ValidatorManager.sol as solc compiled it.
type Compiled struct {
	ABI abi.ABI
	// Creation is the creation bytecode, to which the constructor's argument (the owner) is
	// appended.
	Creation []byte
	// Runtime is the deployed code, for an L1 genesis `alloc` (see GenesisStorage).
	Runtime []byte
}

var contract = sync.OnceValues(func() (*Compiled, error) {
	var raw struct {
		ABI     json.RawMessage `json:"abi"`
		Bin     hexutil.Bytes   `json:"bin"`
		Runtime hexutil.Bytes   `json:"runtime"`
	}
	if err := json.Unmarshal(managerJSON, &raw); err != nil {
		return nil, fmt.Errorf("read manager.json: %w", err)
	}
	a, err := abi.JSON(strings.NewReader(string(raw.ABI)))
	if err != nil {
		return nil, fmt.Errorf("read manager.json's ABI: %w", err)
	}
	return &Compiled{ABI: a, Creation: raw.Bin, Runtime: raw.Runtime}, nil
})

// Contract returns the compiled manager. It panics if manager.json, built into the binary and
// checked by the package's tests, does not parse.
func Contract() *Compiled {
	c, err := contract()
	if err != nil {
		panic(err)
	}
	return c
}

// GenesisStorage returns the storage a genesis `alloc` of Runtime needs for owner to own the
// manager: slot 0 holds the owner, as the constructor would have written it.
func GenesisStorage(owner common.Address) map[common.Hash]common.Hash {
	return map[common.Hash]common.Hash{{}: common.BytesToHash(owner.Bytes())}
}
