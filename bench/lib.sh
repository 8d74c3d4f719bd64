# bench/lib.sh: what the bench scripts share, sourced by them (`. "$root/bench/lib.sh"`): a
# temporary directory, the servers they start and stop, and the clean-up when they exit.
#
#   bench_init NAME            creates $work and installs the traps (below);
#   bench_start LOG PAT CMD…   starts a server, waits until it says where it serves;
#   bench_stop PID             stops one;
#   cpu_ticks PID              a process's CPU time so far, in clock ticks.
#
# On exit, by any path (an error under `set -e`, Ctrl-C, SIGTERM), every server still running
# gets SIGTERM, then SIGKILL after 15 s, the last lines of $bench_log (when set) are printed if
# the script failed, and $work is deleted.

# bench_cornice_url is the sed program that prints a cornice node's HTTP base from its log.
# shellcheck disable=SC2034 # used by the scripts that source this file
bench_cornice_url='s/.*"msg":"cornice node started".*"httpAddr":"\([^"]*\)".*/http:\/\/\1/p'

# bench_init NAME: sets the prefix of messages to NAME, makes $work (/tmp/cornice-NAME.XXXXXX)
# and installs the traps.
bench_init() {
	bench_name=$1
	work=$(mktemp -d "/tmp/cornice-$1.XXXXXX")
	pids=()
	trap bench_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

bench_cleanup() {
	local rc=$? p
	trap - EXIT INT TERM
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do bench_stop "$p"; done
	if ((rc != 0)) && [[ -n ${bench_log:-} && -f $bench_log ]]; then
		echo "$bench_name: failed (exit $rc); last lines of $bench_log:" >&2
		tail -n 20 "$bench_log" >&2 || true
	fi
	rm -rf "$work"
	exit "$rc"
}

# bench_start LOG PATTERN CMD...: starts CMD in the background, its output to LOG, and waits (at
# most 60 s) until `sed -n PATTERN LOG` prints a line: that is $url, and the process's ID
# $started. The process is stopped on exit unless bench_stop stopped it before.
bench_start() {
	local log=$1 pattern=$2
	shift 2
	"$@" >"$log" 2>&1 &
	started=$!
	pids+=("$started")
	url=
	for _ in $(seq 600); do
		kill -0 "$started" 2>/dev/null || { echo "$bench_name: $1 exited; log:" >&2; cat "$log" >&2; return 1; }
		url=$(sed -n "$pattern" "$log" | head -n 1)
		[[ -n $url ]] && return 0
		sleep 0.1
	done
	echo "$bench_name: $1 did not start within 60 s" >&2
	return 1
}

# bench_stop PID: SIGTERM, then SIGKILL if it has not exited after 15 s. Not to be called in a
# subshell: only this shell can wait for its children.
bench_stop() {
	local pid=$1 p rest=()
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 150); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "$bench_name: process $pid ignored SIGTERM for 15 s, killing it" >&2
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
	for p in "${pids[@]}"; do [[ $p == "$pid" ]] || rest+=("$p"); done
	pids=("${rest[@]}")
}

# cpu_ticks PID: the process's user and system time so far, in clock ticks (getconf CLK_TCK a
# second).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
