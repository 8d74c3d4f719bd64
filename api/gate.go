package api

import "net/http"

// RequireBootstrapped wraps a chain's handler so that it answers 503 text/plain
// "API call rejected because chain is not done bootstrapping" until bootstrapped reports true
// (node-api.md §2.3, §7 item 21). The node wraps every /ext/bc/... handler with it; /ext/info and
// /ext/index/... are not gated. bootstrapped is called on every request and must be cheap and
// safe for concurrent use.
func RequireBootstrapped(bootstrapped func() bool, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !bootstrapped() {
			http.Error(w, textNotBootstrapped, http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}
