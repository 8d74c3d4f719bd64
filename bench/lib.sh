# bench/lib.sh: what the bench scripts share, sourced by them (`. "$root/bench/lib.sh"`): a
# temporary directory, the servers they start and stop, and the clean-up when they exit.
#
#   bench_init NAME            creates $work and installs the traps (below);
#   bench_start LOG PAT CMD…   starts a server, waits until it says where it serves;
#   bench_ready URL PID        waits until a node (or the bare server) answers on URL;
#   bench_track PID            has the clean-up stop a process started otherwise;
#   bench_stop PID             stops one (and sets stopped_ms); bench_wait PID waits for one;
#   cpu_ticks PID              a process's CPU time so far, in clock ticks;
#   kib PID FIELD, mib KIB     a memory field of /proc/PID/status in KiB; KiB written in MiB.
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
	bench_track "$started"
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

# bench_ready URL PID: waits (at most 60 s) until info.getNodeVersion answers with a result on
# URL (a node's /ext/info, or loadgen's bare server), served by process PID, which must not exit
# meanwhile.
bench_ready() {
	local url=$1 pid=$2
	for _ in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || { echo "$bench_name: process $pid exited before $url answered" >&2; return 1; }
		if curl -s --max-time 2 -H 'Content-Type: application/json' \
			-d '{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}' "$url" 2>/dev/null | grep -q '"result"'; then
			return 0
		fi
		sleep 0.1
	done
	echo "$bench_name: $url did not answer within 60 s" >&2
	return 1
}

# bench_stop PID: SIGTERM, then SIGKILL if it has not exited after 15 s; sets stopped_ms to the
# time it took. Not to be called in a subshell: only this shell can wait for its children.
stopped_ms=
bench_stop() {
	local pid=$1 t0
	t0=$(date +%s%N)
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 750); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "$bench_name: process $pid ignored SIGTERM for 15 s, killing it" >&2
		kill -KILL "$pid" 2>/dev/null || true
	fi
	bench_wait "$pid" || true
	stopped_ms=$((($(date +%s%N) - t0) / 1000000))
}

# bench_wait PID: waits until PID, a process of this shell, has exited, returns its status, and
# forgets it (the clean-up on exit no longer signals it: its ID may be another process's by then).
bench_wait() {
	local pid=$1 rc=0 p rest=()
	wait "$pid" 2>/dev/null || rc=$?
	for p in "${pids[@]}"; do [[ $p == "$pid" ]] || rest+=("$p"); done
	pids=("${rest[@]}")
	return "$rc"
}

# bench_track PID: has the clean-up on exit stop PID, a process this shell started itself.
bench_track() { pids+=("$1"); }

# cpu_ticks PID: the process's user and system time so far, in clock ticks (getconf CLK_TCK a
# second).
# measured_build names what a run measured: the CORNICE_BIN binary when one was given (the
# checkout's HEAD says nothing about it), else the checkout's commit, from which the run built.
measured_build() {
  if [[ -n ${CORNICE_BIN:-} ]]; then
    echo "Build $CORNICE_BIN"
  else
    echo "Commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  fi
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# kib PID FIELD: the FIELD (VmRSS, VmHWM) of /proc/PID/status, in KiB.
kib() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }

# mib KIB: KIB kibibytes written as "N.N MiB".
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
