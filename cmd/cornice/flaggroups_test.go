package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// TestRunHelpGroups: `cornice run --help` lists its flags under API, Network, Consensus, Chains, Storage,
// Logging and Other, in that order, each flag once and under its topic; every setting has a
// topic (issue #16 §3).
func TestRunHelpGroups(t *testing.T) {
	t.Parallel()
	_, _, code, stdout, stderr := runCLI(t, "run", "--help")
	require.Equal(t, 0, code, stderr)
	heading := regexp.MustCompile(`(?m)^(\w+) flags:$`)
	var titles []string
	for _, m := range heading.FindAllStringSubmatch(stdout, -1) {
		titles = append(titles, m[1])
	}
	require.Equal(t, []string{"API", "Network", "Consensus", "Chains", "Storage", "Logging", "Other"}, titles)

	// under maps each flag of the help to the heading above it.
	under := map[string]string{}
	title := ""
	flagLine := regexp.MustCompile(`^\s+(?:-\w, )?--([\w-]+)`)
	for line := range strings.Lines(stdout) {
		if m := heading.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
			title = m[1]
			continue
		}
		if m := flagLine.FindStringSubmatch(line); m != nil && title != "" {
			_, dup := under[m[1]]
			require.False(t, dup, "--%s listed twice", m[1])
			under[m[1]] = title
		}
	}
	want := map[string]string{
		"http-port": "API", "api-admin-enabled": "API", "network-id": "Network", "staking-port": "Network",
		"bootstrap-ips": "Network", "evm-block-time": "Chains", "l1": "Chains", "force": "Chains",
		"data-dir": "Storage", "index-enabled": "Storage", "log-level": "Logging", "log-format": "Logging",
		"config-file": "Other", "help": "Other",
	}
	for name, topic := range want {
		require.Equal(t, topic, under[name], "--%s", name)
	}
	for _, s := range config.Settings() {
		require.Contains(t, under, s.Name)
		require.NotEqual(t, "Other", under[s.Name], "--%s has no topic in runTopics", s.Name)
	}
}
