package wallet

import (
	"bytes"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
)

// TestCreateL1ChainIDInUse: a new L1 with the EVM chain ID of the C-Chain or of another L1 is
// refused before any tx, unless AllowSharedChainID, which makes it and says with whom it shares
// the ID; the same L1 again is reused, not refused (issue #17 §3).
func TestCreateL1ChainIDInUse(t *testing.T) {
	client, key, genesisFor := startL1Test(t)
	ctx := t.Context()
	genesis := func(chainID, balance string) []byte {
		// A different alloc balance makes a different genesis with the same chain ID.
		return bytes.Replace(genesisFor(chainID), []byte(`"0x52B7D2DCC80CD2E4000000"`), []byte(`"`+balance+`"`), 1)
	}
	req := func(g []byte) L1Request {
		return L1Request{Genesis: g, Name: "l1", Balance: DefaultL1Balance, Weight: DefaultL1Weight}
	}
	const wait = time.Minute
	clk := clock.Real{}
	p, err := NewP(ctx, client, key, clk)
	require.NoError(t, err)
	utxos, err := p.UTXOs(ctx)
	require.NoError(t, err)

	_, err = CreateL1(ctx, client, key, req(genesis("43112", "0x1")), wait, clk)
	require.ErrorIs(t, err, ErrChainIDInUse)
	require.EqualError(t, err, "EVM chain ID already in use: 43112 is the chain ID of the C-Chain, so a transaction signed for one would be valid on the other")
	after, err := p.UTXOs(ctx)
	require.NoError(t, err)
	require.Equal(t, utxos, after, "nothing was paid")

	first, err := CreateL1(ctx, client, key, req(genesis("77201", "0x1")), wait, clk)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(77201), first.ChainID)
	require.Empty(t, first.SharedWith)
	again, err := CreateL1(ctx, client, key, req(genesis("77201", "0x1")), wait, clk)
	require.NoError(t, err)
	require.True(t, again.Reused)

	twin := req(genesis("77201", "0x2"))
	_, err = CreateL1(ctx, client, key, twin, wait, clk)
	require.EqualError(t, err, "EVM chain ID already in use: 77201 is the chain ID of L1 chain "+first.BlockchainID.String()+" (l1), so a transaction signed for one would be valid on the other")

	twin.AllowSharedChainID = true
	res, err := CreateL1(ctx, client, key, twin, wait, clk)
	require.NoError(t, err)
	require.False(t, res.Reused)
	require.NotEqual(t, first.BlockchainID, res.BlockchainID)
	require.Equal(t, "L1 chain "+first.BlockchainID.String()+" (l1)", res.SharedWith)
}
