package exchange

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/storage/storagetest"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/exchange/api"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
)

// pinMoves is how many times TestBalanceReadsOneState spends its UTXO into a new one.
const pinMoves = 1000

// getBalance and getAllBalances read an address's UTXO index and the UTXOs it names from one
// state: while a UTXO of the address is spent into a new one of the same amount and owner over
// and over, each in one commit, the balance never changes; a torn read would find the index
// naming the spent UTXO and miss the new one. The number of moves bounds the test, not a clock.
func TestBalanceReadsOneState(t *testing.T) {
	t.Parallel()
	g := genesistest.Local(t)
	u := utxovmtest.NewUnit(t, genesis.LocalNetworkID, g.XChainID, g.XGenesis, storage.PrefixExchange,
		chains.Chain{ID: ids.Empty, Name: "P-Chain"}, "P", genesistest.VectorTime)
	vm, err := New(t.Context(), Factory{CortinaTime: time.Unix(1607144400, 0), TxFee: 1_000_000, CreateAssetTxFee: 1_000_000}, u.Context)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, vm.Close()) })
	s := &service{vm: vm}
	s.chain = address.Chain{Alias: chainAlias, IsChain: s.isThisChain, HRP: vm.hrp}

	cur := g.AVAX.UTXOs()[0]
	owner := owners(&cur)[0]
	addr, err := address.Format(chainAlias, vm.hrp, owner)
	require.NoError(t, err)
	balance := func() (uint64, error) {
		r, err := s.GetBalance(t.Context(), &api.GetBalanceArgs{Address: addr, AssetID: "AVAX", IncludePartial: true})
		if err != nil {
			return 0, err
		}
		return uint64(r.Balance), nil
	}
	want, err := balance()
	require.NoError(t, err)
	require.NotZero(t, want)

	storagetest.ReadsWhole(t, pinMoves, func(i int) {
		next := cur
		next.TxID = ids.ID{byte(i), byte(i >> 8), 0xee}
		b := vm.state.DB().NewBatch()
		defer b.Close()
		w := writer{b: b}
		require.NoError(t, w.deleteUTXO(&cur))
		require.NoError(t, w.putUTXO(&next))
		require.NoError(t, b.CommitUnsynced())
		cur = next
	}, func() error {
		got, err := balance()
		if err == nil && got != want {
			err = fmt.Errorf("getBalance %d, not %d", got, want)
		}
		return err
	})
}
