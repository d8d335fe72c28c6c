#!/bin/sh
# Issue 37: a third runtime touches its folder and the registry, nothing
# else. In a copy of the tree, the skeleton (collectors/skeleton/) is listed
# in collectors/registry.c as a third runtime, the way CONTRIBUTING.md
# ("Adding a runtime") says, and nothing else is changed; the copy builds
# (the Makefile finds the folder by itself), and its static checks,
# --help, -l and every unit test pass there. --help and the sentences that
# name the runtimes then name it, from the registry alone. Last, a copy of
# the runtime's name put into shared code (tui/footer.c) is caught by
# runtime_names.py, as a review once found it was not.
#
# The copy reuses the tree's objects (their times kept, so make rebuilds
# what the registration changes: the registry, then every link) when the
# tree is built as tests/run.sh builds it; else it builds them all. The
# static checks that read no C code and no gctop output (contrib.sh,
# fresh_machine.sh, install_deps.sh, sanitizer_lane.sh, test_rules.sh)
# read nothing a registration changes and are not run again.
. tests/lib.sh

COPY="$WORK/tree"
STATIC="code_rules docs_agree include_circles layers opcount_words rooms runtime_names"
mkdir -p "$COPY/build"
# the tree as it is, tracked files and new ones, without what git ignores
git ls-files -co --exclude-standard -z | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$COPY"
if [ "$(basename "$GCTOP_BUILD")" = build ] && [ -f "$GCTOP_BUILD/libgctop.a" ]; then
	cp -a "$GCTOP_BUILD/obj" "$GCTOP_BUILD/libgctop.a" "$COPY/build/"
fi
cd "$COPY" || exit 1
# git's view of the copy, so that the static checks (git ls-files) read it
# and the last check can ask what the registration changed
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm copy
check "the copy holds the skeleton and the registry" [ -f collectors/skeleton/skeleton.c ]

# The registration: an extern and a row in gt_backends[], after .NET's.
sed -i -e '/^extern const struct gt_backend_ops gt_dotnet_ops;$/a extern const struct gt_backend_ops gt_skeleton_ops;' \
	-e 's/^\t&gt_dotnet_ops,$/&\n\t\&gt_skeleton_ops,/' collectors/registry.c
registered() { [ "$(grep -c 'gt_skeleton_ops' collectors/registry.c)" -eq 2 ]; }
check "the registry lists the skeleton ($(grep -n 'skeleton_ops' collectors/registry.c | tr '\n' ' '))" registered
changed=$(git status --porcelain | tr '\n' ' ')
check "the registration changed collectors/registry.c alone ($changed)" [ "$changed" = " M collectors/registry.c " ]

started=$(date +%s)
units=$(for c in tests/unit/test_*.c; do t=${c#tests/unit/}; echo "build/tests/${t%.c}"; done)
# (make of its own: none of an outer make's)
env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -j2 build/gctop $units >"$WORK/build.log" 2>&1
rc=$?
check "the copy builds with the skeleton registered in $(($(date +%s) - started))s (status $rc: $(grep -m1 -E 'error:|Error [0-9]' "$WORK/build.log"))" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || exit 0
GCTOP_BUILD=build GCTOP_BIN="$COPY/build/gctop"
export GCTOP_BUILD GCTOP_BIN

"$GCTOP_BIN" --help >"$WORK/help" 2>&1
rc=$?
check "--help exits 0 (status $rc)" [ "$rc" -eq 0 ]
check "--help names the third runtime: what it reads, as its traits say" grep -q 'or a Skeleton process' "$WORK/help"
check "--help's lines fit 80 columns (longest $(awk '{ print length }' "$WORK/help" | sort -n | tail -n 1))" \
	[ "$(awk 'length > 80' "$WORK/help" | wc -l)" -eq 0 ]

# -l: a process is the skeleton's only once it made its file (gctop
# itself never is); then it is listed, and it can be watched. (Another
# suite's test_skeleton may have made one for itself meanwhile: only
# this test's processes are looked for.)
sleep 60 &
SLEEPER=$!
CHILD_PIDS="$CHILD_PIDS $SLEEPER"
# skeleton_pid FILE PID: -l's JSON in FILE lists PID as the skeleton's.
skeleton_pid() { grep '"runtime":"skeleton"' "$1" | grep -q "\"pid\":$2[,}]"; }
sh -c 'echo "$$" >"$1"; exec "$2" -l --json' - "$WORK/gctop.pid" "$GCTOP_BIN" >"$WORK/list0" 2>&1
rc=$?
check "-l exits 0 with nothing arranged (status $rc)" [ "$rc" -eq 0 ]
# claims_none FILE PID...: -l's JSON in FILE lists none of the PIDs as the
# skeleton's (and the PIDs are given).
claims_none() {
	_f=$1
	shift
	[ $# -gt 0 ] || return 1
	for _p; do [ -n "$_p" ] && ! skeleton_pid "$_f" "$_p" || return 1; done
}
check "-l lists neither gctop nor a process that made no file as the skeleton's" \
	claims_none "$WORK/list0" "$(cat "$WORK/gctop.pid")" "$SLEEPER"
ARRANGED="/tmp/gctop-skeleton-$SLEEPER"
: >"$ARRANGED"
"$GCTOP_BIN" -l --json >"$WORK/list1" 2>&1
rc=$?
check "-l lists a process that made its file, as the skeleton's (status $rc)" skeleton_pid "$WORK/list1" "$SLEEPER"
"$GCTOP_BIN" -p "$SLEEPER" -b -n 2 -d 0.1 >"$WORK/batch" 2>&1
rc=$?
check "-b watches it (status $rc: $(head -c 200 "$WORK/batch" | tr "\n" " "))" [ "$rc" -eq 0 ]
rm -f "$ARRANGED"
"$GCTOP_BIN" -p "$SLEEPER" -b -n 1 >/dev/null 2>"$WORK/not"
rc=$?
check "a process of no runtime names the third too (status $rc: $(cat "$WORK/not"))" \
	grep -q 'a \.NET process nor a process that made /tmp/gctop-skeleton-<pid>' "$WORK/not"

# Every unit test, in the copy's root (some read the man page).
for t in $units; do
	"$t" >"$WORK/unit.log" 2>&1
	rc=$?
	check "$(basename "$t") passes with the skeleton registered (status $rc: $(grep -m1 '^FAIL' "$WORK/unit.log"))" \
		[ "$rc" -eq 0 ]
done

# The static checks, each with its own verdicts; one that decided nothing
# fails too.
decided_all() { [ "$1" -gt 0 ] && [ "$2" -eq 0 ]; }
for s in $STATIC; do
	sh "tests/static/$s.sh" >"$WORK/static.log" 2>&1
	p=$(grep -c '^PASS' "$WORK/static.log")
	f=$(grep -c '^FAIL' "$WORK/static.log")
	check "tests/static/$s.sh passes in the copy ($p passed, $f failed: $(grep -m1 '^FAIL' "$WORK/static.log"))" \
		decided_all "$p" "$f"
done

# The review's case: the new runtime's name in shared code.
printf 'static const char *const footer_runtime = "Skeleton";\n' >>tui/footer.c
names=$(python3 tests/static/runtime_names.py . 2>&1)
caught() { echo "$names" | grep -q '^FAIL: runtime_names: tui/footer.c:[0-9]* names a runtime'; }
check "runtime_names.py finds the third runtime's name put into tui/footer.c" caught
git checkout -q tui/footer.c
