//go:build tools

// Package refnode pins the reference node, avalanchego v1.14.2, in a module of its own, so that
// interoperability tests can run a real reference node beside cornice without adding its
// dependencies to cornice's module. Build it with
//
//	go build -C e2e/refnode -o <path> github.com/ava-labs/avalanchego/main
//
// and name <path> in CORNICE_REFERENCE_NODE when running the tests (.ci/run does both).
package refnode

import _ "github.com/ava-labs/avalanchego/main"
