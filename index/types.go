package index

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Arguments and replies of the Index service (node-api.md §5.5). Keys match case-insensitively and
// unknown keys are ignored (§1.2 step 5). An omitted or null encoding is Hex; an omitted or null
// id is the zero ID; an omitted index is 0.

// Container is a container as the service returns it, with its keys in the reference's order
// (node-api.md §5.5). Every field is the wire text, ready to encode: plain strings encode faster
// than values with MarshalJSON, and a range reply holds 1024 of them.
type Container struct {
	// ID is the container's ID, in CB58.
	ID string `json:"id"`
	// Bytes is the container in the requested encoding: "0x" + hex, followed by a checksum
	// unless the encoding is hexnc.
	Bytes string `json:"bytes"`
	// Timestamp is when this node accepted the container, in UTC, RFC 3339 with up to nine
	// fraction digits, trailing zeros dropped (time.RFC3339Nano; node-api.md §5.6).
	Timestamp string `json:"timestamp"`
	// Encoding is the name of the encoding of Bytes, lower-case, as requested.
	Encoding string `json:"encoding"`
	// Index is the container's position in the index, from 0, in decimal (node-api.md §1.8).
	Index string `json:"index"`
}

// GetLastAcceptedArgs are the params of index.getLastAccepted.
type GetLastAcceptedArgs struct {
	Encoding ids.Encoding `json:"encoding"`
}

// GetContainerByIndexArgs are the params of index.getContainerByIndex.
type GetContainerByIndexArgs struct {
	Index    jsonrpc.Uint64 `json:"index"`
	Encoding ids.Encoding   `json:"encoding"`
}

// GetContainerByIDArgs are the params of index.getContainerByID.
type GetContainerByIDArgs struct {
	ID       ids.ID       `json:"id"`
	Encoding ids.Encoding `json:"encoding"`
}

// GetContainerRangeArgs are the params of index.getContainerRange.
type GetContainerRangeArgs struct {
	StartIndex jsonrpc.Uint64 `json:"startIndex"`
	NumToFetch jsonrpc.Uint64 `json:"numToFetch"`
	Encoding   ids.Encoding   `json:"encoding"`
}

// GetContainerRangeReply is the result of index.getContainerRange: an object wrapping the list, as
// in the reference (reference/README.md, "Precedence" 1). Containers is never null.
type GetContainerRangeReply struct {
	Containers []Container `json:"containers"`
}

// GetIndexArgs are the params of index.getIndex. An encoding, if sent, is ignored, as in the
// reference (node-api.md §5.5).
type GetIndexArgs struct {
	ID ids.ID `json:"id"`
}

// GetIndexReply is the result of index.getIndex.
type GetIndexReply struct {
	Index jsonrpc.Uint64 `json:"index"`
}

// IsAcceptedArgs are the params of index.isAccepted. An encoding, if sent, is ignored.
type IsAcceptedArgs struct {
	ID ids.ID `json:"id"`
}

// IsAcceptedReply is the result of index.isAccepted.
type IsAcceptedReply struct {
	IsAccepted bool `json:"isAccepted"`
}
