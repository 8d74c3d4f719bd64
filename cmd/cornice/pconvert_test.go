package main

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
	"github.com/cornice-node/cornice/wallet"
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

// TestValidatorsFlag parses --validator values: the fields in any order, balance optional, and
// each mistake refused with the field it concerns.
func TestValidatorsFlag(t *testing.T) {
	t.Parallel()
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	pk, sig := hex.EncodeToString(pop.PublicKey[:]), "0x"+hex.EncodeToString(pop.ProofOfPossession[:])
	node := ids.NodeID{9}
	tests := []struct {
		name    string
		spec    string
		want    wallet.L1Validator
		wantErr error
		wantMsg string
	}{
		{name: "all fields", spec: "node-id=" + node.String() + ",bls-key=" + pk + ",pop=" + sig + ",weight=7,balance=9",
			want: wallet.L1Validator{NodeID: node, Weight: 7, Balance: 9, Signer: txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession}}},
		{name: "any order, no balance", spec: "weight=7, pop=" + sig + ",node-id=" + node.String() + ",bls-key=0x" + pk,
			want: wallet.L1Validator{NodeID: node, Weight: 7, Signer: txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession}}},
		{name: "unknown field", spec: "node-id=" + node.String() + ",key=1", wantErr: errValidatorSpec, wantMsg: `unknown field "key"`},
		{name: "no value", spec: "node-id", wantErr: errValidatorSpec, wantMsg: "node-id has no value"},
		{name: "twice", spec: "weight=1,weight=2", wantErr: errValidatorSpec, wantMsg: "weight given twice"},
		{name: "missing pop", spec: "node-id=" + node.String() + ",bls-key=" + pk + ",weight=1", wantErr: errValidatorSpec, wantMsg: "pop missing"},
		{name: "short key", spec: "node-id=" + node.String() + ",bls-key=0x01,pop=" + sig + ",weight=1", wantErr: errHexFlag,
			wantMsg: "--validator bls-key: not hex of the right length: 1 bytes, want 48"},
		{name: "bad pop", spec: "node-id=" + node.String() + ",bls-key=" + pk + ",pop=zz,weight=1", wantErr: errHexFlag, wantMsg: "--validator pop: "},
		{name: "bad node ID", spec: "node-id=x,bls-key=" + pk + ",pop=" + sig + ",weight=1", wantMsg: "--validator node-id: "},
		{name: "bad weight", spec: "node-id=" + node.String() + ",bls-key=" + pk + ",pop=" + sig + ",weight=-1", wantMsg: "--validator weight: "},
		{name: "bad balance", spec: "node-id=" + node.String() + ",bls-key=" + pk + ",pop=" + sig + ",weight=1,balance=x", wantMsg: "--validator balance: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var vals []wallet.L1Validator
			f := &validatorsFlag{vals: &vals}
			err := f.Set(tt.spec)
			if tt.wantMsg != "" {
				if tt.wantErr != nil {
					require.ErrorIs(t, err, tt.wantErr)
				}
				require.ErrorContains(t, err, tt.wantMsg)
				require.Empty(t, vals)
				require.Empty(t, f.String())
				return
			}
			require.NoError(t, err)
			require.Equal(t, []wallet.L1Validator{tt.want}, vals)
			require.Equal(t, tt.spec, f.String())
		})
	}
}

// TestPConvertSubnetValidators converts a subnet into an L1 with three validators through a real
// node: one from the single-validator flags and two from --validator, given out of node ID order.
// The CLI prints their validation IDs in the order given, each validator is on the L1 with its
// weight, balance and key, and the tx reads back in json (issue #5 §3).
func TestPConvertSubnetValidators(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	ewoq, err := wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)
	alice := xn.pWallet(ewoq)

	_, _, code, stdout, stderr := runCLI(t, "p", "create-subnet", "--node-uri", xn.base)
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`^txID: (\w+)\nsubnetID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	subnetID, err := ids.FromString(m[2])
	require.NoError(t, err)

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
		{"no validator", args(), errNoValidator.Error()},
		{"single flags apart", args("--validator-node-id", single.nodeID.String(), "--weight", "1"), errValidatorFlags.Error()},
		{"balance alone", args("--balance", "1", "--validator", high.spec()), errValidatorFlags.Error()},
		{"bad validator", args("--validator", "node-id="+high.nodeID.String()), "cornice: --validator: " + errValidatorSpec.Error() + ": bls-key missing\n"},
		{"same node twice", args("--validator", high.spec(), "--validator", high.spec()), platform.ErrValidatorsNotSortedUnique.Error()},
		{"wrong pop", args("--validator", strings.Replace(high.spec(), high.pop, low.pop, 1)), platform.ErrInvalidProofOfPossession.Error()},
	} {
		_, _, code, stdout, stderr := runCLI(t, tc.args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
	}
	require.Empty(t, xn.l1Validators(subnetID))

	_, _, code, stdout, stderr = runCLI(t, args(append(singleFlags, "--validator", high.spec(), "--validator", low.spec())...)...)
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

// FuzzValidatorsFlag parses arbitrary --validator values: it never panics, and a value it takes
// gives the same validator again when written out in canonical form.
func FuzzValidatorsFlag(f *testing.F) {
	f.Add("node-id=NodeID-111111111111111111116DBWJs,bls-key=0x" + strings.Repeat("ab", txs.BLSPublicKeyLen) +
		",pop=" + strings.Repeat("cd", txs.BLSSignatureLen) + ",weight=1,balance=2")
	f.Add("weight=1,weight=2")
	f.Add("node-id")
	f.Fuzz(func(t *testing.T, s string) {
		var vals []wallet.L1Validator
		if err := (&validatorsFlag{vals: &vals}).Set(s); err != nil {
			require.Empty(t, vals)
			return
		}
		require.Len(t, vals, 1)
		v := vals[0]
		canonical := "node-id=" + v.NodeID.String() + ",bls-key=" + hex.EncodeToString(v.Signer.PublicKey[:]) +
			",pop=" + hex.EncodeToString(v.Signer.Signature[:]) + ",weight=" + strconv.FormatUint(v.Weight, 10) +
			",balance=" + strconv.FormatUint(v.Balance, 10)
		var again []wallet.L1Validator
		require.NoError(t, (&validatorsFlag{vals: &again}).Set(canonical))
		require.Equal(t, vals, again)
	})
}
