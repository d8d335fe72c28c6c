#!/bin/sh
# make install honours PREFIX and DESTDIR, and the installed gctop finds its
# man page and the agent it loads for --allocators.
. tests/lib.sh
root="$WORK/root"
if ! make -s install BUILD="$GCTOP_BUILD" PREFIX=/opt/gctop DESTDIR="$root" >"$WORK/install.log" 2>&1; then
	fail "make install failed: $(tail -3 "$WORK/install.log")"
	exit 0
fi
check "gctop is installed under DESTDIR/PREFIX/bin" [ -x "$root/opt/gctop/bin/gctop" ]
check "the man page is installed under share/man/man1" [ -f "$root/opt/gctop/share/man/man1/gctop.1" ]
check "the agent is installed under lib/gctop" [ -f "$root/opt/gctop/lib/gctop/libgctop-agent.so" ]
check "nothing is installed outside DESTDIR/PREFIX" [ "$(find "$root" -mindepth 1 -maxdepth 1)" = "$root/opt" ]
"$root/opt/gctop/bin/gctop" --version >"$WORK/v" 2>&1
check "the installed gctop runs" grep -q '^gctop ' "$WORK/v"
