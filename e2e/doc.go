// Package e2e holds the tests that run cornice end to end: the binary built from cmd/cornice,
// driving real nodes through its wallet, `l1 create` and `run --l1` commands, five-validator
// networks started with `cornice network start` (agreement, faults, speed), stakers measuring
// each other's uptime over the peer-to-peer network (uptime_test.go), nodes built as
// `cornice run` builds them (node.New with vmset.For, on port 0 in a temporary directory) and
// driven over HTTP with real clients (wallet, go-ethereum's ethclient), node processes killed
// and restarted for crash atomicity, and the JavaScript clients of e2e/run.sh.
//
// The package has no code of its own besides this comment: everything is in _test.go files, so
// that cmd/cornice stays thin and its own tests stay about flags and texts. The binary is built
// once per test process, into a temporary directory, the first time a test runs it
// (docs/decisions.md, "Whole-binary tests live in e2e").
package e2e
