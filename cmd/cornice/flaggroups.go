package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagTopic is a heading of `cornice run --help` and the flags it holds: a name ending in "-"
// takes every flag it starts, any other name the flag of that name.
type flagTopic struct {
	title string
	names []string
}

// runTopics are the headings of `cornice run --help`, in order. A flag that none names goes under
// "Other flags", after them; TestRunHelpGroups fails when a setting of config.Settings does.
var runTopics = []flagTopic{
	{"API", []string{"http-", "api-"}},
	{"Network", []string{"network-", "public-ip", "staking-", "bootstrap-", "upgrade-file", "tx-fee",
		"create-asset-tx-fee", "uptime-requirement", "acp-"}},
	{"Consensus", []string{"snow-", "proposer-"}},
	{"Chains", []string{"evm-", "track-subnets", "chain-config-dir", "l1", "force", "dev-", "relay"}},
	{"Storage", []string{"data-dir", "index-"}},
	{"Logging", []string{"log-"}},
}

// topicOf returns the index in runTopics of the topic of the flag name, or -1.
func topicOf(name string) int {
	for i, t := range runTopics {
		for _, n := range t.names {
			if name == n || (strings.HasSuffix(n, "-") && strings.HasPrefix(name, n)) {
				return i
			}
		}
	}
	return -1
}

// groupedUsage is the usage function of `cornice run`: its flags under the headings of
// runTopics, each group in the order the flags were defined.
func groupedUsage(c *cobra.Command) error {
	groups := make([]*pflag.FlagSet, len(runTopics)+1)
	for i := range groups {
		groups[i] = pflag.NewFlagSet("", pflag.ContinueOnError)
		groups[i].SortFlags = false
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		i := topicOf(f.Name)
		if i < 0 {
			i = len(runTopics)
		}
		groups[i].AddFlag(f)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Usage:\n  %s\n", c.UseLine())
	for i, g := range groups {
		if !g.HasFlags() {
			continue
		}
		title := "Other"
		if i < len(runTopics) {
			title = runTopics[i].title
		}
		fmt.Fprintf(&b, "\n%s flags:\n%s", title, g.FlagUsages())
	}
	_, err := fmt.Fprint(c.OutOrStderr(), b.String())
	return err
}
