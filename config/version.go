package config

import "runtime/debug"

// Version is cornice's semantic version.
const Version = "0.1.0"

// Current returns the version string the node reports, `cornice/<semver>` (DESIGN.md decision 6;
// the reference's is `avalanchego/<semver>`, node-api.md §3.8).
func Current() string {
	return "cornice/" + Version
}

// GitCommit returns the commit the binary was built from (the vcs.revision the Go toolchain
// stamps into builds inside a repository), or "" when the build carries none, as in tests and
// `go run` (node-api.md §3.8 allows an empty gitCommit).
func GitCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return s.Value
		}
	}
	return ""
}
