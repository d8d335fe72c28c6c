#!/bin/sh
# Rules of the house that a reader can check by eye, checked here so they
# stay true: no function over 80 lines outside tests (one screen, read at
# once), and no mutable static buffer inside a function (it makes the code
# unsafe to run from two threads, and hides state between calls).
. tests/lib.sh

LIMIT=80
src=$(git ls-files '*.c' | grep -v '^tests/')
check "sources found to check ($(echo "$src" | wc -l) files)" [ -n "$src" ]

long=$(python3 tests/static/function_size.py "$LIMIT" $src)
if [ -n "$long" ]; then
	echo "$long" | while IFS= read -r l; do fail "over $LIMIT lines: $l"; done
else
	pass "no function over $LIMIT lines"
fi

# An indented `static` array or struct that is not const: a buffer or
# state kept inside a function.
inner_statics() {
	grep -nHE '^[[:space:]]+static[[:space:]]' "$@" |
		grep -v '[[:space:]]static[[:space:]]\+\(const[[:space:]]\|[a-z_ ]*[[:space:]]const[[:space:]]\)' |
		grep -E '\[|static[[:space:]]+struct[[:space:]]'
}
inner=$(inner_statics $src)
if [ -n "$inner" ]; then
	echo "$inner" | while IFS= read -r l; do fail "a mutable static buffer inside a function: $l"; done
else
	pass "no mutable static buffer inside a function"
fi

# The checkers themselves find what they must (so they cannot pass by
# finding nothing).
printf 'static int f(void)\n{\n%s\n}\n' "$(yes '	x++;' | head -n 90)" >"$WORK/long.c"
check "the size rule finds a 93-line function" [ -n "$(python3 tests/static/function_size.py "$LIMIT" "$WORK/long.c")" ]
printf 'static void f(void)\n{\n\tstatic char buf[64];\n\tstatic const int t[] = { 1 };\n}\n' >"$WORK/buf.c"
check "the buffer rule finds a static buffer, and only that" [ "$(inner_statics "$WORK/buf.c" | wc -l)" -eq 1 ]
