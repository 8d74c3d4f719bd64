package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// maxStorageSlots is how many slots one eth_getStorageValues may read
// (go-ethereum's limit).
const maxStorageSlots = 1024

// GetStorageValues is eth_getStorageValues: the values of several slots of
// several accounts in the state after the named block (latest by
// default), each 32 bytes, in the order asked, at most maxStorageSlots.
func (a *ethAPI) GetStorageValues(_ context.Context, requests map[common.Address][]common.Hash, bnh *blockNumberOrHash) (map[common.Address][]hexutil.Bytes, error) {
	total := 0
	for _, keys := range requests {
		total += len(keys)
		if total > maxStorageSlots {
			return nil, tooManySlotsError(maxStorageSlots)
		}
	}
	if total == 0 {
		return nil, errEmptyStorageRequest
	}
	st, _, err := a.vm.stateOf(bnh.orLatest())
	if err != nil {
		return nil, err
	}
	out := make(map[common.Address][]hexutil.Bytes, len(requests))
	for addr, keys := range requests {
		vals := make([]hexutil.Bytes, len(keys))
		for i, k := range keys {
			v := st.GetState(addr, k)
			vals[i] = v[:]
		}
		out[addr] = vals
	}
	return out, nil
}
