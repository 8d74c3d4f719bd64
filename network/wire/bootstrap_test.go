package wire

import (
	"bytes"
	"errors"
	"testing"

	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/cornice-node/cornice/ids"
)

func sampleBootstraps() []*Bootstrap {
	chain := ids.ID{0xc1}
	a, b := ids.ID{0xa}, ids.ID{0xb}
	return []*Bootstrap{
		{Op: OpGetAcceptedFrontier, ChainID: chain, RequestID: 1, Deadline: 2_000_000_000},
		{Op: OpAcceptedFrontier, ChainID: chain, RequestID: 2, ContainerID: a},
		{Op: OpGetAccepted, ChainID: chain, RequestID: 3, Deadline: 5, ContainerIDs: []ids.ID{a, b}},
		{Op: OpAccepted, ChainID: chain, RequestID: 4, ContainerIDs: []ids.ID{b}},
		{Op: OpGetAncestors, ChainID: chain, RequestID: 5, Deadline: 7, ContainerID: b, EngineType: EngineTypeChain},
		{Op: OpAncestors, ChainID: chain, RequestID: 6, Containers: [][]byte{[]byte("newest"), {}, []byte("oldest")}},
		// The P-Chain's ID is all zeros: it is still written, as 32 bytes.
		{Op: OpGetAcceptedFrontier, ChainID: ids.Empty, RequestID: 0},
	}
}

// Our encoding of each bootstrapping message decodes with the reference's generated code to the
// same values, and the reference's encoding parses back to ours (§3.2's field numbers).
func TestBootstrapMatchesReferenceProto(t *testing.T) {
	t.Parallel()
	for _, want := range sampleBootstraps() {
		t.Run(want.Op.String(), func(t *testing.T) {
			t.Parallel()
			b := want.Message().Marshal()
			var ref refp2p.Message
			require.NoError(t, proto.Unmarshal(b, &ref))
			type common interface {
				GetChainId() []byte
				GetRequestId() uint32
			}
			var got common
			switch want.Op {
			case OpGetAcceptedFrontier:
				m := ref.GetGetAcceptedFrontier()
				require.Equal(t, want.Deadline, m.GetDeadline())
				got = m
			case OpAcceptedFrontier:
				m := ref.GetAcceptedFrontier_()
				require.Equal(t, want.ContainerID[:], m.GetContainerId())
				got = m
			case OpGetAccepted:
				m := ref.GetGetAccepted()
				require.Equal(t, want.Deadline, m.GetDeadline())
				require.Equal(t, [][]byte{want.ContainerIDs[0][:], want.ContainerIDs[1][:]}, m.GetContainerIds())
				got = m
			case OpAccepted:
				m := ref.GetAccepted_()
				require.Equal(t, [][]byte{want.ContainerIDs[0][:]}, m.GetContainerIds())
				got = m
			case OpGetAncestors:
				m := ref.GetGetAncestors()
				require.Equal(t, want.Deadline, m.GetDeadline())
				require.Equal(t, want.ContainerID[:], m.GetContainerId())
				require.Equal(t, refp2p.EngineType_ENGINE_TYPE_CHAIN, m.GetEngineType())
				got = m
			case OpAncestors:
				m := ref.GetAncestors_()
				require.Equal(t, want.Containers, m.GetContainers())
				got = m
			}
			require.NotNil(t, got)
			require.Equal(t, want.ChainID[:], got.GetChainId())
			require.Equal(t, want.RequestID, got.GetRequestId())

			again, err := proto.Marshal(&ref)
			require.NoError(t, err)
			m, err := Parse(again)
			require.NoError(t, err)
			back, err := ParseBootstrap(m)
			require.NoError(t, err)
			require.Equal(t, want, back)
			require.Equal(t, b, back.Message().Marshal(), "encoding round-trips")
		})
	}
}

func TestParseBootstrapErrors(t *testing.T) {
	t.Parallel()
	chain := appendMsg(nil, 1, make([]byte, 32))
	tests := []struct {
		name string
		op   Op
		body []byte
	}{
		{"not a bootstrapping op", OpPing, chain},
		{"no chain ID", OpGetAcceptedFrontier, appendUint(nil, 2, 1)},
		{"short chain ID", OpGetAcceptedFrontier, appendMsg(nil, 1, make([]byte, 31))},
		{"chain ID as varint", OpGetAcceptedFrontier, appendUint(nil, 1, 1)},
		{"request ID as bytes", OpAncestors, appendMsg(chain, 2, []byte{1})},
		{"no frontier", OpAcceptedFrontier, chain},
		{"long frontier", OpAcceptedFrontier, appendMsg(chain, 3, make([]byte, 33))},
		{"no block asked for", OpGetAncestors, chain},
		{"bad accepted ID", OpAccepted, appendMsg(chain, 3, []byte{1})},
		{"container as varint", OpAncestors, appendUint(chain, 3, 1)},
		{"truncated", OpGetAccepted, chain[:10]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseBootstrap(&Message{Op: tt.op, Body: tt.body})
			require.ErrorIs(t, err, ErrParse)
		})
	}
}

// FuzzParseBootstrap checks that any body of any bootstrapping op parses or fails with ErrParse,
// and that a parsed message encodes to bytes that parse to the same message.
func FuzzParseBootstrap(f *testing.F) {
	for _, b := range sampleBootstraps() {
		f.Add(uint8(b.Op), b.Message().Body)
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		m := &Message{Op: OpGetAcceptedFrontier + Op(op%6), Body: body}
		b, err := ParseBootstrap(m)
		if err != nil {
			if !errors.Is(err, ErrParse) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		again, err := ParseBootstrap(b.Message())
		require.NoError(t, err)
		require.Equal(t, b, again)
		require.True(t, bytes.Equal(b.Message().Body, again.Message().Body))
	})
}
