package health

import "time"

// Report is the answer to a health query: the result of every selected check, keyed by check name,
// and whether all of them passed. Its JSON form is the reference's
// {"checks":{name:{…}},"healthy":bool} (node-api.md §2.3); encoding/json writes the keys sorted.
type Report struct {
	// Checks is never nil, so an empty report encodes as {"checks":{},"healthy":true}.
	Checks  map[string]Result `json:"checks"`
	Healthy bool              `json:"healthy"`
}

// Result is one check's outcome, with the reference's field names and order (node-api.md §2.3).
type Result struct {
	// Details is what the check returned besides its error; omitted when nil.
	Details any `json:"message,omitempty"`
	// Error is the check's error text; present only when the check failed.
	Error *string `json:"error,omitempty"`
	// Timestamp is when the check started, RFC 3339 with nanoseconds.
	Timestamp time.Time `json:"timestamp"`
	// Duration is how long the check ran, in integer nanoseconds.
	Duration time.Duration `json:"duration"`
	// ContiguousFailures counts the failed runs since the last success, this one included;
	// present only when failing.
	ContiguousFailures int64 `json:"contiguousFailures,omitempty"`
	// TimeOfFirstFailure is when the current run of failures began; present only when failing.
	TimeOfFirstFailure *time.Time `json:"timeOfFirstFailure,omitempty"`
}
