package sigagg

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/warp"
)

// Texts of the error reply {"error": …}, the reference aggregator's: a request it cannot read is
// HTTP 400, an aggregation that fails HTTP 500.
const (
	errDecodeBody          = "Could not decode request body"
	errDecodeMessage       = "Could not decode message"
	errUnpackMessage       = "Error unpacking warp message"
	errDecodeJustification = "Could not decode justification"
	errNothingToSign       = "Must provide either message or justification"
	errQuorum              = "Invalid quorum number"
	errQuorumBuffer        = "Invalid quorum buffer number"
	errSigningSubnet       = "Error parsing signing subnet ID"
	errMethod              = "Method not allowed"
)

// aggregateError is the reply to a failed aggregation: the reference aggregator's text, with
// warp.CodeInsufficientWeight when the signers held less than the quorum (cornice's own: the
// reference aggregator sends the text alone).
func aggregateError(err error) errorResponse {
	reply := errorResponse{Error: fmt.Sprintf("failed to aggregate signatures. error: %s", err)}
	if errors.Is(err, warp.ErrInsufficientWeight) {
		reply.Code = warp.CodeInsufficientWeight
	}
	return reply
}
