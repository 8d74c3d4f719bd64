package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/bench/internal/loopback"
)

// maxConns bounds the connections the soak's clients open to the node.
const maxConns = 16

// newHTTPClient returns the client every call of the soak goes through: loopback only, at most
// maxConns connections, requestTimeout per request.
func newHTTPClient(requestTimeout time.Duration) *http.Client {
	return loopback.NewClient(maxConns, requestTimeout)
}

// dialEth returns an eth_* client of the endpoint url over hc.
func dialEth(ctx context.Context, hc *http.Client, url string) (*ethclient.Client, error) {
	c, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(hc))
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	return ethclient.NewClient(c), nil
}
