package evm

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// FuzzTxArgs: any JSON the transaction arguments decode from, once the
// fields setDefaults fills are set, makes a transaction whose binary
// encoding decodes back to it (eth_fillTransaction's raw and tx agree).
func FuzzTxArgs(f *testing.F) {
	f.Add([]byte(`{"from":"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","to":"0x00000000000000000000000000000000000000ee","value":"0x1"}`))
	f.Add([]byte(`{"to":"0x00000000000000000000000000000000000000ee","gasPrice":"0x1000","accessList":[{"address":"0x00000000000000000000000000000000000000ee","storageKeys":["0x0000000000000000000000000000000000000000000000000000000000000001"]}]}`))
	f.Add([]byte(`{"input":"0x600760005560228060106000396000f3","maxFeePerGas":"0x2000","maxPriorityFeePerGas":"0x10","nonce":"0x9","gas":"0x5208","chainId":"0xa868"}`))
	f.Add([]byte(`{"data":"0x01","input":"0x01","gasPrice":"0x0"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var args txArgs
		if json.Unmarshal(b, &args) != nil {
			return
		}
		if args.GasPrice != nil && (args.MaxFeePerGas != nil || args.MaxPriorityFeePerGas != nil) {
			return // refused by setFeeDefaults
		}
		one := func(p **hexutil.Big) {
			if *p == nil {
				*p = (*hexutil.Big)(big.NewInt(1))
			}
		}
		if args.GasPrice == nil {
			one(&args.MaxFeePerGas)
			one(&args.MaxPriorityFeePerGas)
		}
		one(&args.Value)
		one(&args.ChainID)
		if args.Nonce == nil {
			args.Nonce = new(hexutil.Uint64)
		}
		if args.Gas == nil {
			args.Gas = new(hexutil.Uint64)
		}
		for _, v := range []*hexutil.Big{args.GasPrice, args.MaxFeePerGas, args.MaxPriorityFeePerGas, args.Value, args.ChainID} {
			if v != nil && (v.ToInt().Sign() < 0 || v.ToInt().BitLen() > 256) {
				return // hexutil.Big decodes at most 256 bits, never negative
			}
		}
		tx := args.toTx()
		raw, err := tx.MarshalBinary()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back := new(types.Transaction)
		if err := back.UnmarshalBinary(raw); err != nil {
			t.Fatalf("decode %x: %v", raw, err)
		}
		if back.Hash() != tx.Hash() {
			t.Fatalf("round trip changed the transaction: %x", raw)
		}
	})
}
