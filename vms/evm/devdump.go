package evm

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/holiman/uint256"
)

// anvil_dumpState and anvil_loadState exchange anvil's state dump: JSON, gzipped, as hex. A dump
// holds the last block's environment and every account with its nonce, balance, code and
// storage; the accounts are found through the trie's key preimages, which a chain records while
// its developer methods are on (so an account last touched before they were on is missing from
// a dump). Blocks and transactions are not dumped: "blocks" and "transactions" are empty, as
// anvil's are for a state with no history kept.

// dumpBlock is a dump's "block": the last block's environment, with anvil's field names.
type dumpBlock struct {
	Number      hexutil.Uint64 `json:"number"`
	Beneficiary common.Address `json:"beneficiary"`
	Timestamp   hexutil.Uint64 `json:"timestamp"`
	GasLimit    uint64         `json:"gas_limit"`
	BaseFee     *big.Int       `json:"basefee"`
	Difficulty  hexutil.Uint64 `json:"difficulty"`
	PrevRandao  common.Hash    `json:"prevrandao"`
}

// dumpAccount is one account of a dump.
type dumpAccount struct {
	Nonce   uint64                      `json:"nonce"`
	Balance *hexutil.U256               `json:"balance"`
	Code    hexutil.Bytes               `json:"code"`
	Storage map[common.Hash]common.Hash `json:"storage"`
}

// stateDump is anvil's dump (its SerializableState).
type stateDump struct {
	Block            *dumpBlock                     `json:"block,omitempty"`
	Accounts         map[common.Address]dumpAccount `json:"accounts"`
	BestBlockNumber  *hexutil.Uint64                `json:"best_block_number,omitempty"`
	Blocks           []json.RawMessage              `json:"blocks"`
	Transactions     []json.RawMessage              `json:"transactions"`
	HistoricalStates json.RawMessage                `json:"historical_states"`
}

// errBadDump is anvil's answer for a blob that is not a state dump.
var errBadDump = invalidParams("Failed to decode state dump")

// dumpState returns the state after the last accepted block, edits included, as anvil's dump.
func (vm *VM) dumpState(context.Context) (hexutil.Bytes, error) {
	head := vm.currentHead()
	st, err := vm.stateOfBlock(head)
	if err != nil {
		return nil, err
	}
	raw := st.RawDump(&state.DumpConfig{OnlyWithAddresses: true})
	best := hexutil.Uint64(head.NumberU64())
	d := stateDump{
		Block: &dumpBlock{
			Number: hexutil.Uint64(head.NumberU64()), Beneficiary: head.Coinbase(), Timestamp: hexutil.Uint64(head.Time()),
			GasLimit: head.GasLimit(), BaseFee: head.BaseFee(),
		},
		Accounts:         make(map[common.Address]dumpAccount, len(raw.Accounts)),
		BestBlockNumber:  &best,
		Blocks:           []json.RawMessage{},
		Transactions:     []json.RawMessage{},
		HistoricalStates: json.RawMessage("null"),
	}
	for _, a := range raw.Accounts {
		if a.Address == nil {
			continue
		}
		balance, ok := new(big.Int).SetString(a.Balance, 10)
		if !ok {
			return nil, fmt.Errorf("dump account %s: balance %q", a.Address, a.Balance)
		}
		acc := dumpAccount{Nonce: a.Nonce, Balance: (*hexutil.U256)(uint256.MustFromBig(balance)), Code: a.Code, Storage: make(map[common.Hash]common.Hash, len(a.Storage))}
		if acc.Code == nil {
			acc.Code = hexutil.Bytes{}
		}
		for k, v := range a.Storage {
			acc.Storage[k] = common.HexToHash(v)
		}
		d.Accounts[*a.Address] = acc
	}
	js, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(js); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// loadState merges the accounts of a dump (gzipped or not) into the state after the last
// accepted block, as one state edit; a blob that is not a dump changes nothing.
func (vm *VM) loadState(ctx context.Context, blob []byte) error {
	js := blob
	if len(blob) >= 2 && blob[0] == 0x1f && blob[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(blob))
		if err != nil {
			return errBadDump
		}
		if js, err = io.ReadAll(zr); err != nil {
			return errBadDump
		}
	}
	var d stateDump
	if err := json.Unmarshal(js, &d); err != nil || d.Accounts == nil {
		return errBadDump
	}
	return vm.devEdit(ctx, "loadState", map[string]int{"accounts": len(d.Accounts)}, func(st *state.StateDB) error {
		for addr, a := range d.Accounts {
			st.SetNonce(addr, a.Nonce, tracing.NonceChangeUnspecified)
			if a.Balance != nil {
				st.SetBalance(addr, (*uint256.Int)(a.Balance), tracing.BalanceChangeUnspecified)
			}
			st.SetCode(addr, a.Code, tracing.CodeChangeUnspecified)
			for k, v := range a.Storage {
				st.SetState(addr, k, v)
			}
		}
		return nil
	})
}
