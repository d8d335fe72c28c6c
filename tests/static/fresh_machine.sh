#!/bin/sh
# Issue 37: on a fresh Debian machine `make check` asks .ci/install-deps.sh
# for what the build and the tests use that is missing, as root with
# apt-get itself (such machines often have no sudo), as a user through
# sudo, and says what it installs and why before it builds anything.
# Simulated, so that nothing is installed: no pkg-config module
# (PKG_CONFIG=/bin/false), a dpkg-query that reports $SIM_MISSING (every
# package when empty) not installed, an id that says $SIM_UID, an apt-get
# that records what it was asked and refuses the install (so make check
# stops there), and a PATH that has sudo only where the case wants it.
. tests/lib.sh
all=$(sh .ci/install-deps.sh --list)

# Every program of this PATH but sudo, as links in one directory.
mkdir -p "$WORK/bin" "$WORK/shim" "$WORK/sudo"
IFS=:
for d in $PATH; do cp -sn "$d"/* "$WORK/bin/" 2>/dev/null; done
unset IFS
rm -f "$WORK/bin/sudo"
cat >"$WORK/shim/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
case " ${SIM_MISSING:-$p} " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
EOF
cat >"$WORK/shim/id" <<'EOF'
#!/bin/sh
[ "$*" = -u ] && { echo "$SIM_UID"; exit 0; }
exec "$SIM_REAL_ID" "$@"
EOF
cat >"$WORK/shim/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get${SIM_SUDO:+ (through sudo)} $*" >>"$SIM_LOG"
[ "$1" = update ] && exit 0
echo "apt-get: simulated, nothing installed" >&2
exit 100
EOF
cat >"$WORK/sudo/sudo" <<'EOF'
#!/bin/sh
echo "sudo $*" >>"$SIM_LOG"
SIM_SUDO=1 exec "$@"
EOF
chmod +x "$WORK/shim/"* "$WORK/sudo/sudo"
SIM_REAL_ID=$(command -v id)
export SIM_REAL_ID

# fresh NAME UID MISSING [sudo]: make check as UID on a machine missing
# MISSING (all when empty); its output in $WORK/NAME.out, what apt-get was
# asked in $WORK/NAME.log, its status in RC.
fresh() {
	path="$WORK/shim:$WORK/bin"
	[ "${4:-}" = sudo ] && path="$WORK/sudo:$path"
	: >"$WORK/$1.log"
	# (run by make check: nothing of the outer make's)
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS PATH="$path" SIM_UID="$2" SIM_MISSING="$3" SIM_LOG="$WORK/$1.log" \
		make --no-print-directory check PKG_CONFIG=/bin/false >"$WORK/$1.out" 2>&1
	RC=$?
}
# said FILE TEXT: the first line of FILE is TEXT.
said() { [ "$(head -n 1 "$1")" = "$2" ]; }
# asked NAME LINE...: apt-get was asked exactly these.
asked() {
	_log=$WORK/$1.log
	shift
	[ "$(cat "$_log")" = "$(printf '%s\n' "$@")" ]
}
# built_nothing FILE: no compiler, archiver or test ran (make's output).
built_nothing() { ! grep -qE '^(cc|ar) |passed, ' "$1"; }

# root, no sudo on the machine: apt-get itself, for what is missing alone
missing="libjson-c-dev curl tmux"
fresh root 0 "$missing"
check "as root: make check stops where the install is refused (status $RC)" [ "$RC" -ne 0 ]
check "as root: it first says what it installs and why ($(head -n 1 "$WORK/root.out"))" said "$WORK/root.out" \
	"gctop: the build and the tests need these Debian packages, missing here: libjson-c-dev tmux curl; installing them with apt-get, as root"
check "as root: apt-get, not sudo, is asked for those packages ($(cat "$WORK/root.log"))" asked root \
	"apt-get update -qq" "apt-get install -y -qq libjson-c-dev tmux curl"
check "as root: nothing is built before the packages are in ($(sed -n 2,3p "$WORK/root.out"))" built_nothing "$WORK/root.out"

# a user with sudo, nothing installed: every package, through sudo
fresh user 1000 "" sudo
check "as a user: make check stops where the install is refused (status $RC)" [ "$RC" -ne 0 ]
check "as a user: it first says what it installs, why and how ($(head -n 1 "$WORK/user.out"))" said "$WORK/user.out" \
	"gctop: the build and the tests need these Debian packages, missing here: $all; installing them with sudo apt-get (sudo may ask for your password)"
check "as a user: sudo runs apt-get for every package of the list ($(cat "$WORK/user.log"))" asked user \
	"sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq" "apt-get (through sudo) update -qq" \
	"sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $all" "apt-get (through sudo) install -y -qq $all"

# a user without sudo: one sentence naming the packages and the way out
fresh nosudo 1000 "curl"
check "as a user without sudo: make check stops (status $RC)" [ "$RC" -ne 0 ]
check "as a user without sudo: one sentence says what is missing and what to run ($(head -c 300 "$WORK/nosudo.out"))" \
	grep -qx 'gctop: the build and the tests need these Debian packages, missing here: curl; I am not root and there is no sudo: run "sh .ci/install-deps.sh" as root and try again' "$WORK/nosudo.out"
check "as a user without sudo: apt-get is not run ($(cat "$WORK/nosudo.log"))" [ ! -s "$WORK/nosudo.log" ]
