// Package api is cornice's HTTP server and router: it serves every API under the /ext prefix,
// adds the node-id header, answers CORS, filters the Host header, records metrics and logs each
// request once.
//
// # Request path
//
// Middleware runs in this order, outermost first (reference/node-api.md §2.2):
//
//  1. the response header node-id: NodeID-… on every response (Go writes it as Node-Id);
//  2. CORS, behaving as rs/cors v1.7.0 with credentials allowed;
//  3. the Host filter: 403 "invalid host specified" for names not in Config.AllowedHosts;
//  4. metrics and one Debug log line per request, labelled by the matched route;
//  5. the router: exact paths only, a non-clean path is redirected (301), anything else is a 404.
//
// The reference's Avalanche-Api-Route header routing (§2.2 item 4) is not implemented: requests
// are routed by path only.
//
// # Routes
//
// Routes are registered with [Server.AddRoute] and [Server.AddAliases] and may be added while the
// server is serving, since chains come up after the server starts. Reads of the route table take no
// lock: the table is an immutable map behind an atomic pointer, replaced on every change.
//
// # Concurrency
//
// All methods of [Server] are safe for concurrent use. Handlers passed in are called concurrently.
//
// # Metrics
//
// [New] registers only the server's own collectors on the Registerer it is given:
// api_requests_total and api_request_duration_seconds labelled by route (the matched path,
// "notFound" or "redirect") and method, and the api_requests_in_flight gauge. They count requests
// that reach the router, so CORS preflights and requests refused by the Host filter are not
// counted. The Go runtime and process collectors are process-wide; the caller (node/) registers
// them once on its root registry.
//
// # Deadlines and chain gating
//
// Each request's context gets a deadline of Config.WriteTimeout, set here once for every API
// (connection upgrades such as websockets excepted); no timer is armed until something asks for
// the context's Done. Every request's context also carries the node-wide jsonrpc.Limits
// (Config.BatchResponseMaxSize, Config.HeavyCalls) through the server's base context, for the
// JSON-RPC engine and the EVM chains' gate. [RequireBootstrapped] wraps a chain's
// handlers so that they answer 503 until the chain has bootstrapped (node-api.md §7 item 21).
package api
