package main

import (
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

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
