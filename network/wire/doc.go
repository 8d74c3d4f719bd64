// Package wire encodes and decodes the peer-to-peer messages of the reference node's protocol: the
// protobuf p2p.Message with the reference's field numbers (network-consensus-warp.md §1.3–1.7),
// zstd-compressed messages, and the 4-byte length framing.
//
// The network-level messages (Handshake, Ping, Pong, GetPeerList, PeerList) are parsed into Go
// structs; chain messages (bootstrapping, consensus, app, state sync) keep their op and body bytes
// for whoever handles them. The bootstrapping and consensus ones (§2.3, §3.2) parse from there with
// ParseChain and encode with NewChain; AppRequest, AppResponse and AppError (§1.3, the carriers of
// ACP-118) with ParseApp and NewApp. Decoding never panics: every input either parses or fails with
// an error wrapping ErrParse or ErrTooLarge.
package wire
