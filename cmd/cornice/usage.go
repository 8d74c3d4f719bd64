package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The texts of this file are cornice's own: they say what the user typed and what was expected,
// with none of the flag or parsing libraries' wording.

// groupCmd makes cmd, a command that only groups subcommands (cornice, cornice p, …), refuse
// anything that is not one of them: `cornice l1 creat --genesis f` is an unknown command
// "creat", not an unknown flag --genesis of `cornice l1`, so flags are not parsed here. With no
// argument, or only -h/--help, it prints its help, as before.
func groupCmd(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	// Two edits catch a swapped pair of letters ("sned"); cobra sets it only for the root.
	cmd.SuggestionsMinimumDistance = 2
	cmd.DisableFlagParsing = true
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		for _, arg := range args {
			if !strings.HasPrefix(arg, "-") {
				return unknownCommandError(cmd, arg)
			}
		}
		for _, arg := range args {
			if arg != "-h" && arg != "--help" {
				return fmt.Errorf("unknown flag %s for %q: give one of its commands: %s", arg, cmd.CommandPath(), commandNames(cmd))
			}
		}
		return cmd.Help()
	}
	return cmd
}

// unknownCommandError says that name is not a subcommand of cmd, with the nearest ones (within
// two edits, or a name it starts), or else the list of them.
func unknownCommandError(cmd *cobra.Command, name string) error {
	if near := cmd.SuggestionsFor(name); len(near) > 0 {
		slices.Sort(near)
		return fmt.Errorf("unknown command %q for %q; did you mean %s?", name, cmd.CommandPath(), quoteOr(near))
	}
	return fmt.Errorf("unknown command %q for %q; its commands are %s", name, cmd.CommandPath(), commandNames(cmd))
}

// commandNames lists cmd's subcommands, comma-separated.
func commandNames(cmd *cobra.Command) string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// quoteOr is `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
func quoteOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// flagError turns a flag library error into one line naming the flag and what it expects, e.g.
// `--http-port: invalid port "70000": must be a number from 0 to 65535` or
// `--amount: "-5" is not a whole number from 0 to 18446744073709551615`.
func flagError(_ *cobra.Command, err error) error {
	ive, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	flag := ive.GetFlag()
	// Only pflag's own number, duration and boolean values fail with strconv's or time's texts;
	// cornice's settings say what they expect themselves.
	_, fromStrconv := errors.AsType[*strconv.NumError](ive.Unwrap())
	fromTime := strings.HasPrefix(ive.Unwrap().Error(), "time: ")
	if want := expected(flag.Value.Type()); want != "" && (fromStrconv || fromTime) {
		return fmt.Errorf("--%s: %q is not %s", flag.Name, ive.GetValue(), want)
	}
	return fmt.Errorf("--%s: %w", flag.Name, ive.Unwrap())
}

// expected describes the values of a pflag type, or "" for the others.
func expected(typ string) string {
	switch typ {
	case "uint64":
		return "a whole number from 0 to " + strconv.FormatUint(1<<64-1, 10)
	case "uint8":
		return "a whole number from 0 to 255"
	case "duration":
		return "a duration such as 30s, 2m or 1h30m"
	case "bool":
		return "true or false"
	}
	return ""
}

// parseUintField reads the whole number s of the field named what, e.g. a --validator's weight.
func parseUintField(what, s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not %s", what, s, expected("uint64"))
	}
	return n, nil
}

// defaultScheme gives a node URI without a scheme, such as 127.0.0.1:9650, the http:// every
// node serves by default.
func defaultScheme(uri string) string {
	if uri != "" && !strings.Contains(uri, "://") {
		return "http://" + uri
	}
	return uri
}
