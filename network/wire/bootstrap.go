package wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/cornice-node/cornice/ids"
)

// The ops of the bootstrapping messages (network-consensus-warp.md §3.2).
const (
	OpGetAcceptedFrontier Op = 19
	OpAcceptedFrontier    Op = 20
	OpGetAccepted         Op = 21
	OpAccepted            Op = 22
	OpGetAncestors        Op = 23
	OpAncestors           Op = 24
)

// EngineTypeChain is GetAncestors' engine_type for a linear chain (the reference's
// ENGINE_TYPE_CHAIN, formerly Snowman).
const EngineTypeChain = 2

// Bootstrap is one bootstrapping message: GetAcceptedFrontier, AcceptedFrontier, GetAccepted,
// Accepted, GetAncestors or Ancestors, by Op. Every one carries ChainID (field 1) and RequestID
// (field 2); the requests carry Deadline (field 3, nanoseconds from receipt). The other fields
// are set for the ops that have them (§3.2):
//
//	AcceptedFrontier  container_id = 3   ContainerID
//	GetAccepted       container_ids = 4  ContainerIDs
//	Accepted          container_ids = 3  ContainerIDs
//	GetAncestors      container_id = 4   ContainerID, engine_type = 5  EngineType
//	Ancestors         containers = 3     Containers
//
// Parsed byte fields alias the parsed buffer.
type Bootstrap struct {
	Op           Op
	ChainID      ids.ID
	RequestID    uint32
	Deadline     uint64
	ContainerID  ids.ID
	ContainerIDs []ids.ID
	Containers   [][]byte
	EngineType   uint32
}

// isRequest reports whether op is a bootstrapping request, which has a deadline.
func isRequest(op Op) bool {
	return op == OpGetAcceptedFrontier || op == OpGetAccepted || op == OpGetAncestors
}

// Message returns b as a p2p.Message, ready to Marshal.
func (b *Bootstrap) Message() *Message {
	body := appendMsg(nil, 1, b.ChainID[:])
	body = appendUint(body, 2, uint64(b.RequestID))
	if isRequest(b.Op) {
		body = appendUint(body, 3, b.Deadline)
	}
	switch b.Op {
	case OpAcceptedFrontier:
		body = appendMsg(body, 3, b.ContainerID[:])
	case OpGetAccepted, OpAccepted:
		num := protowire.Number(3)
		if b.Op == OpGetAccepted {
			num = 4
		}
		for _, id := range b.ContainerIDs {
			body = appendMsg(body, num, id[:])
		}
	case OpGetAncestors:
		body = appendMsg(body, 4, b.ContainerID[:])
		body = appendUint(body, 5, uint64(b.EngineType))
	case OpAncestors:
		for _, c := range b.Containers {
			body = appendMsg(body, 3, c)
		}
	}
	return &Message{Op: b.Op, Body: body}
}

// ParseBootstrap decodes the body of m, a message of one of the bootstrapping ops. The chain ID
// and every container ID must be 32 bytes; a missing chain ID, or a missing container ID where
// the op has one, is an error.
func ParseBootstrap(m *Message) (*Bootstrap, error) {
	if m.Op < OpGetAcceptedFrontier || m.Op > OpAncestors {
		return nil, fmt.Errorf("%w: %s is no bootstrapping message", ErrParse, m.Op)
	}
	b := &Bootstrap{Op: m.Op}
	var haveChain, haveContainer bool
	err := walk(m.Body, func(fd field) error {
		switch {
		case fd.num == 1:
			haveChain = true
			return fd.id(&b.ChainID)
		case fd.num == 2:
			b.RequestID = uint32(fd.v)
			return fd.want(protowire.VarintType)
		case fd.num == 3 && isRequest(b.Op):
			b.Deadline = fd.v
			return fd.want(protowire.VarintType)
		case fd.num == 3 && b.Op == OpAcceptedFrontier, fd.num == 4 && b.Op == OpGetAncestors:
			haveContainer = true
			return fd.id(&b.ContainerID)
		case fd.num == 3 && b.Op == OpAccepted, fd.num == 4 && b.Op == OpGetAccepted:
			var id ids.ID
			if err := fd.id(&id); err != nil {
				return err
			}
			b.ContainerIDs = append(b.ContainerIDs, id)
		case fd.num == 3 && b.Op == OpAncestors:
			if err := fd.want(protowire.BytesType); err != nil {
				return err
			}
			b.Containers = append(b.Containers, fd.raw)
		case fd.num == 5 && b.Op == OpGetAncestors:
			b.EngineType = uint32(fd.v)
			return fd.want(protowire.VarintType)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("parse %s: %w", m.Op, err)
	case !haveChain:
		return nil, fmt.Errorf("%w: %s without a chain ID", ErrParse, m.Op)
	case !haveContainer && (b.Op == OpAcceptedFrontier || b.Op == OpGetAncestors):
		return nil, fmt.Errorf("%w: %s without a container ID", ErrParse, m.Op)
	}
	return b, nil
}

// id reads a 32-byte ID field into dst.
func (fd field) id(dst *ids.ID) error {
	if err := fd.want(protowire.BytesType); err != nil {
		return err
	}
	if len(fd.raw) != len(dst) {
		return fmt.Errorf("%w: field %d is %d bytes, not an ID", ErrParse, fd.num, len(fd.raw))
	}
	copy(dst[:], fd.raw)
	return nil
}
