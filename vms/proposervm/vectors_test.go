package proposervm

import (
	"crypto"
	"crypto/tls"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// vectorFile is the part of codec-vectors-2.json these tests read.
type vectorFile struct {
	Vectors vectortest.Vectors `json:"vectors"`
}

// staker loads a local staker's TLS identity from the project's testdata.
func staker(t *testing.T, n string) (der []byte, key crypto.Signer) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(vectortest.Path()), "local-stakers")
	c, err := tls.LoadX509KeyPair(filepath.Join(dir, "staker"+n+".crt"), filepath.Join(dir, "staker"+n+".key"))
	require.NoError(t, err)
	return c.Certificate[0], c.PrivateKey.(crypto.Signer)
}

func TestBlockVectors(t *testing.T) {
	vs := vectortest.Load2[vectorFile](t).Vectors
	der, key := staker(t, "1")
	for _, name := range []string{
		"proposervm_signed_block_pre_granite", "proposervm_signed_block_granite",
		"proposervm_unsigned_block_pre_granite", "proposervm_unsigned_block_granite",
	} {
		t.Run(name, func(t *testing.T) {
			v := vs.Named(t, name)
			in := v["inputs"].(map[string]any)
			want := vectortest.Unhex(t, vectortest.Str(t, v, "signedBlockBytesHex"))
			chainID := ids.Empty // the P-Chain
			blk, err := Parse(want, chainID)
			require.NoError(t, err)
			require.Equal(t, vectortest.CB58(t, vectortest.Str(t, v, "blockID")), blk.ID())
			require.Equal(t, vectortest.CB58(t, vectortest.Str(t, in, "parentID")), blk.Parent)
			require.Equal(t, int64(vectortest.Num(t, in, "timestamp")), blk.Timestamp.Unix())
			require.Equal(t, vectortest.Num(t, in, "pChainHeight"), blk.PChainHeight)
			require.Equal(t, nodeID(t, vectortest.Str(t, v, "proposerNodeID")), blk.Proposer())
			granite := vectortest.Num(t, v, "typeID") == 2
			require.Equal(t, granite, blk.Granite)
			if e, ok := in["epoch"].(map[string]any); ok {
				require.Equal(t, Epoch{
					PChainHeight: vectortest.Num(t, e, "pChainHeight"),
					Number:       vectortest.Num(t, e, "number"),
					StartTime:    int64(vectortest.Num(t, e, "startTime")),
				}, blk.Epoch)
				// The epoch is what ACP-181 gives a child of the pre-fork parent.
				parentTime := time.Unix(int64(vectortest.Num(t, in, "timestamp")), 0)
				require.Equal(t, blk.Epoch, NextEpoch(blk.PChainHeight, Epoch{}, parentTime, EpochDuration))
			}

			// Building it again gives the same bytes: RSA signatures are deterministic.
			var signer crypto.Signer
			if blk.Signed() {
				signer = key
				require.Equal(t, der, blk.Certificate)
			}
			rebuilt, err := Build(blk.Header, blk.Inner, chainID, der, signer)
			require.NoError(t, err)
			require.Equal(t, want, rebuilt.Bytes())
			require.Equal(t, blk.ID(), rebuilt.ID())
			require.Equal(t, blk.Proposer(), rebuilt.Proposer())
		})
	}
}

func TestParseRejects(t *testing.T) {
	vs := vectortest.Load2[vectorFile](t).Vectors
	signed := vectortest.Unhex(t, vectortest.Str(t, vs.Named(t, "proposervm_signed_block_granite"), "signedBlockBytesHex"))
	option := vectortest.Unhex(t, vectortest.Str(t, vs.Named(t, "proposervm_option_block"), "bytesHex"))

	// The signature binds the chain ID: on another chain it does not verify.
	_, err := Parse(signed, ids.ID{1})
	require.Error(t, err)
	// A flipped bit of the signature fails.
	bad := append([]byte(nil), signed...)
	bad[len(bad)-1] ^= 1
	_, err = Parse(bad, ids.Empty)
	require.Error(t, err)
	_, err = Parse(option, ids.Empty)
	require.ErrorIs(t, err, ErrOption)
	_, err = Parse(signed[:len(signed)-3], ids.Empty)
	require.ErrorIs(t, err, ErrNotProposerBlock)
	// A bare P-Chain block is not a proposervm block.
	inner, err := Parse(signed, ids.Empty)
	require.NoError(t, err)
	_, err = Parse(inner.Inner, ids.Empty)
	require.ErrorIs(t, err, ErrNotProposerBlock)
}

func TestWindowerVectors(t *testing.T) {
	vs := vectortest.Load2[vectorFile](t).Vectors
	for _, name := range []string{"proposervm_windower_p_chain", "proposervm_windower_x_chain"} {
		t.Run(name, func(t *testing.T) {
			v := vs.Named(t, name)
			in := v["inputs"].(map[string]any)
			chainID, err := ids.FromString(firstWord(vectortest.Str(t, in, "chainID")))
			require.NoError(t, err)
			var set []Weighted
			for _, raw := range v["validatorsSortedByNodeID"].([]any) {
				e := raw.(map[string]any)
				set = append(set, Weighted{
					NodeID: nodeID(t, vectortest.Str(t, e, "nodeID")),
					Weight: vectortest.Num(t, e, "weight"),
				})
			}
			// Listed in reverse, so that the windower's own sort is exercised.
			for i, j := 0, len(set)-1; i < j; i, j = i+1, j-1 {
				set[i], set[j] = set[j], set[i]
			}
			w := NewWindower(chainID, vectortest.Num(t, in, "blockHeight"), set)
			for _, raw := range v["expectedProposerBySlot(Durango+)"].([]any) {
				e := raw.(map[string]any)
				seed := vectortest.Unhex(t, vectortest.Str(t, e, "seedHex"))
				first := vectortest.Unhex(t, vectortest.Str(t, e, "firstMT19937_64OutputHex"))
				require.Equal(t, beUint64(first), newMT64(beUint64(seed)).next())
				got, err := w.ExpectedProposer(vectortest.Num(t, e, "slot"))
				require.NoError(t, err)
				require.Equal(t, nodeID(t, vectortest.Str(t, e, "expectedProposer")), got, "slot %v", e["slot"])
			}
			for _, raw := range v["minDelayForProposerFromSlot0"].([]any) {
				e := raw.(map[string]any)
				d, err := w.MinDelay(nodeID(t, vectortest.Str(t, e, "nodeID")), 0)
				require.NoError(t, err)
				require.Equal(t, time.Duration(vectortest.Num(t, e, "minDelaySeconds"))*time.Second, d)
			}
			_, err = NewWindower(chainID, 10, nil).ExpectedProposer(0)
			require.ErrorIs(t, err, ErrAnyoneCanPropose)
		})
	}
}

func firstWord(s string) string {
	for i := range s {
		if s[i] == ' ' {
			return s[:i]
		}
	}
	return s
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

func nodeID(t *testing.T, s string) ids.NodeID {
	t.Helper()
	if s == "NodeID-111111111111111111116DBWJs (none)" {
		return ids.NodeID{}
	}
	id, err := ids.NodeIDFromString(s)
	require.NoError(t, err)
	return id
}
