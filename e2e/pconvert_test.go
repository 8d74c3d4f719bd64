package e2e_test

import (
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// pcValidator is an L1 validator for convert-subnet: a node ID and a fresh BLS key's proof of
// possession, in hex.
type pcValidator struct {
	nodeID     ids.NodeID
	pk, pop    string
	popPub     [txs.BLSPublicKeyLen]byte
	popSig     [txs.BLSSignatureLen]byte
	weight     string
	balance    string
	validation ids.ID
}

func newPCValidator(t *testing.T, first byte, weight, balance string) *pcValidator {
	t.Helper()
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	return &pcValidator{
		nodeID: ids.NodeID{first, 0x5c}, pk: "0x" + hex.EncodeToString(pop.PublicKey[:]),
		pop: hex.EncodeToString(pop.ProofOfPossession[:]), popPub: pop.PublicKey, popSig: pop.ProofOfPossession,
		weight: weight, balance: balance,
	}
}

// spec is the validator as a --validator value.
func (v *pcValidator) spec() string {
	s := "node-id=" + v.nodeID.String() + ",bls-key=" + v.pk + ",pop=" + v.pop + ",weight=" + v.weight
	if v.balance != "" {
		s += ",balance=" + v.balance
	}
	return s
}

// TestPConvertSubnetValidators converts a subnet into an L1 with three validators through a real
// node: one from the single-validator flags and two from --validator, given out of node ID order.
// The CLI prints their validation IDs in the order given, each validator is on the L1 with its
// weight, balance and key, and the tx reads back in json (issue #5 §3).
func TestPConvertSubnetValidators(t *testing.T) {
	t.Parallel()
	xn, alice, subnetID := startWithSubnet(t)

	single := newPCValidator(t, 0x30, "10", "2000000000")
	high := newPCValidator(t, 0x50, "20", "1000000000")
	low := newPCValidator(t, 0x10, "30", "")
	base := []string{"p", "convert-subnet", "--node-uri", xn.base, "--subnet", subnetID.String(), "--chain", ids.ID{1}.String(), "--address", "0x0102"}
	args := func(extra ...string) []string { return append(append([]string{}, base...), extra...) }
	singleFlags := []string{"--validator-node-id", single.nodeID.String(), "--validator-bls-key", single.pk,
		"--validator-pop", single.pop, "--weight", single.weight, "--balance", single.balance}

	// Refusals change nothing: the subnet converts below.
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no validator", args(), "cornice: no validator: give --validator or --validator-node-id and its flags\n"},
		{"single flags apart", args("--validator-node-id", single.nodeID.String(), "--weight", "1"), "cornice: --validator-node-id, --validator-bls-key, --validator-pop and --weight go together (--balance is optional)\n"},
		{"balance alone", args("--balance", "1", "--validator", high.spec()), "cornice: --validator-node-id, --validator-bls-key, --validator-pop and --weight go together (--balance is optional)\n"},
		{"bad validator", args("--validator", "node-id="+high.nodeID.String()), "cornice: --validator: a validator is node-id=NodeID-…,bls-key=0x…,pop=0x…,weight=N[,balance=N]: bls-key missing\n"},
		{"same node twice", args("--validator", high.spec(), "--validator", high.spec()), platform.ErrValidatorsNotSortedUnique.Error()},
		{"wrong pop", args("--validator", strings.Replace(high.spec(), high.pop, low.pop, 1)), platform.ErrInvalidProofOfPossession.Error()},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
	}
	require.Empty(t, xn.l1Validators(subnetID))

	code, stdout, stderr := runCLI(t, args(append(singleFlags, "--validator", high.spec(), "--validator", low.spec())...)...)
	require.Equal(t, 0, code, stderr)
	mc := regexp.MustCompile(`^txID: (\w+)\nvalidationID: (\w+)\nvalidationID: (\w+)\nvalidationID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, mc, stdout)
	// The tx sorts the validators by node ID: low, single, high.
	low.validation, single.validation, high.validation = subnetID.Append(0), subnetID.Append(1), subnetID.Append(2)
	require.Equal(t, []string{single.validation.String(), high.validation.String(), low.validation.String()}, mc[2:])

	vals := xn.l1Validators(subnetID)
	require.Len(t, vals, 3)
	byID := make(map[ids.ID]api.APIL1Validator)
	for _, v := range vals {
		byID[v.ValidationID] = v
	}
	for _, want := range []*pcValidator{single, high, low} {
		got, ok := byID[want.validation]
		require.True(t, ok, want.nodeID)
		require.Equal(t, want.nodeID, got.NodeID)
		require.Equal(t, want.weight, strconv.FormatUint(uint64(got.Weight), 10))
		require.Equal(t, strings.ToLower(want.pk), got.PublicKey)
		require.Equal(t, []string{alice.Address()}, got.RemainingBalanceOwner.Addresses)
		require.Equal(t, []string{alice.Address()}, got.DeactivationOwner.Addresses)
		if want.balance == "" {
			require.Zero(t, uint64(got.Balance))
		} else {
			require.NotZero(t, uint64(got.Balance))
		}
	}

	// platform.getTx in json shows the three validators in the tx's order.
	var reply struct {
		Tx struct {
			UnsignedTx struct {
				Validators []struct {
					NodeID  string `json:"nodeID"`
					Weight  uint64 `json:"weight"`
					Balance uint64 `json:"balance"`
					Signer  struct {
						PublicKey         string `json:"publicKey"`
						ProofOfPossession string `json:"proofOfPossession"`
					} `json:"signer"`
				} `json:"validators"`
			} `json:"unsignedTx"`
			ID ids.ID `json:"id"`
		} `json:"tx"`
	}
	xn.call("/ext/bc/P", "platform.getTx", map[string]string{"txID": mc[1], "encoding": "json"}, &reply)
	require.Equal(t, mc[1], reply.Tx.ID.String())
	require.Len(t, reply.Tx.UnsignedTx.Validators, 3)
	for i, want := range []*pcValidator{low, single, high} {
		got := reply.Tx.UnsignedTx.Validators[i]
		require.Equal(t, "0x"+hex.EncodeToString(want.nodeID[:]), got.NodeID)
		require.Equal(t, want.weight, strconv.FormatUint(got.Weight, 10))
		require.Equal(t, "0x"+hex.EncodeToString(want.popPub[:]), got.Signer.PublicKey)
		require.Equal(t, "0x"+hex.EncodeToString(want.popSig[:]), got.Signer.ProofOfPossession)
	}
	require.Equal(t, uint64(0), reply.Tx.UnsignedTx.Validators[0].Balance)
	require.Equal(t, uint64(2_000_000_000), reply.Tx.UnsignedTx.Validators[1].Balance)
	require.Equal(t, uint64(1_000_000_000), reply.Tx.UnsignedTx.Validators[2].Balance)
}
