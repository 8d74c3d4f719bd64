// Package network is cornice's peer-to-peer layer, speaking the reference node's protocol
// (network-consensus-warp.md §1): mutual TLS 1.3 with staking certificates (a peer is its
// certificate's NodeID), length-framed p2p.Message protobufs (network/wire), the Handshake and
// PeerList exchange that makes a peer connected, Ping/Pong carrying uptimes, pull gossip of signed
// IP claims with bloom filters (network/bloom), and dialing with jittered backoff.
//
// A [Network] is built by New, bound by Listen and run by Run until its context ends. It owns one
// reader and one writer goroutine per connection, one dial loop per wanted node that is not
// connected, the accept loop and the gossip timer; Run returns once all of them have stopped.
//
// The network imports neither chains nor VMs. It calls a [Handler], which the node provides, when
// a peer connects or disconnects and for every chain message (bootstrapping, consensus, app) a
// connected peer sends; it reads validator weights through [Validators] and this node's measured
// uptime of a peer through [Uptimes]. [Network.Peers] describes the connected peers for
// info.peers, info.uptime and info.acps.
//
// Deliberate differences from the reference are in docs/decisions.md ("Peer-to-peer network").
package network
