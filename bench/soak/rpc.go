package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// maxConns bounds the connections the soak's clients open to the node.
const maxConns = 16

// newHTTPClient returns the client every call of the soak goes through: loopback only (the
// dialer checks every address it dials), at most maxConns connections, requestTimeout per
// request.
func newHTTPClient(requestTimeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: dialLoopbackOnly}
	return &http.Client{
		Timeout: requestTimeout,
		Transport: &http.Transport{
			DialContext:         dialer.DialContext,
			MaxIdleConns:        maxConns,
			MaxIdleConnsPerHost: maxConns,
			MaxConnsPerHost:     maxConns,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// dialLoopbackOnly is a net.Dialer Control hook: it runs on the address actually dialled and
// refuses any that is not loopback.
func dialLoopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%w: dialled %s", errNotLoopback, address)
	}
	return nil
}

// dialEth returns an eth_* client of the endpoint url over hc.
func dialEth(ctx context.Context, hc *http.Client, url string) (*ethclient.Client, error) {
	c, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(hc))
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	return ethclient.NewClient(c), nil
}
