#!/bin/sh
# The privilege contrib/systemd/gctop.service and the Kubernetes DaemonSet
# give gctop is enough and each capability in it is needed: gctop started
# the way systemd (or containerd and runc) starts it, from every privilege
# setting the file has (User=, SecureBits=, CapabilityBoundingSet=,
# AmbientCapabilities=, NoNewPrivileges=; runAsUser, capabilities.add,
# allowPrivilegeEscalation), watches a JVM and a .NET process of another
# user (nobody), with every mount read-only as ProtectSystem=strict makes
# them; without either capability one of the two is refused. A setting
# this cannot reproduce fails the test rather than being left out, since
# granting what the file does not (say, ambient capabilities it never
# asks for) hides a unit whose gctop holds none. GCTOP_UNIT and
# GCTOP_DAEMONSET name other files, to show a broken one fails.
# Needs root, setpriv and unshare; skips otherwise.
. tests/lib.sh
require_java
require_dotnet
[ "$(id -u)" -eq 0 ] || { skip_unless_ci root "needs root, to run workloads as another user and drop capabilities"; exit 0; }
for t in setpriv unshare; do command -v $t >/dev/null 2>&1 || { skip_unless_ci runtime "$t is missing"; exit 0; }; done
unshare -m true 2>/dev/null || { skip_unless_ci namespace "cannot make a mount namespace here"; exit 0; }
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
GCALLOC=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
stage_for_others "$CLASSES" "${GCALLOC%/*}" || { fail "cannot stage the workloads where nobody can read them"; exit 0; }
CLASSES=$STAGED/${CLASSES##*/} GCALLOC=$STAGED/GcAlloc/GcAlloc
UNIT=${GCTOP_UNIT:-contrib/systemd/gctop.service}
DAEMONSET=${GCTOP_DAEMONSET:-contrib/kubernetes/gctop-daemonset.yaml}
GCTOP=$(cd "$(dirname "$GCTOP_BIN")" && pwd)/$(basename "$GCTOP_BIN")

# The workloads as nobody (65534): an idle JVM, a .NET process allocating
# a little for 40 s (as_nobody execs, so $! is the workload).
as_nobody() { exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp DOTNET_CLI_HOME=/tmp "$@"; }
as_nobody java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
as_nobody "$GCALLOC" 2 40 0 0 0 >"$WORK/dotnet.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $DPID"
wait_for_hsperf "$JPID" 20 || { fail "the JVM of nobody published no perf data: $(head -c 300 "$WORK/jvm.log")"; exit 0; }
wait_until 100 dotnet_socket_exists "$DPID" || { fail "the .NET process of nobody has no socket: $(head -c 300 "$WORK/dotnet.log")"; exit 0; }

# caps_arg "CAP_A CAP_B" (or the DaemonSet's "A", "B"): ",+a,+b", setpriv's
caps_arg() {
	for c in $(echo "$1" | tr -d '[]",'); do
		c=${c#CAP_}
		printf ',+%s' "$(echo "$c" | tr 'A-Z' 'a-z')"
	done
}

# unit_profile: sets BOUND, AMBIENT and EXTRA (setpriv's other options) to
# what systemd does before it execs the unit's gctop; false, with WHY, for
# a setting this does not reproduce.
unit_value() { sed -n "s/^$1=//p" "$UNIT" | tr '\n' ' ' | sed 's/ *$//'; }
unit_profile() {
	for k in DynamicUser SupplementaryGroups PAMName Group; do
		[ -z "$(unit_value $k)" ] || { WHY="$UNIT has $k=, which this test does not reproduce"; return 1; }
	done
	case "$(unit_value CapabilityBoundingSet)$(unit_value AmbientCapabilities)" in
	*~*) WHY="$UNIT inverts a capability list (~), which this test does not reproduce"; return 1 ;;
	esac
	BOUND=$(caps_arg "$(unit_value CapabilityBoundingSet)")
	[ -n "$BOUND" ] || { WHY="$UNIT has no CapabilityBoundingSet="; return 1; }
	AMBIENT=$(caps_arg "$(unit_value AmbientCapabilities)")
	EXTRA=
	# systemd's SecureBits= words, one bit each ("noroot-locked" locks the
	# noroot bit, set or not); keep-caps does not outlive the execve
	bits=
	for b in $(unit_value SecureBits); do
		[ "$b" = keep-caps ] || bits="$bits,+$(echo "$b" | tr - _)"
	done
	[ -z "$bits" ] || EXTRA="$EXTRA --securebits=${bits#,}"
	case "$(unit_value NoNewPrivileges)" in yes | true | on | 1) EXTRA="$EXTRA --no-new-privs" ;; esac
	user=$(unit_value User)
	if [ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ]; then
		uid=$(id -u "$user") || { WHY="$UNIT runs as $user, not a user here"; return 1; }
		EXTRA="$EXTRA --reuid=$uid --regid=$(id -g "$user") --init-groups"
	fi
}

# daemonset_profile: the same for the DaemonSet's container. containerd
# puts the added capabilities in the bounding, permitted and effective
# sets, none in the inheritable or ambient ones, so they survive the
# execve for uid 0 alone.
ds_value() { sed -n "s/^ *$1: *//p" "$DAEMONSET" | head -n 1; }
daemonset_profile() {
	[ "$(ds_value privileged)" = false ] || { WHY="$DAEMONSET is privileged or does not say"; return 1; }
	BOUND=$(caps_arg "$(ds_value add)")
	[ -n "$BOUND" ] || { WHY="$DAEMONSET adds no capability"; return 1; }
	AMBIENT=
	EXTRA=
	[ "$(ds_value allowPrivilegeEscalation)" = false ] && EXTRA=" --no-new-privs"
	uid=$(ds_value runAsUser)
	[ -n "$uid" ] || { WHY="$DAEMONSET does not say runAsUser, so the image's user is"; return 1; }
	[ "$uid" -eq 0 ] || EXTRA="$EXTRA --reuid=$uid --regid=$(ds_value runAsGroup) --clear-groups"
}

# as_started BOUND AMBIENT CMD...: CMD started with the current profile's
# EXTRA, holding BOUND as its bounding set and AMBIENT as ambient (and
# inheritable, which ambient needs); nothing inherited from this shell.
as_started() {
	b=$1 a=$2
	shift 2
	# shellcheck disable=SC2086 # EXTRA is a list of options
	setpriv --inh-caps=-all$a --ambient-caps=-all$a --bounding-set=-all$b $EXTRA "$@"
}

# watch BOUND AMBIENT PID: gctop -p PID --json -n 1 started as above, in a
# mount namespace whose every mount is read-only.
watch() {
	unshare -m sh -c '
		mount --make-rprivate / && awk "{ print \$5 }" /proc/self/mountinfo | sort -r |
			while read -r m; do mount -o remount,bind,ro "$m" 2>/dev/null; done
		touch /tmp/.gctop-rw-probe-$$ 2>/dev/null && { rm -f /tmp/.gctop-rw-probe-$$; echo "/tmp is writable"; exit 9; }
		exec setpriv --inh-caps=-all$2 --ambient-caps=-all$2 --bounding-set=-all$1 $3 \
			"$4" -p "$5" --json -n 1' - "$1" "$2" "$EXTRA" "$GCTOP" "$3" >"$WORK/out.json" 2>"$WORK/out.err"
}

# without CAP LIST: LIST less CAP (",+a,+b" lists)
without() { echo "$2," | sed "s/,$1,/,/; s/,\$//"; }

MEASURED=
for f in unit daemonset; do
	${f}_profile || { fail "$f: $WHY"; continue; }
	# what gctop holds once exec'd: the capabilities must be effective
	status=$(as_started "$BOUND" "$AMBIENT" cat /proc/self/status)
	eff=$(echo "$status" | sed -n 's/^CapEff:[[:space:]]*//p')
	bnd=$(echo "$status" | sed -n 's/^CapBnd:[[:space:]]*//p')
	check "$f: gctop holds its bounding set $BOUND effective (CapEff $eff, CapBnd $bnd; setpriv$EXTRA)" \
		[ "${eff:-none}" = "$bnd" ]
	for p in "$JPID" "$DPID"; do
		watch "$BOUND" "$AMBIENT" "$p"
		rc=$?
		check "$f: gctop started as it would be, every mount read-only, watches pid $p of nobody ($rc: $(head -c 200 "$WORK/out.err"))" \
			grep -q "\"pid\":$p," "$WORK/out.json"
	done
	# each capability taken away in turn: something is refused (once for
	# a set already measured so)
	case " $MEASURED " in *" $BOUND/$AMBIENT "*) continue ;; esac
	MEASURED="$MEASURED $BOUND/$AMBIENT"
	for cap in $(echo "$BOUND" | tr ',' ' '); do
		refused=
		for p in "$JPID" "$DPID"; do
			watch "$(without "$cap" "$BOUND")" "$(without "$cap" "$AMBIENT")" "$p" || refused="$refused $p"
		done
		check "$f: without ${cap#+} gctop is refused some process (refused:$refused)" [ -n "$refused" ]
	done
done
