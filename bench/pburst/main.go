// Command pburst measures P-Chain issueTx end to end against a running node: it builds and signs
// a chain of BaseTxs with the local key (each spending the previous one's change, so none waits
// for a block), then issues them one after the other over HTTP, as fast as the node answers, and
// reports the issue rate and, given the node's process ID, the node's CPU time per tx read from
// /proc. Signing happens before the clock starts. It then waits until the last tx is committed.
//
// The local network's dynamic fee allows a burst of about 190 BaseTxs before the price climbs
// and the capacity refills at about 19 a second (docs/architecture.md, "P-Chain fees"), so a
// round is short: -n 150 by default, -rounds rounds with -rest between them to refill.
//
//	pburst -url http://127.0.0.1:9650 -pid $(pgrep -n cornice) -rounds 5
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pburst:", err)
		os.Exit(1)
	}
}

func run() error {
	url := flag.String("url", "http://127.0.0.1:9650", "the node's HTTP address")
	n := flag.Int("n", 150, "txs a round")
	rounds := flag.Int("rounds", 3, "rounds")
	rest := flag.Duration("rest", 12*time.Second, "pause between rounds, for the fee capacity to refill")
	pid := flag.Int("pid", 0, "the node's process ID, to read its CPU time (0: not read)")
	flag.Parse()
	if *n <= 0 || *rounds <= 0 {
		return errors.New("-n and -rounds must be positive")
	}
	ctx := context.Background()
	client, err := wallet.NewClient(*url, &http.Client{Timeout: time.Minute})
	if err != nil {
		return err
	}
	key, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return err
	}
	p, err := wallet.NewP(ctx, client, key, clock.Real{})
	if err != nil {
		return err
	}
	for r := range *rounds {
		if r > 0 {
			time.Sleep(*rest)
		}
		if err := round(ctx, p, key, *n, *pid); err != nil {
			return fmt.Errorf("round %d: %w", r+1, err)
		}
	}
	return nil
}

// round signs n chained BaseTxs, issues them and waits for the last.
func round(ctx context.Context, p *wallet.P, key *wallet.Key, n, pid int) error {
	b, err := p.Builder(ctx)
	if err != nil {
		return err
	}
	// The excess the burst itself adds raises the price; pay well above today's.
	b.GasPrice = max(b.GasPrice*100, 100)
	utxos, err := p.UTXOs(ctx)
	if err != nil {
		return err
	}
	signed := make([]*txs.Tx, n)
	for i := range signed {
		tx, err := b.Send(key, utxos, key.Address(), 1)
		if err != nil {
			return fmt.Errorf("build tx %d: %w", i, err)
		}
		signed[i] = tx
		utxos = utxos[:0]
		for _, u := range tx.UTXOs() {
			utxos = append(utxos, &u)
		}
	}
	cpu0, err := cpuTime(pid)
	if err != nil {
		return err
	}
	start := time.Now()
	for i, tx := range signed {
		if _, err := p.Issue(ctx, tx); err != nil {
			return fmt.Errorf("issue tx %d: %w", i, err)
		}
	}
	elapsed := time.Since(start)
	cpu1, err := cpuTime(pid)
	if err != nil {
		return err
	}
	if err := p.WaitAccepted(ctx, signed[n-1].ID(), time.Minute); err != nil {
		return err
	}
	line := fmt.Sprintf("%d txs in %v: %.0f tx/s", n, elapsed.Round(time.Microsecond), float64(n)/elapsed.Seconds())
	if pid != 0 {
		line += fmt.Sprintf(", node CPU %.1f µs/tx while issuing", float64(cpu1-cpu0)/float64(n)/1e3)
	}
	fmt.Println(line)
	return nil
}

// cpuTime returns the user and system time of process pid in nanoseconds, 0 for pid 0.
func cpuTime(pid int) (int64, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces) start after the last ')'.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	// Clock ticks are 100 a second on Linux.
	return (utime + stime) * int64(10*time.Millisecond), nil
}
