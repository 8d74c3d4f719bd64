package wire

import (
	"testing"

	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// family is how one family of messages (app or chain) is written and read.
type family[T any] struct {
	build func(Op, *T) *Message
	is    func(Op) bool
	parse func(Op, []byte) (*T, error)
}

// requireReferenceEncoding checks that msg, written as op, is the reference's encoding of ref,
// and that the reference's bytes parse back to msg.
func requireReferenceEncoding[T any](t *testing.T, f family[T], op Op, msg T, ref *refp2p.Message) {
	t.Helper()
	want, err := proto.Marshal(ref)
	require.NoError(t, err)
	require.Equal(t, want, f.build(op, &msg).Marshal())

	m, err := Parse(want)
	require.NoError(t, err)
	require.Equal(t, op, m.Op)
	require.True(t, f.is(m.Op))
	got, err := f.parse(m.Op, m.Body)
	require.NoError(t, err)
	require.Equal(t, msg, *got)
}

// badBody is a body the family's parser must refuse when read as op.
type badBody struct {
	op   Op
	body []byte
}

// requireParseErrors checks that each body fails with ErrParse, never a panic.
func requireParseErrors[T any](t *testing.T, f family[T], bodies map[string]badBody) {
	t.Helper()
	for name, tc := range bodies {
		_, err := f.parse(tc.op, tc.body)
		require.ErrorIs(t, err, ErrParse, name)
	}
}
