package wire

import (
	"testing"

	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/cornice-node/cornice/ids"
)

// appFamily is the app messages' codec.
var appFamily = family[App]{NewApp, IsAppOp, ParseApp}

// Every app message we write is the reference's encoding of the same message, and ours parse
// theirs back to the same fields; the error code is a zigzag sint32 both ways.
func TestAppMatchesReferenceProto(t *testing.T) {
	t.Parallel()
	chain := ids.ID{7, 8}
	cases := []struct {
		name string
		op   Op
		msg  App
		ref  *refp2p.Message
	}{
		{"request", OpAppRequest, App{ChainID: chain, RequestID: 3, Deadline: 5e9, AppBytes: []byte{2, 0x0a, 1, 9}},
			&refp2p.Message{Message: &refp2p.Message_AppRequest{AppRequest: &refp2p.AppRequest{ChainId: chain[:], RequestId: 3, Deadline: 5e9, AppBytes: []byte{2, 0x0a, 1, 9}}}}},
		{"response", OpAppResponse, App{ChainID: chain, RequestID: 4, AppBytes: []byte("sig")},
			&refp2p.Message{Message: &refp2p.Message_AppResponse{AppResponse: &refp2p.AppResponse{ChainId: chain[:], RequestId: 4, AppBytes: []byte("sig")}}}},
		{"error", OpAppError, App{ChainID: chain, RequestID: 5, ErrorCode: -2, ErrorMessage: "unregistered handler"},
			&refp2p.Message{Message: &refp2p.Message_AppError{AppError: &refp2p.AppError{ChainId: chain[:], RequestId: 5, ErrorCode: -2, ErrorMessage: "unregistered handler"}}}},
		{"vm error", OpAppError, App{ChainID: chain, RequestID: 6, ErrorCode: 17, ErrorMessage: "x"},
			&refp2p.Message{Message: &refp2p.Message_AppError{AppError: &refp2p.AppError{ChainId: chain[:], RequestId: 6, ErrorCode: 17, ErrorMessage: "x"}}}},
		{"min code", OpAppError, App{ChainID: chain, RequestID: 7, ErrorCode: -1 << 31},
			&refp2p.Message{Message: &refp2p.Message_AppError{AppError: &refp2p.AppError{ChainId: chain[:], RequestId: 7, ErrorCode: -1 << 31}}}},
		{"gossip", OpAppGossip, App{ChainID: chain, AppBytes: []byte{0, 0x0a, 2, 1, 2}},
			&refp2p.Message{Message: &refp2p.Message_AppGossip{AppGossip: &refp2p.AppGossip{ChainId: chain[:], AppBytes: []byte{0, 0x0a, 2, 1, 2}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireReferenceEncoding(t, appFamily, tc.op, tc.msg, tc.ref)
		})
	}
}

// An error message that is not UTF-8 is repaired, so the reference's proto3 parser takes it.
func TestAppErrorMessageUTF8(t *testing.T) {
	t.Parallel()
	b := NewApp(OpAppError, &App{ErrorCode: -1, ErrorMessage: "bad \xff"}).Marshal()
	var ref refp2p.Message
	require.NoError(t, proto.Unmarshal(b, &ref))
	require.Equal(t, "bad \uFFFD", ref.GetAppError().GetErrorMessage())
}

// Malformed app bodies fail with ErrParse, never a panic.
func TestParseAppErrors(t *testing.T) {
	t.Parallel()
	requireParseErrors(t, appFamily, map[string]badBody{
		"short chain ID":  {OpAppRequest, []byte{0x0a, 0x01, 0x00}},
		"bytes as varint": {OpAppRequest, []byte{0x22, 0x01, 0x00, 0x10, 0x01, 0x1a, 0x00}},
		"varint as bytes": {OpAppResponse, []byte{0x18, 0x01}},
		"code as bytes":   {OpAppError, []byte{0x1a, 0x00}},
		"truncated":       {OpAppResponse, []byte{0x1a, 0x05, 0x00}},
		"not an app op":   {OpGet, nil},
		"gossip varint":   {OpAppGossip, []byte{0x10, 0x01}},
	})
}

func FuzzParseApp(f *testing.F) {
	f.Add(uint8(OpAppRequest), NewApp(OpAppRequest, &App{RequestID: 3, Deadline: 1, AppBytes: []byte{2}}).Body)
	f.Add(uint8(OpAppError), NewApp(OpAppError, &App{RequestID: 3, ErrorCode: -3, ErrorMessage: "no"}).Body)
	f.Add(uint8(OpAppGossip), NewApp(OpAppGossip, &App{AppBytes: []byte{0, 0x0a, 1, 7}}).Body)
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		a, err := ParseApp(Op(op), body)
		if err != nil {
			return
		}
		// What parses encodes to bytes that parse to the same fields.
		back, err := ParseApp(Op(op), NewApp(Op(op), a).Body)
		require.NoError(t, err)
		require.Equal(t, a.RequestID, back.RequestID)
		require.Equal(t, a.ChainID, back.ChainID)
		require.Equal(t, a.ErrorCode, back.ErrorCode)
		if Op(op) == OpAppGossip {
			require.Equal(t, a.AppBytes, back.AppBytes)
		}
	})
}
