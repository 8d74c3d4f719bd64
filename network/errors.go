package network

import "errors"

// Reasons a connection is refused or dropped; each is also a label of the network_peer_refused
// metric (reason) and logged.
var (
	errBadIP             = errors.New("invalid IP")
	errBadClaim          = errors.New("invalid IP claim")
	errNetworkID         = errors.New("wrong network ID")
	errClockSkew         = errors.New("clock difference too large")
	errVersion           = errors.New("incompatible version")
	errTooManySubnets    = errors.New("too many tracked subnets")
	errBadSubnet         = errors.New("invalid tracked subnet")
	errACPConflict       = errors.New("ACP both supported and objected to")
	errBadKnownPeers     = errors.New("invalid known peers filter")
	errBadBLSSig         = errors.New("invalid BLS signature")
	errSecondHandshake   = errors.New("second handshake")
	errUnexpectedPong    = errors.New("unexpected pong")
	errBadUptime         = errors.New("uptime above 100")
	errMissingClient     = errors.New("handshake without client")
	errNotAllowed        = errors.New("connection not allowed")
	errDuplicate         = errors.New("already connected to this node")
	errSelf              = errors.New("connection to self")
	errWrongNode         = errors.New("dialled node presented another NodeID")
	errPeerListBeforeHS  = errors.New("peer list before handshake")
	errNoKnownPeersInMsg = errors.New("missing known peers filter")
)

// reason is the metric label of an error: the text of the first of the errors above it wraps.
func reason(err error) string {
	for _, e := range []error{errBadIP, errBadClaim, errNetworkID, errClockSkew, errVersion,
		errTooManySubnets, errBadSubnet, errACPConflict, errBadKnownPeers, errBadBLSSig,
		errSecondHandshake, errUnexpectedPong, errBadUptime, errMissingClient, errNotAllowed,
		errDuplicate, errSelf, errWrongNode, errPeerListBeforeHS, errNoKnownPeersInMsg} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return "other"
}
