package main

import (
	"errors"
	"fmt"
	"io"

	gethlog "github.com/ethereum/go-ethereum/log"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/vms/evm"
)

// configFileFlag names the JSON file applied before the flags.
const configFileFlag = "config-file"

// runFlags holds what the flags of `cornice run` parse into. Every setting's flag is bound to
// its field of values, whose defaults come from config.Default, so help and behaviour agree;
// parseRunConfig then copies only the flags the user set.
type runFlags struct {
	values     config.Config
	configFile string
	// l1 lists the genesis files of --l1; force lets them share an EVM chain ID.
	l1    []string
	force bool
}

// newRunCmd builds `cornice run`.
func newRunCmd(stdout, stderr io.Writer, start startFunc) *cobra.Command {
	f := &runFlags{values: config.Default()}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a node",
		Long: "Run a node until SIGINT or SIGTERM.\n\n" +
			"Settings come from the defaults, then --config-file (a JSON object keyed by flag name),\n" +
			"then the flags given on the command line, each overriding the one before.\n\n" +
			"Each --l1 creates an L1 from a Subnet-EVM genesis once the node serves, as `cornice l1 create`\n" +
			"does with the well-known local key; a later run with the same genesis reuses it.\n\n" +
			"Once the node serves (and the L1s exist), a banner on stdout says where to point a wallet:\n" +
			"each EVM chain's RPC and websocket URLs and chain ID, the X, P, info and index URLs, the funded\n" +
			"key and its addresses, whether dev methods are on, and the data dir. The log goes to stderr.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.parseRunConfig(cmd.Flags())
			if err != nil {
				return err
			}
			opts := runOptions{Stdout: stdout, Stderr: stderr}
			for _, path := range f.l1 {
				req, err := readL1Genesis(path, "", defaultL1Balance, defaultL1Weight, cfg.NetworkID)
				if err != nil {
					return fmt.Errorf("--l1: %w", err)
				}
				req.AllowSharedChainID = f.force
				opts.L1s = append(opts.L1s, req)
			}
			log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat, noColor())
			// go-ethereum, the C-Chain's library, logs through a process-wide logger that
			// discards everything until it is set: its warnings and errors go to ours.
			gethlog.SetDefault(evm.GethLogger(log))
			return start(cmd.Context(), cfg, log, opts)
		},
	}
	f.register(cmd.Flags())
	cmd.SetUsageFunc(groupedUsage)
	return cmd
}

// register defines one flag per config.Setting, plus --config-file.
func (f *runFlags) register(fs *pflag.FlagSet) {
	fs.SortFlags = false // keep the order of config.Settings, which groups related flags
	for _, s := range config.Settings() {
		flag := fs.VarPF(s.Bind(&f.values), s.Name, "", s.Usage)
		if s.IsBool() {
			flag.NoOptDefVal = "true" // --index-enabled means --index-enabled=true
		}
	}
	fs.StringVar(&f.configFile, configFileFlag, "",
		"`path` of a JSON file of settings keyed by flag name; flags given on the command line override it")
	fs.StringArrayVar(&f.l1, "l1", nil,
		"Subnet-EVM genesis `file` of an L1 to create once the node serves, or reuse if it exists; repeatable")
	fs.BoolVar(&f.force, "force", false, "create the L1s of --l1 even if the C-Chain or another L1 has their EVM chain ID")
}

// parseRunConfig builds the node's config: the defaults, then the config file if one was given,
// then every flag the user set explicitly. It resolves the upgrade schedule and validates the
// result, reporting every problem at once. It reads files but writes nothing.
func (f *runFlags) parseRunConfig(fs *pflag.FlagSet) (config.Config, error) {
	cfg := config.Default()
	if fs.Changed(configFileFlag) {
		if err := config.LoadFile(f.configFile, &cfg); err != nil {
			return config.Config{}, err
		}
	}
	for _, s := range config.Settings() {
		if fs.Changed(s.Name) {
			s.Copy(&cfg, &f.values)
		}
	}
	if err := errors.Join(cfg.ResolveUpgrades(), cfg.Validate()); err != nil {
		return config.Config{}, err
	}
	return cfg, nil
}
