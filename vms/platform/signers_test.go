package platform_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
)

// TestSignersRemembered checks that the P-Chain remembers the key that signs its spends: after
// two txs of the local key its next signature is verified against the key's table
// (secp256k1fx.Signers), another key's signature over its UTXO is still refused as before, and a
// third tx of the local key is accepted through the table.
func TestSignersRemembered(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoq, vmrq := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoqAddr, vmrqAddr := addrOf(ewoq), addrOf(vmrq)
	cvm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	vm := cvm.(*platform.VM)
	require.False(t, vm.SignerHasTableForTest(ewoqAddr))
	for range 2 {
		n.issue(sign(t, new(n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)), ewoq))
	}
	require.True(t, vm.SignerHasTableForTest(ewoqAddr))
	require.Contains(t, n.IssueTxError(sign(t, new(n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)), vmrq)), "wrong signature")
	n.issue(sign(t, new(n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)), ewoq))
	require.False(t, vm.SignerHasTableForTest(vmrqAddr), "vmrq never signed where it was expected")
}
