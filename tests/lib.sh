# Shared helpers for the shell tests under tests/integration and tests/tui.
# Source it: . tests/lib.sh   (run from the repository root, as tests/run.sh does)

. tests/interpreter.sh
: "${GCTOP_BUILD:=build}"
: "${GCTOP_BIN:=$PWD/$GCTOP_BUILD/gctop}"
TEST_NAME=$(basename "$0" .sh)
# dotnet build must leave no build servers behind (CI ends with the tests),
# and says nothing about telemetry or first use.
export MSBUILDDISABLENODEREUSE=1 UseSharedCompilation=false DOTNET_CLI_USE_MSBUILD_SERVER=0
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
WORK=$(mktemp -d "/tmp/gctop-test.$TEST_NAME.XXXXXX")
CHILD_PIDS=""

CGROUP_MADE=""

cleanup() {
	for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; done
	for p in $CHILD_PIDS; do wait "$p" 2>/dev/null; done
	# A cgroup can only go once its last process has been waited for.
	if [ -n "$CGROUP_MADE" ] && [ -d "$CGROUP_MADE" ]; then
		i=0
		while ! rmdir "$CGROUP_MADE" 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	rm -rf "$WORK"
	[ -z "$STAGE_DIR" ] || rm -rf "$STAGE_DIR"
}
trap cleanup EXIT INT TERM

# stage_for_others PATH...: copies of the PATHs (files, or directories and
# what they hold) that any user can read and run, together in a new
# directory made by this test under /tmp and removed by its cleanup; sets
# STAGED to that directory (a copy keeps its name there). What a test runs
# as an unprivileged user (classes, scripts, built programs) is run from
# there: the checkout and $WORK may be directories only their owner can
# enter (a clone under /root, a mktemp -d directory).
STAGE_DIR=""
stage_for_others() {
	if [ -z "$STAGE_DIR" ]; then
		STAGE_DIR=$(mktemp -d "/tmp/gctop-stage.$TEST_NAME.XXXXXX") && chmod 755 "$STAGE_DIR" || return 1
	fi
	STAGED=$(mktemp -d "$STAGE_DIR/XXXXXX") && chmod 755 "$STAGED" &&
		cp -R "$@" "$STAGED"/ && chmod -R a+rX "$STAGED"
}

# The layers' folder names, lowest first, as LAYERS lists them (the
# Makefile reads the same lines).
layer_names() { sed -n 's/^\([a-z]\{1,\}\)[[:space:]].*/\1/p' LAYERS; }

pass() { echo "PASS: $TEST_NAME: $*"; }
fail() { echo "FAIL: $TEST_NAME: $*"; }
# skip CAUSE WHY...: a test, or a case of it, is not run. CAUSE is one word
# tests/run.sh counts the skips by; a skip whose cause CI's machine provides
# is skip_unless_ci's, so that CI cannot pass on a test it never ran. The
# causes skip alone takes are those CI cannot provide:
#   sanitizer  a bound on gctop's own memory, which ASan's allocator breaks
skip() {
	_skip_cause=$1
	shift
	echo "SKIP: $TEST_NAME: [$_skip_cause] $*"
}
# skip_unless_ci CAUSE WHY...: a skip whose cause CI's machine provides
# (it runs as root, on cgroup v1 or v2 with a memory controller, with
# NuGet, every runtime and every tool the tests use); under CI=true
# (.ci/run sets it) a failure. The causes:
#   runtime    a runtime or tool (.ci/install-deps.sh, or the JDK 25 and
#              .NET SDK the CI image carries)
#   root       root's rights (another user, capabilities, planted files)
#   cgroup     a memory cgroup this test can create and limit
#   namespace  pid or mount namespaces (unshare)
#   nuget      a NuGet package or an older runtime pack
# The caller ends the test or the case itself, as after skip.
skip_unless_ci() {
	if [ "${CI:-}" = "true" ]; then
		_skip_cause=$1
		shift
		fail "$* (cause $_skip_cause: CI's machine provides it, so under CI=true this is a failure)"
	else
		skip "$@"
	fi
}

# check DESCRIPTION COMMAND...: PASS when the command succeeds, FAIL otherwise.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# comparator NAME COMMAND...: runs a comparison program that prints its own
# "PASS: ..."/"FAIL: ..." lines, each as it is decided (flushed, so that a
# crash later keeps the verdicts before it). It exits 0 once it has decided
# every check, whatever the verdicts; any other status (an exception, a
# crash, a missing file) is one FAIL naming it, so a comparator that dies
# never drops its checks silently. Its status is returned.
comparator() {
	_cmp_name=$1
	shift
	"$@"
	_cmp_rc=$?
	[ "$_cmp_rc" -eq 0 ] ||
		fail "the comparator $_cmp_name stopped with status $_cmp_rc before deciding all its checks"
	return "$_cmp_rc"
}

# A missing runtime skips the test with a message; under CI=true it is a
# failure, because CI machines have every runtime.
missing_runtime() {
	skip_unless_ci runtime "$1 is missing; install it to run this test"
	exit 0
}

require_java() {
	command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 || missing_runtime "a JDK (java, javac)"
	command -v jstat >/dev/null 2>&1 || missing_runtime "jstat"
}

require_dotnet() {
	command -v dotnet >/dev/null 2>&1 || missing_runtime "the .NET SDK (dotnet)"
}

# The test programs (tests/java, tests/dotnet) do not depend on how gctop is
# built: they are built once into build/programs, shared by the plain and
# the sanitizer runs, under a lock, as the two lanes of tests/run.sh may
# ask for the same program at once.
PROGRAMS="$PWD/build/programs"

# under_lock NAME CMD...: runs CMD holding $PROGRAMS/NAME.lock.
under_lock() {
	mkdir -p "$PROGRAMS"
	_lock="$PROGRAMS/$1.lock"
	shift
	flock "$_lock" "$@"
}

# Compiles tests/java/*.java once into build/programs/java (again when a
# source is newer) and prints the directory.
java_classes() {
	out="$PROGRAMS/java"
	under_lock java sh -c '
		stamp="$1/.stamp"
		if [ ! -f "$stamp" ] || [ -n "$(find tests/java -name "*.java" -newer "$stamp" 2>/dev/null)" ]; then
			mkdir -p "$1" && javac -d "$1" tests/java/*.java && touch "$stamp"
		fi' - "$out" || return 1
	echo "$out"
}

# start_java LOGFILE JAVA_ARGS...: starts a JVM in the background, sets JPID.
start_java() {
	log=$1
	shift
	java "$@" >"$log" 2>&1 &
	JPID=$!
	CHILD_PIDS="$CHILD_PIDS $JPID"
}

# wait_until TENTHS COMMAND [ARG...]: runs COMMAND every tenth of a second
# until it succeeds, TENTHS tries at the most (the one bounded wait every
# test uses); returns 0 when it succeeded. COMMAND's words are expanded
# once, so a condition that must be read again (a glob, a count) is a
# function below.
wait_until() {
	_n=$1
	shift
	_i=0
	until "$@"; do
		[ "$_i" -ge "$_n" ] && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

# The conditions tests wait for.
file_exists() { [ -e "$1" ]; }
file_gone() { [ ! -e "$1" ]; }
process_gone() { ! kill -0 "$1" 2>/dev/null; }
hsperf_exists() { for _f in /tmp/hsperfdata_*/"$1"; do [ -e "$_f" ] && return 0; done; return 1; }
# The .NET runtime of PID has its diagnostics socket (in our /tmp, or the
# /tmp of the root given as $2).
dotnet_socket_exists() { ls "${2:-}"/tmp/dotnet-diagnostic-"$1"-*-socket >/dev/null 2>&1; }
# A test counts the connections its own gctop holds in a .NET process, never
# all of the process's sockets: another gctop (a picker, a --serve) or
# dotnet-counters watching the machine's .NET processes holds some too.
# gctop_ends GPID DPID: DPID's ends of its connections with process GPID
# (an EventPipe stream is one), one socket inode a line.
gctop_ends() { python3 tests/integration/unix_peers.py ends "$1" "$2"; }
# gctop_connections GPID DPID: how many there are.
gctop_connections() { gctop_ends "$1" "$2" | grep -c .; }
# ends_closed DPID "ENDS": ENDS (gctop_ends' output) is not empty, or this
# would pass for nothing, and DPID holds none of those sockets any more (it
# closed its ends of that gctop's connections).
# (Names of its own: it runs inside wait_until, whose counter is _i.)
ends_closed() {
	[ -n "$2" ] || return 1
	_ec_held=$(for _ec_f in /proc/"$1"/fd/*; do readlink "$_ec_f" 2>/dev/null; done)
	for _ec_end in $2; do
		case "$_ec_held" in *"socket:[$_ec_end]"*) return 1 ;; esac
	done
}
# orphan_ends DPID [INODE...]: DPID's connections whose client is gone (no
# process holds the other end), less the INODEs given, one a line: what a
# gctop that exited left open, also one whose pid the test never saw.
orphan_ends() { python3 tests/integration/unix_peers.py orphans "$@"; }
# no_orphan_ends DPID [INODE...]
no_orphan_ends() { [ -z "$(orphan_ends "$@")" ]; }
# FILE has at least N non-empty lines.
lines_at_least() { [ "$(grep -c . "$1" 2>/dev/null)" -ge "$2" ]; }
# count_matching FILE PATTERN: how many lines of FILE match (0 when missing).
count_matching() {
	_n=$(grep -c "$2" "$1" 2>/dev/null)
	echo "${_n:-0}"
}
# matching_at_least FILE PATTERN N
matching_at_least() { [ "$(count_matching "$1" "$2")" -ge "$3" ]; }
# wait_for_more FILE PATTERN N TENTHS: waits until FILE holds N more lines
# matching PATTERN than now (a workload's reports, or gctop's samples, past
# a point the comparison must cover); returns wait_until's status.
wait_for_more() {
	_more=$(($(count_matching "$1" "$2") + $3))
	wait_until "$4" matching_at_least "$1" "$2" "$_more"
}

# now_ms: CLOCK_REALTIME in milliseconds, for the tests that time how soon gctop answers.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# signal_after SIG DELAY gctop-args...: runs gctop (stdout to $SIGNAL_OUT,
# default $WORK/out; stderr to $WORK/err) and sends it SIG DELAY seconds
# after its start; sets ALIVE (1 when gctop still ran then), RC and MS (from
# the signal to the exit). A gctop that ignores SIG is killed after 20 s.
signal_after() {
	_sig=$1 _delay=$2
	shift 2
	"$GCTOP_BIN" "$@" >"${SIGNAL_OUT:-$WORK/out}" 2>"$WORK/err" &
	_g=$!
	(sleep 20; kill -KILL "$_g" 2>/dev/null) &
	_watchdog=$!
	sleep "$_delay"
	ALIVE=0
	kill -0 "$_g" 2>/dev/null && ALIVE=1
	_t0=$(now_ms)
	kill -"$_sig" "$_g"
	wait "$_g"
	RC=$?
	MS=$(($(now_ms) - _t0))
	kill "$_watchdog" 2>/dev/null
}

# status_to NAME FILE: shell words for a tmux pane that write "NAME=$?" (the
# status of the command before them) to FILE in one rename: a test polling
# for FILE must not read it between the shell's creating it and writing it.
status_to() { printf 'echo "%s=$?" > %s.new && mv %s.new %s' "$1" "$2" "$2" "$2"; }

# wait_for_file PATH SECONDS
wait_for_file() { wait_until $(($2 * 10)) file_exists "$1"; }

# wait_for_hsperf PID SECONDS: the JVM's perf-data file exists.
wait_for_hsperf() { wait_until $(($2 * 10)) hsperf_exists "$1"; }

# doctor_status FILE: the exit status gctop --doctor's report in FILE calls
# for, from its "Findings:" line (0 none, 12 info, 13 warning, 14 critical).
doctor_status() {
	case $(sed -n 's/^Findings: [0-9]*, worst //p; s/^Findings: none$/none/p' "$1") in
	none) echo 0 ;; info) echo 12 ;; warning) echo 13 ;; critical) echo 14 ;; *) echo "?" ;;
	esac
}

# json_get FILE LINE_NO EXPR: evaluates a Python expression on line LINE_NO
# (1-based, negative from the end) of an NDJSON file; prints the result.
json_get() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
n = int(sys.argv[2])
d = json.loads(lines[n - 1 if n > 0 else n])
print(eval(sys.argv[3], {"d": d, "lines": [json.loads(l) for l in lines]}))
PY
}

# dotnet_program NAME: builds tests/dotnet/NAME once into
# build/programs/dotnet/NAME (again when a source is newer) and prints the
# path of its executable. On a build error it prints nothing and returns 1;
# the build log is $WORK/dotnet-build-NAME.log.
# The sources are the .cs and .csproj files outside bin/ and obj/: dotnet
# build writes obj/.../NAME.csproj.FileListAbsolute.txt after the
# executable, which a find for "*.cs*" took for a newer source, so every
# program was built twice (~10 s of CPU each) and its .NET 8 and 9
# publishes could follow again.
dotnet_program() {
	dir="$PROGRAMS/dotnet/$1"
	under_lock "dotnet-$1" sh -c '
		if [ ! -x "$1/$2" ] || [ -n "$(find "tests/dotnet/$2" \( -name bin -o -name obj \) -prune -o \( -name "*.cs" -o -name "*.csproj" \) -newer "$1/$2" -print 2>/dev/null)" ]; then
			dotnet build -c Release -o "$1" "tests/dotnet/$2" >"$3" 2>&1
		fi' - "$dir" "$1" "$WORK/dotnet-build-$1.log" || return 1
	echo "$dir/$1"
}

# start_dotnet NAME LINES ARGS...: tests/dotnet/NAME (dotnet_program)
# started with ARGS, its output in $WORK/NAME.out, waited for (10 s at
# most) until it has printed LINES lines; sets DPID, which the cleanup
# kills. A build error fails the test and ends it.
start_dotnet() {
	sd_name=$1 sd_lines=$2
	shift 2
	sd_exe=$(dotnet_program "$sd_name") ||
		{ fail "cannot build tests/dotnet/$sd_name (log: $WORK/dotnet-build-$sd_name.log)"; exit 0; }
	"$sd_exe" "$@" >"$WORK/$sd_name.out" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 100 lines_at_least "$WORK/$sd_name.out" "$sd_lines"
}

# dotnet_program_net NAME MAJOR: tests/dotnet/NAME published self-contained
# for .NET MAJOR (8, 9), with the runtime packs restored from NuGet (the
# machine's SDK and shared runtime are .NET 10), into
# build/programs/dotnet/NAME-netMAJOR once (again when a source is newer);
# prints the executable's path. When the pack cannot be restored it prints
# the first error line of the publish and returns 1.
dotnet_program_net() {
	dir="$PROGRAMS/dotnet/$1-net$2"
	under_lock "dotnet-$1-net$2" sh -c '
		if [ ! -x "$1/$3" ] || [ -n "$(find "tests/dotnet/$3" \( -name bin -o -name obj \) -prune -o \( -name "*.cs" -o -name "*.csproj" \) -newer "$1/$3" -print 2>/dev/null)" ]; then
			src="$2/$3-net$4"
			mkdir -p "$src"
			cp "tests/dotnet/$3"/*.cs "tests/dotnet/$3"/*.csproj "$src"/
			sed -i "s#<TargetFramework>net10.0</TargetFramework>#<TargetFramework>net$4.0</TargetFramework>#" "$src/$3.csproj"
			if ! dotnet publish "$src" -c Release -r linux-x64 --self-contained -o "$1" >"$2/publish-$3-$4.log" 2>&1; then
				grep -m1 -E "error" "$2/publish-$3-$4.log"
				exit 1
			fi
		fi' - "$dir" "$WORK" "$1" "$2" || return 1
	echo "$dir/$1"
}

# make_memory_cgroup NAME LIMIT_BYTES: creates a memory cgroup NAME-$$ below
# this shell's own (v1: the memory hierarchy; v2: a group whose subtree has
# the memory controller), limited to LIMIT_BYTES, and sets GROUP to its
# directory; cleanup removes it. Where the machine does not allow it, the
# test is skipped with the reason and ends (a failure under CI=true).
make_memory_cgroup() {
	if [ "$(stat -f -c %T /sys/fs/cgroup/memory 2>/dev/null)" = cgroupfs ]; then
		path=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") { sub(/^[^:]*:[^:]*:/, ""); print; exit } }' /proc/self/cgroup)
		parent="/sys/fs/cgroup/memory${path%/}" limit_file=memory.limit_in_bytes
	elif [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		parent="/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)" limit_file=memory.max
		parent=${parent%/}
		grep -qw memory "$parent/cgroup.subtree_control" 2>/dev/null ||
			{ skip_unless_ci cgroup "the memory controller is not enabled below $parent (cgroup v2), so no limited group can be made"; exit 0; }
	else
		skip_unless_ci cgroup "this machine has no memory cgroup this test can find"
		exit 0
	fi
	GROUP="$parent/$1-$$"
	mkdir "$GROUP" 2>/dev/null ||
		{ skip_unless_ci cgroup "cannot create a cgroup under $parent; run as root or with a delegated group"; exit 0; }
	CGROUP_MADE=$GROUP
	echo "$2" >"$GROUP/$limit_file" 2>/dev/null || { skip_unless_ci cgroup "cannot set $limit_file in $GROUP"; exit 0; }
}
