package sigagg

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// DefaultQuorumPercentage is the quorum of a request that names none.
const DefaultQuorumPercentage = 67

// maxBody bounds a request: a warp message is at most 256 KiB, twice that in hex.
const maxBody = 1 << 20

// Aggregator signs a message by the validators of a subnet (*acp118.Aggregator).
type Aggregator interface {
	Aggregate(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum, buffer uint64) (*warp.Message, error)
}

// Subnets tells which subnet validates a chain (warp.ValidatorState).
type Subnets interface {
	SubnetOf(ctx context.Context, chainID ids.ID) (ids.ID, error)
}

// Request is the aggregator's request body.
type Request struct {
	// Message is the unsigned warp message, hex, "0x" optional.
	Message string `json:"message"`
	// Justification is hex, "0x" optional.
	Justification string `json:"justification"`
	// SigningSubnetID is hex or CB58; empty means the subnet of the message's source chain.
	SigningSubnetID string `json:"signing-subnet-id"`
	// QuorumPercentage is 1–100; 0 means DefaultQuorumPercentage.
	QuorumPercentage uint64 `json:"quorum-percentage"`
	// QuorumPercentageBuffer is how much more weight to gather when it can be had.
	QuorumPercentageBuffer uint64 `json:"quorum-percentage-buffer"`
}

// Response is the reply: the signed message, hex without "0x".
type Response struct {
	SignedMessage string `json:"signed-message"`
}

// errorResponse is the reply to a refused request: the reference aggregator's {"error": text},
// plus a code when the text alone would have to be matched.
type errorResponse struct {
	Error string `json:"error"`
	// Code is warp.CodeInsufficientWeight when the signers held less than the quorum, which a
	// client waiting for validators to catch up retries on; absent otherwise.
	Code int `json:"code,omitempty"`
}

// Service answers aggregation requests.
type Service struct {
	agg     Aggregator
	subnets Subnets
	log     *slog.Logger
}

// New returns the service over agg and subnets; log receives failed aggregations.
func New(agg Aggregator, subnets Subnets, log *slog.Logger) *Service {
	return &Service{agg: agg, subnets: subnets, log: log}
}

// ServeHTTP implements http.Handler.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, errorResponse{Error: errMethod})
		return
	}
	var req Request
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorResponse{Error: errDecodeBody})
		return
	}
	signed, status, refusal := s.aggregate(r.Context(), &req)
	if refusal.Error != "" {
		writeJSON(w, status, refusal)
		return
	}
	writeJSON(w, http.StatusOK, Response{SignedMessage: hex.EncodeToString(signed.Bytes())})
}

// aggregate checks req as the reference does and aggregates; on failure it returns the HTTP
// status and the error reply.
func (s *Service) aggregate(ctx context.Context, req *Request) (*warp.Message, int, errorResponse) {
	raw, err := hex.DecodeString(strings.TrimPrefix(req.Message, "0x"))
	if err != nil {
		return nil, http.StatusBadRequest, errorResponse{Error: errDecodeMessage}
	}
	msg, err := warp.ParseUnsignedMessage(raw)
	if err != nil {
		return nil, http.StatusBadRequest, errorResponse{Error: errUnpackMessage}
	}
	justification, err := hex.DecodeString(strings.TrimPrefix(req.Justification, "0x"))
	if err != nil {
		return nil, http.StatusBadRequest, errorResponse{Error: errDecodeJustification}
	}
	if zeroes(raw) && zeroes(justification) {
		return nil, http.StatusBadRequest, errorResponse{Error: errNothingToSign}
	}
	quorum := req.QuorumPercentage
	switch {
	case quorum == 0:
		quorum = DefaultQuorumPercentage
	case quorum > 100:
		return nil, http.StatusBadRequest, errorResponse{Error: errQuorum}
	}
	if quorum+req.QuorumPercentageBuffer > 100 {
		return nil, http.StatusBadRequest, errorResponse{Error: errQuorumBuffer}
	}
	var subnetID ids.ID
	if req.SigningSubnetID != "" {
		if subnetID, err = parseID(req.SigningSubnetID); err != nil {
			return nil, http.StatusBadRequest, errorResponse{Error: errSigningSubnet}
		}
	} else if subnetID, err = s.subnets.SubnetOf(ctx, msg.SourceChainID); err != nil {
		return nil, http.StatusInternalServerError, aggregateError(err)
	}
	signed, err := s.agg.Aggregate(ctx, msg, justification, subnetID, quorum, req.QuorumPercentageBuffer)
	if err != nil {
		s.log.Debug("signature aggregation failed", "messageID", msg.ID().String(), "err", err)
		return nil, http.StatusInternalServerError, aggregateError(err)
	}
	return signed, 0, errorResponse{}
}

// parseID reads an ID as "0x"-prefixed hex or CB58, as the reference does.
func parseID(s string) (ids.ID, error) {
	if strings.HasPrefix(s, "0x") {
		b, err := hex.DecodeString(s[2:])
		if err != nil {
			return ids.Empty, err
		}
		return ids.ToID(b)
	}
	return ids.FromString(s)
}

func zeroes(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v) // cannot fail: plain string fields
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b) // the client may be gone; nothing to do then
}
