package wire

import (
	"fmt"
	"math"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/cornice-node/cornice/ids"
)

// The app ops that carry a request and its answer (network-consensus-warp.md §1.3). AppGossip
// (32) has no request ID and no answer; nothing here sends or reads it yet.
const (
	OpAppRequest  Op = 30
	OpAppResponse Op = 31
	OpAppError    Op = 34
)

// App is the body of an AppRequest, AppResponse or AppError. Every one names its chain and
// request; the other fields are set as the op has them:
//
//	AppRequest   Deadline (3), AppBytes (4)
//	AppResponse  AppBytes (3)
//	AppError     ErrorCode (3, sint32), ErrorMessage (4)
type App struct {
	ChainID   ids.ID
	RequestID uint32
	// Deadline is how long the sender waits for the answer, in nanoseconds.
	Deadline uint64
	AppBytes []byte
	// ErrorCode is the refusal's code: negative ones are the SDK's, positive ones the VM's.
	ErrorCode    int32
	ErrorMessage string
}

// IsAppOp reports whether op is AppRequest, AppResponse or AppError, whose body is an App.
func IsAppOp(op Op) bool {
	return op == OpAppRequest || op == OpAppResponse || op == OpAppError
}

// NewApp returns the message op with body a; op must be an app op.
func NewApp(op Op, a *App) *Message {
	b := appendBytes(nil, 1, a.ChainID[:])
	b = appendUint(b, 2, uint64(a.RequestID))
	switch op {
	case OpAppRequest:
		b = appendUint(b, 3, a.Deadline)
		b = appendBytes(b, 4, a.AppBytes)
	case OpAppResponse:
		b = appendBytes(b, 3, a.AppBytes)
	case OpAppError:
		b = appendUint(b, 3, protowire.EncodeZigZag(int64(a.ErrorCode)))
		// A proto3 string must be UTF-8, or the reference drops the whole message.
		b = appendBytes(b, 4, []byte(strings.ToValidUTF8(a.ErrorMessage, "\uFFFD")))
	}
	return &Message{Op: op, Body: b}
}

// ParseApp decodes the body of app op op. AppBytes aliases body. The chain ID must be 32 bytes
// or absent; unknown fields are skipped, as proto3 does.
func ParseApp(op Op, body []byte) (*App, error) {
	if !IsAppOp(op) {
		return nil, fmt.Errorf("%w: %s is not an app message", ErrParse, op)
	}
	a := &App{}
	err := walk(body, func(fd field) error {
		switch {
		case fd.num == 1:
			if err := fd.want(protowire.BytesType); err != nil {
				return err
			}
			id, err := parseID(fd)
			a.ChainID = id
			return err
		case fd.num == 2:
			a.RequestID = uint32(fd.v)
			return fd.want(protowire.VarintType)
		case fd.num == 3 && op == OpAppRequest:
			a.Deadline = fd.v
			return fd.want(protowire.VarintType)
		case fd.num == 3 && op == OpAppError:
			a.ErrorCode = int32(protowire.DecodeZigZag(fd.v & math.MaxUint32))
			return fd.want(protowire.VarintType)
		case (fd.num == 4 && op == OpAppRequest) || (fd.num == 3 && op == OpAppResponse):
			a.AppBytes = fd.raw
			return fd.want(protowire.BytesType)
		case fd.num == 4 && op == OpAppError:
			a.ErrorMessage = string(fd.raw)
			return fd.want(protowire.BytesType)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}
