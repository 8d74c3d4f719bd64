package wire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Exact bytes the reference produces (network-consensus-warp.md §0 (b)).
func TestPingPongBytes(t *testing.T) {
	t.Parallel()
	require.Equal(t, []byte{0x5a, 0x02, 0x08, 0x64}, (&Message{Op: OpPing, Ping: &Ping{Uptime: 100}}).Marshal())
	require.Equal(t, []byte{0x62, 0x00}, (&Message{Op: OpPong, Pong: &Pong{}}).Marshal())
	require.Equal(t, []byte{0x5a, 0x00}, (&Message{Op: OpPing, Ping: &Ping{}}).Marshal())
}

func sampleHandshake() *Handshake {
	return &Handshake{
		NetworkID:      12345,
		MyTime:         1_700_000_000,
		IPAddr:         []byte{127, 0, 0, 1},
		IPPort:         9651,
		UpgradeTime:    1_600_000_000,
		IPSigningTime:  1_699_999_999,
		IPNodeIDSig:    bytes.Repeat([]byte{7}, 70),
		TrackedSubnets: [][]byte{bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)},
		Client:         &Client{Name: "cornice", Major: 1, Minor: 14, Patch: 2},
		SupportedACPs:  []uint32{23, 300},
		ObjectedACPs:   []uint32{24},
		KnownPeers:     &BloomFilter{Filter: []byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 0}, Salt: []byte{5, 5}},
		IPBLSSig:       bytes.Repeat([]byte{3}, 96),
		AllSubnets:     true,
	}
}

func sampleClaims() []ClaimedIPPort {
	return []ClaimedIPPort{
		{Certificate: []byte("cert-a"), IPAddr: []byte{10, 0, 0, 1}, IPPort: 9651, Timestamp: 42, Signature: []byte("sig-a"), TxID: make([]byte, 32)},
		{Certificate: []byte("cert-b"), IPAddr: bytes.Repeat([]byte{0xfe}, 16), IPPort: 1, Timestamp: 1 << 40, Signature: []byte("sig-b"), TxID: make([]byte, 32)},
	}
}

// Our encoding decodes with the reference's generated code to the same values, and the
// reference's encoding decodes with ours: the field numbers and wire types match.
func TestHandshakeMatchesReferenceProto(t *testing.T) {
	t.Parallel()
	h := sampleHandshake()
	var ref refp2p.Message
	require.NoError(t, proto.Unmarshal((&Message{Op: OpHandshake, Handshake: h}).Marshal(), &ref))
	rh := ref.GetHandshake()
	require.NotNil(t, rh)
	require.Equal(t, h.NetworkID, rh.NetworkId)
	require.Equal(t, h.MyTime, rh.MyTime)
	require.Equal(t, h.IPAddr, rh.IpAddr)
	require.Equal(t, h.IPPort, rh.IpPort)
	require.Equal(t, h.UpgradeTime, rh.UpgradeTime)
	require.Equal(t, h.IPSigningTime, rh.IpSigningTime)
	require.Equal(t, h.IPNodeIDSig, rh.IpNodeIdSig)
	require.Equal(t, h.TrackedSubnets, rh.TrackedSubnets)
	require.Equal(t, h.Client.Name, rh.Client.Name)
	require.Equal(t, []uint32{h.Client.Major, h.Client.Minor, h.Client.Patch}, []uint32{rh.Client.Major, rh.Client.Minor, rh.Client.Patch})
	require.Equal(t, h.SupportedACPs, rh.SupportedAcps)
	require.Equal(t, h.ObjectedACPs, rh.ObjectedAcps)
	require.Equal(t, h.KnownPeers.Filter, rh.KnownPeers.Filter)
	require.Equal(t, h.KnownPeers.Salt, rh.KnownPeers.Salt)
	require.Equal(t, h.IPBLSSig, rh.IpBlsSig)
	require.True(t, rh.AllSubnets)

	b, err := proto.Marshal(&ref)
	require.NoError(t, err)
	m, err := Parse(b)
	require.NoError(t, err)
	require.Equal(t, OpHandshake, m.Op)
	require.Equal(t, h, m.Handshake)
}

func TestPeerListMatchesReferenceProto(t *testing.T) {
	t.Parallel()
	claims := sampleClaims()
	var ref refp2p.Message
	require.NoError(t, proto.Unmarshal((&Message{Op: OpPeerList, PeerList: &PeerList{Claims: claims}}).Marshal(), &ref))
	got := ref.GetPeerList_().GetClaimedIpPorts()
	require.Len(t, got, 2)
	for i, c := range claims {
		require.Equal(t, c.Certificate, got[i].X509Certificate)
		require.Equal(t, c.IPAddr, got[i].IpAddr)
		require.Equal(t, c.IPPort, got[i].IpPort)
		require.Equal(t, c.Timestamp, got[i].Timestamp)
		require.Equal(t, c.Signature, got[i].Signature)
		require.Equal(t, c.TxID, got[i].TxId)
	}
	b, err := proto.Marshal(&ref)
	require.NoError(t, err)
	m, err := Parse(b)
	require.NoError(t, err)
	require.Equal(t, claims, m.PeerList.Claims)

	gpl := &Message{Op: OpGetPeerList, GetPeerList: &GetPeerList{KnownPeers: &BloomFilter{Filter: []byte{1, 2}, Salt: []byte{3}}, AllSubnets: true}}
	require.NoError(t, proto.Unmarshal(gpl.Marshal(), &ref))
	require.Equal(t, []byte{1, 2}, ref.GetGetPeerList().KnownPeers.Filter)
	require.True(t, ref.GetGetPeerList().AllSubnets)
	back, err := Parse(gpl.Marshal())
	require.NoError(t, err)
	require.Equal(t, gpl.GetPeerList, back.GetPeerList)
}

// Chain messages keep their op and body; the ACP lists also parse unpacked.
func TestChainMessagesAndUnpackedLists(t *testing.T) {
	t.Parallel()
	ref := &refp2p.Message{Message: &refp2p.Message_PullQuery{PullQuery: &refp2p.PullQuery{ChainId: make([]byte, 32), RequestId: 7, Deadline: 2_000_000_000}}}
	b, err := proto.Marshal(ref)
	require.NoError(t, err)
	m, err := Parse(b)
	require.NoError(t, err)
	require.Equal(t, Op(28), m.Op)
	require.Equal(t, "pull_query", m.Op.String())
	require.True(t, bytes.HasSuffix(m.Body, []byte{0x18, 0x80, 0xa8, 0xd6, 0xb9, 0x07}), "deadline as varint ns")
	require.Equal(t, b, m.Marshal())

	// field 13 { field 10 varint 5, field 10 varint 6 }
	unpacked := []byte{0x6a, 0x04, 0x50, 0x05, 0x50, 0x06}
	m, err = Parse(unpacked)
	require.NoError(t, err)
	require.Equal(t, []uint32{5, 6}, m.Handshake.SupportedACPs)
}

func TestCompressed(t *testing.T) {
	t.Parallel()
	enc, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	inner := (&Message{Op: OpPeerList, PeerList: &PeerList{Claims: sampleClaims()}}).Marshal()
	wrapped := (&Message{Op: OpCompressedZstd, Body: enc.EncodeAll(inner, nil)}).Marshal()
	require.Equal(t, byte(0x12), wrapped[0], "field 2, length-delimited")
	m, err := Parse(wrapped)
	require.NoError(t, err)
	require.Equal(t, sampleClaims(), m.PeerList.Claims)

	// Nested compression, bad zstd, and a bomb beyond 2 MiB are refused.
	nested := (&Message{Op: OpCompressedZstd, Body: enc.EncodeAll(wrapped, nil)}).Marshal()
	_, err = Parse(nested)
	require.ErrorIs(t, err, ErrParse)
	_, err = Parse((&Message{Op: OpCompressedZstd, Body: []byte("not zstd")}).Marshal())
	require.ErrorIs(t, err, ErrParse)
	big := (&Message{Op: 26, Body: make([]byte, MaxMessageSize)}).Marshal()
	_, err = Parse((&Message{Op: OpCompressedZstd, Body: enc.EncodeAll(big, nil)}).Marshal())
	require.Error(t, err)
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for name, b := range map[string][]byte{
		"empty":              nil,
		"only unknown field": {0x08, 0x01},
		"truncated tag":      {0x80},
		"truncated body":     {0x5a, 0x05, 0x08},
		"op as varint":       {0x58, 0x01},
		"ping uptime bytes":  {0x5a, 0x02, 0x0a, 0x00},
		"bad client":         {0x6a, 0x02, 0x48, 0x01},
		"bad packed list":    {0x6a, 0x03, 0x52, 0x01, 0x80},
		"bad claim":          {0x72, 0x02, 0x08, 0x01},
		"filter as varint":   {0x9a, 0x02, 0x02, 0x08, 0x01},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(b)
			require.ErrorIs(t, err, ErrParse)
		})
	}
}

func TestFrames(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	require.NoError(t, WriteFrame(w, []byte{1, 2, 3}))
	// The next frame leaves two bytes of w's buffer: the third's length does not fit there.
	filler := make([]byte, w.Available()-4-2)
	require.NoError(t, WriteFrame(w, filler))
	require.Equal(t, 2, w.Available())
	require.NoError(t, WriteFrame(w, []byte{4, 5}))
	require.NoError(t, w.Flush())
	framed := buf.Bytes()
	require.Equal(t, []byte{0, 0, 0, 3, 1, 2, 3}, framed[:7])
	r := bytes.NewReader(framed)
	for _, want := range [][]byte{{1, 2, 3}, filler, {4, 5}} {
		b, err := ReadFrame(r, MaxMessageSize)
		require.NoError(t, err)
		require.Equal(t, want, b)
	}
	require.Zero(t, r.Len())

	over := binary.BigEndian.AppendUint32(nil, MaxMessageSize+1)
	_, err := ReadFrame(bytes.NewReader(over), MaxMessageSize)
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = ReadFrame(bytes.NewReader([]byte{0, 0, 0, 9, 1}), MaxMessageSize)
	require.Error(t, err)
}

// FuzzParse checks that any input parses or fails with ErrParse/ErrTooLarge, never panics, and
// that a parsed network-level message encodes to bytes that parse to the same message.
func FuzzParse(f *testing.F) {
	f.Add([]byte{0x5a, 0x02, 0x08, 0x64})
	f.Add([]byte{0x62, 0x00})
	f.Add((&Message{Op: OpHandshake, Handshake: sampleHandshake()}).Marshal())
	f.Add((&Message{Op: OpPeerList, PeerList: &PeerList{Claims: sampleClaims()}}).Marshal())
	f.Add([]byte{0x12, 0x04, 0x28, 0xb5, 0x2f, 0xfd})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrParse) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		again, err := Parse(m.Marshal())
		require.NoError(t, err)
		require.Equal(t, m.Op, again.Op)
	})
}
