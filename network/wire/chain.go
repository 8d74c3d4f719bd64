package wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/cornice-node/cornice/ids"
)

// The bootstrapping and consensus ops (network-consensus-warp.md §2.3, §3.2).
const (
	OpGetAcceptedFrontier Op = 19
	OpAcceptedFrontier    Op = 20
	OpGetAccepted         Op = 21
	OpAccepted            Op = 22
	OpGetAncestors        Op = 23
	OpAncestors           Op = 24
	OpGet                 Op = 25
	OpPut                 Op = 26
	OpPushQuery           Op = 27
	OpPullQuery           Op = 28
	OpChits               Op = 29
)

// EngineTypeChain is GetAncestors' engine_type for a linear chain (the reference's
// ENGINE_TYPE_CHAIN).
const EngineTypeChain = 2

// Chain is the body of a bootstrapping or consensus message. Every one names its chain and
// request; the other fields are set as the op has them:
//
//	GetAcceptedFrontier  Deadline
//	AcceptedFrontier     ContainerID
//	GetAccepted          Deadline, ContainerIDs
//	Accepted             ContainerIDs
//	GetAncestors         Deadline, ContainerID, EngineType
//	Ancestors            Containers
//	Get                  Deadline, ContainerID
//	Put                  Container
//	PushQuery            Deadline, Container, RequestedHeight
//	PullQuery            Deadline, ContainerID, RequestedHeight
//	Chits                PreferredID, AcceptedID, PreferredIDAtHeight, AcceptedHeight
type Chain struct {
	ChainID   ids.ID
	RequestID uint32
	// Deadline is how long the sender waits for the answer, in nanoseconds.
	Deadline            uint64
	ContainerID         ids.ID
	ContainerIDs        []ids.ID
	Container           []byte
	Containers          [][]byte
	EngineType          uint32
	RequestedHeight     uint64
	PreferredID         ids.ID
	AcceptedID          ids.ID
	PreferredIDAtHeight ids.ID
	AcceptedHeight      uint64
}

// IsChainOp reports whether op is a bootstrapping or consensus op, whose body is a Chain.
func IsChainOp(op Op) bool { return op >= OpGetAcceptedFrontier && op <= OpChits }

// IsRequest reports whether op asks for an answer: it carries a deadline.
func IsRequest(op Op) bool {
	switch op {
	case OpGetAcceptedFrontier, OpGetAccepted, OpGetAncestors, OpGet, OpPushQuery, OpPullQuery:
		return true
	}
	return false
}

// NewChain returns the message op with body c; op must be a chain op.
func NewChain(op Op, c *Chain) *Message {
	b := appendBytes(nil, 1, c.ChainID[:])
	b = appendUint(b, 2, uint64(c.RequestID))
	if IsRequest(op) {
		b = appendUint(b, 3, c.Deadline)
	}
	switch op {
	case OpAcceptedFrontier:
		b = appendBytes(b, 3, c.ContainerID[:])
	case OpChits:
		b = appendBytes(b, 3, c.PreferredID[:])
		b = appendBytes(b, 4, c.AcceptedID[:])
		b = appendBytes(b, 5, c.PreferredIDAtHeight[:])
		b = appendUint(b, 6, c.AcceptedHeight)
	case OpGetAccepted:
		b = appendIDs(b, 4, c.ContainerIDs)
	case OpAccepted:
		b = appendIDs(b, 3, c.ContainerIDs)
	case OpGetAncestors:
		b = appendBytes(b, 4, c.ContainerID[:])
		b = appendUint(b, 5, uint64(c.EngineType))
	case OpAncestors:
		for _, blk := range c.Containers {
			b = appendMsg(b, 3, blk)
		}
	case OpGet, OpPullQuery:
		b = appendBytes(b, 4, c.ContainerID[:])
	case OpPut:
		b = appendBytes(b, 3, c.Container)
	case OpPushQuery:
		b = appendBytes(b, 4, c.Container)
	}
	if op == OpPushQuery || op == OpPullQuery {
		b = appendUint(b, 6, c.RequestedHeight)
	}
	return &Message{Op: op, Body: b}
}

// appendIDs writes a repeated bytes field of IDs.
func appendIDs(b []byte, num protowire.Number, list []ids.ID) []byte {
	for _, id := range list {
		b = appendMsg(b, num, id[:])
	}
	return b
}

// chainField is where a field number of an op's body goes.
type chainField struct {
	id     *ids.ID
	ids    *[]ids.ID
	bytes  *[]byte
	list   *[][]byte
	uint64 *uint64
	uint32 *uint32
}

// fields maps op's field numbers to c's fields.
func (c *Chain) fields(op Op) map[protowire.Number]chainField {
	f := map[protowire.Number]chainField{1: {id: &c.ChainID}, 2: {uint32: &c.RequestID}}
	if IsRequest(op) {
		f[3] = chainField{uint64: &c.Deadline}
	}
	switch op {
	case OpAcceptedFrontier:
		f[3] = chainField{id: &c.ContainerID}
	case OpGetAccepted:
		f[4] = chainField{ids: &c.ContainerIDs}
	case OpAccepted:
		f[3] = chainField{ids: &c.ContainerIDs}
	case OpGetAncestors:
		f[4] = chainField{id: &c.ContainerID}
		f[5] = chainField{uint32: &c.EngineType}
	case OpAncestors:
		f[3] = chainField{list: &c.Containers}
	case OpGet:
		f[4] = chainField{id: &c.ContainerID}
	case OpPut:
		f[3] = chainField{bytes: &c.Container}
	case OpPushQuery:
		f[4] = chainField{bytes: &c.Container}
		f[6] = chainField{uint64: &c.RequestedHeight}
	case OpPullQuery:
		f[4] = chainField{id: &c.ContainerID}
		f[6] = chainField{uint64: &c.RequestedHeight}
	case OpChits:
		f[3] = chainField{id: &c.PreferredID}
		f[4] = chainField{id: &c.AcceptedID}
		f[5] = chainField{id: &c.PreferredIDAtHeight}
		f[6] = chainField{uint64: &c.AcceptedHeight}
	}
	return f
}

// ParseChain decodes the body of chain op op. Byte fields alias body. An ID field must be 32
// bytes, or absent (the zero ID); unknown fields are skipped, as proto3 does.
func ParseChain(op Op, body []byte) (*Chain, error) {
	if !IsChainOp(op) {
		return nil, fmt.Errorf("%w: %s is not a chain message", ErrParse, op)
	}
	c := &Chain{}
	fields := c.fields(op)
	err := walk(body, func(fd field) error {
		dst, ok := fields[fd.num]
		if !ok {
			return nil
		}
		switch {
		case dst.uint64 != nil || dst.uint32 != nil:
			if err := fd.want(protowire.VarintType); err != nil {
				return err
			}
			if dst.uint64 != nil {
				*dst.uint64 = fd.v
			} else {
				*dst.uint32 = uint32(fd.v)
			}
			return nil
		}
		if err := fd.want(protowire.BytesType); err != nil {
			return err
		}
		switch {
		case dst.bytes != nil:
			*dst.bytes = fd.raw
		case dst.list != nil:
			*dst.list = append(*dst.list, fd.raw)
		default:
			id, err := parseID(fd)
			if err != nil {
				return err
			}
			if dst.id != nil {
				*dst.id = id
			} else {
				*dst.ids = append(*dst.ids, id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func parseID(fd field) (ids.ID, error) {
	var id ids.ID
	if len(fd.raw) != len(id) {
		return id, fmt.Errorf("%w: field %d is %d bytes, not an ID of %d", ErrParse, fd.num, len(fd.raw), len(id))
	}
	copy(id[:], fd.raw)
	return id, nil
}
