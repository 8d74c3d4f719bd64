package l1validators

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Validator is one current validator of the chain's subnet, as the P-Chain reports it.
type Validator struct {
	// ValidationID is an L1 validator's validation ID, or a legacy subnet validator's
	// AddSubnetValidator transaction ID.
	ValidationID ids.ID
	NodeID       ids.NodeID
	Weight       uint64
	// StartTime is when the validation started, in unix seconds.
	StartTime uint64
	// IsActive is false for an L1 validator out of fee balance; always true for a legacy subnet
	// validator (reference/l1-evm.md §2.3).
	IsActive bool
	// IsL1Validator is true for an L1 (ACP-77) validator.
	IsL1Validator bool
}

// Source reads the chain's current validator set.
type Source interface {
	// CurrentValidators returns the current validators of the chain's subnet, in any order. Its
	// error is sent to the client after `failed to get current validator set: `. The slice is
	// only read.
	CurrentValidators(ctx context.Context) ([]Validator, error)
}

// Uptimes is this node's measure of the validators' uptime and connections; *uptime.Tracker
// satisfies it.
type Uptimes interface {
	// Uptime returns the validation's up time and the time it was computed at. An unknown
	// validation fails with the text `validationID not found: <id>`.
	Uptime(validationID ids.ID) (time.Duration, time.Time, error)
	// IsConnected reports whether the node is connected (on a single node, only itself).
	IsConnected(nodeID ids.NodeID) bool
}

// Service implements the validators API of one chain. Its exported method is the handler,
// callable directly; over HTTP it is reached through Handler.
type Service struct {
	src    Source
	up     Uptimes
	server *jsonrpc.Server
}

// New returns the validators API of a chain, reading it through src and up. log receives handler
// panics. It fails, wrapping ErrInvalidConfig, when src or up is nil.
func New(src Source, up Uptimes, log *slog.Logger) (*Service, error) {
	var errs []error
	if src == nil {
		errs = append(errs, configError("Source is required"))
	}
	if up == nil {
		errs = append(errs, configError("Uptimes is required"))
	}
	if log == nil {
		errs = append(errs, configError("logger is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s := &Service{src: src, up: up, server: jsonrpc.NewServer("validators", log)}
	jsonrpc.Register(s.server, "getCurrentValidators", s.GetCurrentValidators)
	return s, nil
}

// NewHandler returns the JSON-RPC handler to mount at /ext/bc/<blockchainID>/validators: New's
// service, served.
func NewHandler(src Source, up Uptimes, log *slog.Logger) (http.Handler, error) {
	s, err := New(src, up, log)
	if err != nil {
		return nil, err
	}
	return s.Handler(), nil
}

// Handler returns the JSON-RPC handler of the service.
func (s *Service) Handler() http.Handler { return s.server }

// GetCurrentValidators describes the chain's current validators, or those of args.NodeIDs
// (reference/l1-evm.md §2). If the uptime of any selected validator is unknown, the whole call
// fails, as in the reference (§2.5).
func (s *Service) GetCurrentValidators(ctx context.Context, args *GetCurrentValidatorsArgs) (*GetCurrentValidatorsReply, error) {
	vdrs, err := s.src.CurrentValidators(ctx)
	if err != nil {
		return nil, validatorSetError(err)
	}
	var want map[ids.NodeID]bool
	if len(args.NodeIDs) > 0 {
		want = make(map[ids.NodeID]bool, len(args.NodeIDs))
		for _, nodeID := range args.NodeIDs {
			want[nodeID] = true
		}
	}
	selected := make([]Validator, 0, len(vdrs))
	for _, v := range vdrs {
		if want == nil || want[v.NodeID] {
			selected = append(selected, v)
		}
	}
	slices.SortFunc(selected, func(a, b Validator) int {
		return cmp.Or(a.NodeID.Compare(b.NodeID), a.ValidationID.Compare(b.ValidationID))
	})

	reply := &GetCurrentValidatorsReply{Validators: make([]CurrentValidator, 0, len(selected))}
	for _, v := range selected {
		up, at, err := s.up.Uptime(v.ValidationID)
		if err != nil {
			return nil, uptimeError(v.ValidationID, err)
		}
		reply.Validators = append(reply.Validators, CurrentValidator{
			ValidationID:     v.ValidationID,
			NodeID:           v.NodeID,
			Weight:           v.Weight,
			StartTimestamp:   v.StartTime,
			IsActive:         v.IsActive,
			IsL1Validator:    v.IsL1Validator,
			IsConnected:      s.up.IsConnected(v.NodeID),
			UptimePercentage: percentage(up, at, v.StartTime),
			UptimeSeconds:    uint64(max(up, 0) / time.Second),
		})
	}
	return reply, nil
}

// percentage returns 100 × up / (at − start) as a float32, as the reference computes it
// (reference/l1-evm.md §2.4). When no time has passed since the start, the validator is 100% up;
// a start in the future is treated the same way, where the reference would divide by a negative
// duration.
func percentage(up time.Duration, at time.Time, startUnix uint64) float32 {
	// Clamped far below int64's limit: time.Unix wraps around for seconds near it, which
	// would put an impossible start (never sent by a real chain) in the distant past.
	start := time.Unix(int64(min(startUnix, math.MaxInt64/2)), 0)
	best := at.Sub(start)
	if best <= 0 {
		return 100
	}
	return float32(float64(up) / float64(best) * 100)
}
