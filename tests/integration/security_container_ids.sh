#!/bin/sh
# sanitizer: yes
# container_id and k8s_pod_uid that a user cannot forge. Root delegates a
# cgroup to an unprivileged user (mkdir, chown: as systemd and container
# runtimes do for rootless workloads); the user's fake JVM makes
# kubepods.slice/...pod<UID>.../cri-containerd-<ID>.scope below it and moves
# itself there. Flat: the delegated group is under no container, so root's
# gctop reports no ids. Nested: the delegated group is inside a real
# (root-made) pod and container, so gctop reports the real ids, not the
# forged ones below. A root-made group of the same shape still gives its ids.
# The same inside a Docker-shaped container (no pod): the forged pod below
# it must not replace its id. Checked in --json and in --serve's /metrics.
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
IDS_TOP=""
ids_cleanup() {
	stop_fake_jvm
	if [ -n "$IDS_TOP" ] && [ -d "$IDS_TOP" ]; then
		i=0
		while [ -d "$IDS_TOP" ] && [ "$i" -lt 30 ]; do
			find "$IDS_TOP" -depth -type d -exec rmdir {} \; 2>/dev/null
			[ -d "$IDS_TOP" ] && sleep 0.1
			i=$((i + 1))
		done
	fi
	fake_jvm_cleanup
	cleanup
}
trap ids_cleanup EXIT INT TERM

[ "$(id -u)" -eq 0 ] && [ -n "$JVM_AS" ] || {
	if [ "${CI:-}" = "true" ]; then fail "must run as root with setpriv under CI=true"; else skip "needs root and setpriv"; fi
	exit 0
}

# The memory controller's hierarchy, where gctop reads the ids (v1: its own
# mount; v2: the unified one), and this shell's group in it.
if [ "$(stat -f -c %T /sys/fs/cgroup/memory 2>/dev/null)" = cgroupfs ]; then
	own=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") { sub(/^[^:]*:[^:]*:/, ""); print; exit } }' /proc/self/cgroup)
	BASE="/sys/fs/cgroup/memory${own%/}"
elif [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	BASE="/sys/fs/cgroup${own%/}"
else
	skip_unless_ci cgroup "this machine has no memory cgroup hierarchy this test can find"
	exit 0
fi
IDS_TOP="$BASE/gctop-ids-$$"
mkdir "$IDS_TOP" 2>/dev/null || { IDS_TOP=""; skip "cannot create a cgroup under $BASE"; exit 0; }

REAL_CID=1111111111111111111111111111111111111111111111111111111111111111
REAL_UID=11111111-2222-4333-8444-555555555555
FORGED_CID=abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdef0123
FORGED_UID=99999999-8888-4777-8666-555555555555
# kubepods path (systemd driver) of pod UID and container CID
kube_path() {
	u=$(echo "$1" | tr - _)
	echo "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$u.slice/cri-containerd-$2.scope"
}

# delegate DIR: root makes DIR and hands it to the fake JVM's user.
delegate() {
	mkdir -p "$1" && chown 65534:65534 "$1" "$1/cgroup.procs" &&
		{ [ ! -e "$1/tasks" ] || chown 65534:65534 "$1/tasks"; } &&
		{ [ ! -e "$1/cgroup.subtree_control" ] || chown 65534:65534 "$1/cgroup.subtree_control"; }
}

# forge DELEGATED: the user makes the forged pod and container below the
# delegated group and moves the fake JVM there (root first puts it in the
# delegated group, as the unit that starts a user's workload does).
forge() {
	echo "$FAKE_JVM" >"$1/cgroup.procs" || return 1
	dir="$1/$(kube_path "$FORGED_UID" "$FORGED_CID")"
	# shellcheck disable=SC2086
	$JVM_AS sh -c 'mkdir -p "$1" && echo "$2" >"$1/cgroup.procs"' - "$dir" "$FAKE_JVM" 2>"$WORK/forge.err" ||
		{ fail "the user cannot make the forged groups: $(head -c 300 "$WORK/forge.err")"; return 1; }
	grep -q "cri-containerd-$FORGED_CID" "/proc/$FAKE_JVM/cgroup"
}

# ids LABEL: gctop --json's container_id and k8s_pod_uid for the fake JVM,
# as "CID UID" ("- -" for none), in $WORK/ids.LABEL.
ids() {
	"$GCTOP_BIN" --json -p "$FAKE_JVM" -n 1 >"$WORK/$1.json" 2>"$WORK/$1.err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "$1: gctop --json exited $rc: $(head -c 300 "$WORK/$1.err")"; return 1; }
	json_get "$WORK/$1.json" 1 '"%s %s" % (d["target"].get("container_id") or "-", d["target"].get("k8s_pod_uid") or "-")' >"$WORK/ids.$1"
}
ids_are() { [ "$(cat "$WORK/ids.$1")" = "$2" ]; }

start_fake_jvm jdk17-G1.hsperfdata 'IdsMain' || exit 0

# Flat: a delegated group outside any container.
delegate "$IDS_TOP/flat" || { fail "cannot delegate $IDS_TOP/flat"; exit 0; }
if forge "$IDS_TOP/flat" && ids flat; then
	check "flat: a user's own kubepods/cri-containerd groups give no ids (got: $(cat "$WORK/ids.flat"))" ids_are flat "- -"
fi

# Nested: root's pod and container, a group delegated inside the container.
REAL="$IDS_TOP/nest/$(kube_path "$REAL_UID" "$REAL_CID")"
mkdir -p "$REAL" && delegate "$REAL/user" || { fail "cannot make the nested groups"; exit 0; }
if forge "$REAL/user" && ids nested; then
	check "nested: the real container and pod, not the user's below them (got: $(cat "$WORK/ids.nested"))" \
		ids_are nested "$REAL_CID $REAL_UID"
fi
# Nested in a container outside Kubernetes (Docker's systemd driver): the
# forged pod below must not replace the real container's id.
DOCKER="$IDS_TOP/system.slice/docker-$REAL_CID.scope"
mkdir -p "$DOCKER" && delegate "$DOCKER/user" || { fail "cannot make the Docker-shaped groups"; exit 0; }
if forge "$DOCKER/user" && ids docker; then
	check "nested in a Docker container: its id and no pod (got: $(cat "$WORK/ids.docker"))" ids_are docker "$REAL_CID -"
fi
echo "$FAKE_JVM" >"$REAL/user/cgroup.procs"

# --serve labels the fake JVM's series with the same ids.
serve_metrics() {
	"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$FAKE_JVM" 2>"$WORK/serve.err" &
	SPID=$!
	CHILD_PIDS="$CHILD_PIDS $SPID"
	wait_until 50 grep -qs 'serving http' "$WORK/serve.err" || { fail "--serve did not start: $(head -c 300 "$WORK/serve.err")"; return 1; }
	port=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
	wait_until 50 sh -c 'curl -s --max-time 2 "http://127.0.0.1:$1/metrics" >"$2" && grep -q "^gctop_target_info{pid=\"$3\"" "$2"' - "$port" "$WORK/metrics" "$FAKE_JVM"
	rc=$?
	kill "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	[ "$rc" -eq 0 ] || fail "--serve never served the fake JVM: $(head -c 300 "$WORK/serve.err")"
	return "$rc"
}
if command -v curl >/dev/null 2>&1 && serve_metrics; then
	check "--serve: the real container_id label, never the forged ids" \
		sh -c "grep -q 'container_id=\"$REAL_CID\"' '$WORK/metrics' && ! grep -q '$FORGED_CID\|$FORGED_UID' '$WORK/metrics'"
fi

# The same shape made by root alone still names its container and pod.
echo "$FAKE_JVM" >"$REAL/cgroup.procs"
if ids rootmade; then
	check "a root-made container group gives its ids (got: $(cat "$WORK/ids.rootmade"))" ids_are rootmade "$REAL_CID $REAL_UID"
fi
echo "$FAKE_JVM" >"$BASE/cgroup.procs"
