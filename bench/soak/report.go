package main

import (
	"fmt"
	"io"
	"time"
)

// mib formats a byte count in MiB.
func mib[T int64 | uint64](n T) string { return fmt.Sprintf("%.1f", float64(n)/(1<<20)) }

// print writes the summary as markdown tables, then the invariants.
func (r *result) print(w io.Writer) {
	secs := r.loadTime.Seconds()
	fmt.Fprintf(w, "\nsoak: %s of load (L1 %s)\n\n", r.loadTime.Round(time.Millisecond), r.l1ID)
	fmt.Fprintln(w, "| chain | load | ok | failed | per s | mean ms | max ms |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	for _, s := range r.streams {
		s.mu.Lock()
		mean := 0.0
		if s.ok > 0 {
			mean = float64(s.total.Microseconds()) / float64(s.ok) / 1000
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.1f | %.1f | %.1f |\n", s.chain, s.kind, s.ok, s.failed,
			float64(s.ok)/max(secs, 1e-9), mean, float64(s.most.Microseconds())/1000)
		s.mu.Unlock()
	}
	fmt.Fprintf(w, "| all | read calls | %d | | %.1f | | |\n", r.reads, float64(r.reads)/max(secs, 1e-9))

	fmt.Fprintln(w, "\n| chain | height before | height after | blocks/s |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	for i, name := range chainNames {
		b, a := r.before.heights[i], r.after.heights[i]
		fmt.Fprintf(w, "| %s | %d | %d | %.1f |\n", name, b, a, float64(a-b)/max(secs, 1e-9))
	}

	var peak sample
	for _, s := range append([]sample{r.before, r.after}, r.series...) {
		peak.heapInuse = max(peak.heapInuse, s.heapInuse)
		peak.goroutines = max(peak.goroutines, s.goroutines)
		peak.fds = max(peak.fds, s.fds)
		peak.diskBytes = max(peak.diskBytes, s.diskBytes)
	}
	fmt.Fprintln(w, "\n| resource (whole process: node and load) | before load | peak | after load |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	fmt.Fprintf(w, "| heap in use, MiB | %s | %s | %s |\n", mib(r.before.heapInuse), mib(peak.heapInuse), mib(r.after.heapInuse))
	fmt.Fprintf(w, "| goroutines | %d | %d | %d |\n", r.before.goroutines, peak.goroutines, r.after.goroutines)
	fmt.Fprintf(w, "| open file descriptors | %d | %d | %d |\n", r.before.fds, peak.fds, r.after.fds)
	fmt.Fprintf(w, "| Pebble directory, MiB | %s | %s | %s |\n", mib(r.before.diskBytes), mib(peak.diskBytes), mib(r.after.diskBytes))

	if len(r.series) > 0 {
		fmt.Fprintln(w, "\n| t s | heap MiB | goroutines | fds | disk MiB | X | P | C | L1 |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, s := range r.series {
			fmt.Fprintf(w, "| %.0f | %s | %d | %d | %s | %d | %d | %d | %d |\n", s.at.Seconds(), mib(s.heapInuse),
				s.goroutines, s.fds, mib(s.diskBytes), s.heights[0], s.heights[1], s.heights[2], s.heights[3])
		}
	}

	fmt.Fprintf(w, "\ninvariants: %d hold, %d broken\n", len(r.checks.passed), len(r.checks.broken))
	for _, p := range r.checks.passed {
		fmt.Fprintln(w, "  ok     ", p)
	}
	for _, b := range r.checks.broken {
		fmt.Fprintln(w, "  BROKEN ", b)
	}
	fmt.Fprintf(w, "node ERROR log lines: %d\n", len(r.errorLines))
	for i, l := range r.errorLines {
		if i == maxErrs {
			fmt.Fprintf(w, "  … %d more\n", len(r.errorLines)-maxErrs)
			break
		}
		fmt.Fprintln(w, "  ", l)
	}
}
