// Package genesistest gives tests the local genesis the X- and P-Chain VM tests run (Local), and
// reads what it puts on the P-Chain in the forms the chain's API answers with, so that the VM's
// tests and the node's reference-client tests expect the same.
package genesistest

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// VectorTime is the golden vectors' fixed time (reference/platform-exchange.md §8.3): the time
// Local's genesis is built at and the VM tests' fake clocks start from.
var VectorTime = time.Unix(1767225600, 0)

// local is the local network's genesis at VectorTime, built once per test binary.
var local = sync.OnceValues(func() (*genesis.Genesis, error) {
	cfg, err := genesis.Local()
	if err != nil {
		return nil, err
	}
	return genesis.Build(cfg, VectorTime)
})

// Local returns the local network's genesis built at VectorTime. The tests of a binary share it:
// they must not modify it.
func Local(tb testing.TB) *genesis.Genesis {
	tb.Helper()
	g, err := local()
	require.NoError(tb, err)
	return g
}

// Stake is one stake output of a genesis validator: the bytes platform.getStake returns for it
// (the codec version, then the TransferableOutput) and its amount.
type Stake struct {
	Bytes  []byte
	Amount uint64
}

// Stakes returns the stake outputs of g's Primary Network validators by owner address, and the ID
// of the last validator tx.
func Stakes(t testing.TB, g *genesis.Genesis) (map[ids.ShortID][]Stake, ids.ID) {
	t.Helper()
	stakes := map[ids.ShortID][]Stake{}
	var last ids.ID
	for _, tx := range g.P.Validators {
		last = tx.ID()
		v, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		require.True(t, ok)
		for i := range v.Stake {
			o := &v.Stake[i]
			out, ok := o.Out.(*secp256k1fx.TransferOutput)
			if lock, isLock := o.Out.(*txs.LockOut); isLock {
				out, ok = lock.Out, true
			}
			require.True(t, ok)
			p := codec.NewPacker(nil)
			p.Version()
			o.Marshal(p)
			b, err := p.Bytes()
			require.NoError(t, err)
			for _, a := range out.Addrs {
				stakes[a] = append(stakes[a], Stake{Bytes: b, Amount: out.Amount})
			}
		}
	}
	require.NotEmpty(t, stakes)
	return stakes, last
}
