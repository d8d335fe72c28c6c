#!/bin/sh
# No include circle between two modules: a.c needs b.c (calls what it
# defines, through b.h or a helper declared elsewhere) while b.c needs a.c
# (a != b). Two files that need each
# other are one module in two files, or share a helper that belongs to
# neither: a reader cannot understand one without the other. Break a circle
# by moving the one helper both need to where it belongs.
# (tests/static/include_circles.py finds them from the objects' symbols.)
#
# Prints one FAIL line per circle, naming both files.
. tests/lib.sh

LAYER_NAMES=$(layer_names)

# shellcheck disable=SC2046,SC2086
src=$(git ls-files -- $(printf '%s/ ' $LAYER_NAMES) | grep -E '\.c$' | grep -v '^frontends/main\.c$')
check "sources found ($(echo "$src" | wc -l) .c files)" [ -n "$src" ]
# shellcheck disable=SC2086
if ! found=$(python3 tests/static/include_circles.py "$GCTOP_BUILD/obj" $src); then
	fail "the modules' objects could not be read"
	exit 0
fi
bad=0
while read -r a b; do
	[ -n "$a" ] || continue
	fail "$a.c and $b.c need each other (each calls the other): move the helper one needs"
	bad=$((bad + 1))
done <<EOT
$found
EOT
check "no circle between two modules ($bad found)" [ "$bad" -eq 0 ]

# The check itself finds the circles it must (so a broken check cannot
# pass): x/b calls x/a back through a helper declared in x/b.h (x/b.c
# includes only its own header), x/c and x/d through each other's headers,
# and x/e only uses x/a.
T="$WORK/tree"
mkdir -p "$T/x" "$T/obj/x"
printf 'int a_help(void);\nint b_run(void);\n' >"$T/x/b.h"
printf '#include "x/b.h"\nint a_help(void) { return 1; }\nint a_run(void) { return b_run(); }\n' >"$T/x/a.c"
printf '#include "x/b.h"\nint b_run(void) { return a_help(); }\n' >"$T/x/b.c"
printf 'int c_run(void);\n' >"$T/x/c.h"
printf 'int d_run(void);\n' >"$T/x/d.h"
printf '#include "x/d.h"\nint c_run(void) { return d_run(); }\n' >"$T/x/c.c"
printf '#include "x/c.h"\nint d_run(void) { return 0; }\nint d_more(void) { return c_run(); }\n' >"$T/x/d.c"
printf 'int a_run(void);\nint e_run(void) { return a_run(); }\n' >"$T/x/e.c"
for m in a b c d e; do ${CC:-cc} -c -I"$T" -o "$T/obj/x/$m.o" "$T/x/$m.c"; done
planted=$(cd "$T" && python3 "$OLDPWD/tests/static/include_circles.py" obj x/a.c x/b.c x/c.c x/d.c x/e.c | tr '\n' ' ')
check "the check finds both planted circles, and only them ($planted)" [ "$planted" = "x/a x/b x/c x/d " ]
