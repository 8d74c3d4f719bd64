package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/wallet"
)

// Defaults of the wallet commands' flags.
const (
	defaultNodeURI = "http://127.0.0.1:9650"
	// defaultWait bounds how long `cornice x` commands wait for acceptance.
	defaultWait = 30 * time.Second
)

// walletFlags are the flags the commands that sign share: the node to talk to and the key.
type walletFlags struct {
	nodeURI string
	key     string
	wait    time.Duration
}

// register defines --node-uri, --key and --wait.
func (f *walletFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.nodeURI, "node-uri", defaultNodeURI, "`URI` of the node's HTTP API")
	registerKeyFlag(fs, &f.key)
	fs.DurationVar(&f.wait, "wait", defaultWait, "how long to wait for the transaction to be accepted")
}

// registerKeyFlag defines --key.
func registerKeyFlag(fs *pflag.FlagSet, key *string) {
	fs.StringVar(key, "key", wallet.LocalKey,
		"private `key`, PrivateKey-<CB58> or hex; the default, the well-known local key, works only on local and custom networks")
}
