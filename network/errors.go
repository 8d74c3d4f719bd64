package network

import "errors"

// refusal is a reason a connection is refused or dropped; its text is also its metric label.
type refusal string

func (r refusal) Error() string { return string(r) }

// Reasons a connection is refused or dropped; each is also a label of the network_peer_refused
// metric (reason) and logged.
var (
	errBadIP             = refusal("invalid IP")
	errBadClaim          = refusal("invalid IP claim")
	errNetworkID         = refusal("wrong network ID")
	errClockSkew         = refusal("clock difference too large")
	errVersion           = refusal("incompatible version")
	errTooManySubnets    = refusal("too many tracked subnets")
	errBadSubnet         = refusal("invalid tracked subnet")
	errACPConflict       = refusal("ACP both supported and objected to")
	errBadKnownPeers     = refusal("invalid known peers filter")
	errBadBLSSig         = refusal("invalid BLS signature")
	errSecondHandshake   = refusal("second handshake")
	errUnexpectedPong    = refusal("unexpected pong")
	errBadUptime         = refusal("uptime above 100")
	errMissingClient     = refusal("handshake without client")
	errNotAllowed        = refusal("connection not allowed")
	errDuplicate         = refusal("already connected to this node")
	errSelf              = refusal("connection to self")
	errWrongNode         = refusal("dialled node presented another NodeID")
	errPeerListBeforeHS  = refusal("peer list before handshake")
	errNoKnownPeersInMsg = refusal("missing known peers filter")
	errTooLarge          = refusal("message too large")
)

// reason is the metric label of an error: the text of the refusal it wraps, or "other".
func reason(err error) string {
	if r, ok := errors.AsType[refusal](err); ok {
		return string(r)
	}
	return "other"
}
