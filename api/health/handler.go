package health

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/cornice-node/cornice/jsonrpc"
)

// TagsArgs are the params of the health service's methods: {"tags":[...]}. Absent or empty tags
// select every check of the kind.
type TagsArgs struct {
	Tags []string `json:"tags"`
}

// Routes returns the health API's handlers keyed by path relative to /ext, for api.Server.AddRoute
// (node-api.md §2.3):
//
//   - "health": GET answers the Health report (filtered by ?tag=); any other method is the
//     JSON-RPC service "health" with methods health, readiness and liveness.
//   - "health/health", "health/readiness", "health/liveness": the report of that kind for any
//     HTTP method, filtered by ?tag=a&tag=b.
//
// A report over plain HTTP is answered 200 when healthy and 503 when not, with Content-Type
// application/json. Over JSON-RPC the report is the result and the HTTP status is always 200, as
// for every JSON-RPC reply of the reference (node-api.md §1.5); clients read "healthy".
func (c *Checker) Routes() map[string]http.Handler {
	rpc := jsonrpc.NewServer("health", c.log)
	jsonrpc.Register(rpc, "health", c.rpcHandler(Health))
	jsonrpc.Register(rpc, "readiness", c.rpcHandler(Readiness))
	jsonrpc.Register(rpc, "liveness", c.rpcHandler(Liveness))

	get := c.reportHandler(Health)
	return map[string]http.Handler{
		"health": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				get.ServeHTTP(w, r)
				return
			}
			rpc.ServeHTTP(w, r)
		}),
		"health/health":    get,
		"health/readiness": c.reportHandler(Readiness),
		"health/liveness":  c.reportHandler(Liveness),
	}
}

// rpcHandler answers one JSON-RPC method with the report of kind.
func (c *Checker) rpcHandler(kind Kind) func(context.Context, *TagsArgs) (*Report, error) {
	return func(ctx context.Context, args *TagsArgs) (*Report, error) {
		r := c.Report(ctx, kind, args.Tags...)
		return &r, nil
	}
}

// reportHandler answers any request with the report of kind for the request's ?tag= values.
func (c *Checker) reportHandler(kind Kind) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		report := c.Report(r.Context(), kind, r.URL.Query()["tag"]...)
		// Encode first, so that details a check returned that cannot be encoded give a clean 500
		// rather than a truncated body. The encoder adds the trailing newline, as the reference's does.
		var body bytes.Buffer
		if err := json.NewEncoder(&body).Encode(report); err != nil {
			c.log.Warn("cannot encode health report", slog.String("kind", kind.String()), slog.Any("err", err))
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if !report.Healthy {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_, _ = w.Write(body.Bytes())
	})
}
