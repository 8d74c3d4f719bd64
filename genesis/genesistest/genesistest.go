// Package genesistest reads, for tests, what the local genesis puts on the P-Chain in the forms
// the chain's API answers with, so that the VM's tests and the node's reference-client tests
// expect the same.
package genesistest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

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
