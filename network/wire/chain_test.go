package wire

import (
	"testing"

	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// chainFamily is the consensus messages' codec.
var chainFamily = family[Chain]{NewChain, IsChainOp, ParseChain}

// Every chain message we write is the reference's encoding of the same message, and ours parse
// theirs back to the same fields.
func TestChainMatchesReferenceProto(t *testing.T) {
	t.Parallel()
	chain, a, b, c := ids.ID{1, 2}, ids.ID{3}, ids.ID{4}, ids.ID{5}
	cases := []struct {
		op  Op
		msg Chain
		ref *refp2p.Message
	}{
		{OpGetAcceptedFrontier, Chain{ChainID: chain, RequestID: 1, Deadline: 2e9},
			&refp2p.Message{Message: &refp2p.Message_GetAcceptedFrontier{GetAcceptedFrontier: &refp2p.GetAcceptedFrontier{ChainId: chain[:], RequestId: 1, Deadline: 2e9}}}},
		{OpAcceptedFrontier, Chain{ChainID: chain, RequestID: 2, ContainerID: a},
			&refp2p.Message{Message: &refp2p.Message_AcceptedFrontier_{AcceptedFrontier_: &refp2p.AcceptedFrontier{ChainId: chain[:], RequestId: 2, ContainerId: a[:]}}}},
		{OpGetAccepted, Chain{ChainID: chain, RequestID: 3, Deadline: 5, ContainerIDs: []ids.ID{a, b}},
			&refp2p.Message{Message: &refp2p.Message_GetAccepted{GetAccepted: &refp2p.GetAccepted{ChainId: chain[:], RequestId: 3, Deadline: 5, ContainerIds: [][]byte{a[:], b[:]}}}}},
		{OpAccepted, Chain{ChainID: chain, RequestID: 4, ContainerIDs: []ids.ID{c}},
			&refp2p.Message{Message: &refp2p.Message_Accepted_{Accepted_: &refp2p.Accepted{ChainId: chain[:], RequestId: 4, ContainerIds: [][]byte{c[:]}}}}},
		{OpGetAncestors, Chain{ChainID: chain, RequestID: 5, Deadline: 7, ContainerID: a, EngineType: EngineTypeChain},
			&refp2p.Message{Message: &refp2p.Message_GetAncestors{GetAncestors: &refp2p.GetAncestors{ChainId: chain[:], RequestId: 5, Deadline: 7, ContainerId: a[:], EngineType: refp2p.EngineType_ENGINE_TYPE_CHAIN}}}},
		{OpAncestors, Chain{ChainID: chain, RequestID: 6, Containers: [][]byte{{1, 2}, {3}}},
			&refp2p.Message{Message: &refp2p.Message_Ancestors_{Ancestors_: &refp2p.Ancestors{ChainId: chain[:], RequestId: 6, Containers: [][]byte{{1, 2}, {3}}}}}},
		{OpGet, Chain{ChainID: chain, RequestID: 7, Deadline: 8, ContainerID: b},
			&refp2p.Message{Message: &refp2p.Message_Get{Get: &refp2p.Get{ChainId: chain[:], RequestId: 7, Deadline: 8, ContainerId: b[:]}}}},
		{OpPut, Chain{ChainID: chain, RequestID: 8, Container: []byte("block")},
			&refp2p.Message{Message: &refp2p.Message_Put{Put: &refp2p.Put{ChainId: chain[:], RequestId: 8, Container: []byte("block")}}}},
		{OpPushQuery, Chain{ChainID: chain, RequestID: 9, Deadline: 9, Container: []byte("blk"), RequestedHeight: 12},
			&refp2p.Message{Message: &refp2p.Message_PushQuery{PushQuery: &refp2p.PushQuery{ChainId: chain[:], RequestId: 9, Deadline: 9, Container: []byte("blk"), RequestedHeight: 12}}}},
		{OpPullQuery, Chain{ChainID: chain, RequestID: 10, Deadline: 10, ContainerID: c, RequestedHeight: 13},
			&refp2p.Message{Message: &refp2p.Message_PullQuery{PullQuery: &refp2p.PullQuery{ChainId: chain[:], RequestId: 10, Deadline: 10, ContainerId: c[:], RequestedHeight: 13}}}},
		{OpChits, Chain{ChainID: chain, RequestID: 11, PreferredID: a, AcceptedID: b, PreferredIDAtHeight: c, AcceptedHeight: 14},
			&refp2p.Message{Message: &refp2p.Message_Chits{Chits: &refp2p.Chits{ChainId: chain[:], RequestId: 11, PreferredId: a[:], AcceptedId: b[:], PreferredIdAtHeight: c[:], AcceptedHeight: 14}}}},
	}
	for _, tc := range cases {
		t.Run(tc.op.String(), func(t *testing.T) {
			requireReferenceEncoding(t, chainFamily, tc.op, tc.msg, tc.ref)
		})
	}
}

// Malformed chain bodies fail with ErrParse, never a panic: a short ID, a wrong wire type, a
// truncated field, an op that is not a chain op.
func TestParseChainErrors(t *testing.T) {
	t.Parallel()
	requireParseErrors(t, chainFamily, map[string]badBody{
		"short chain ID":     {OpGet, []byte{0x0a, 0x01, 0x00}},
		"varint as bytes":    {OpGet, []byte{0x12, 0x01, 0x00}},
		"bytes as varint":    {OpPut, []byte{0x08, 0x01}},
		"truncated":          {OpPut, []byte{0x1a, 0x05, 0x00}},
		"short container ID": {OpPullQuery, []byte{0x22, 0x02, 0x00, 0x00}},
		"not a chain op":     {OpPing, nil},
	})
}

func FuzzParseChain(f *testing.F) {
	f.Add(uint8(OpChits), NewChain(OpChits, &Chain{RequestID: 3}).Body)
	f.Add(uint8(OpAncestors), NewChain(OpAncestors, &Chain{Containers: [][]byte{{1}}}).Body)
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		c, err := ParseChain(Op(op), body)
		if err != nil {
			return
		}
		// What parses encodes to bytes that parse to the same fields.
		back, err := ParseChain(Op(op), NewChain(Op(op), c).Body)
		require.NoError(t, err)
		require.Equal(t, c.RequestID, back.RequestID)
		require.Equal(t, c.ChainID, back.ChainID)
	})
}
