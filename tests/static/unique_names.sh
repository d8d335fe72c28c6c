#!/bin/sh
# Every C source and header in the tree has a name of its own: a name in a
# compiler's error, a stack trace, a grep's hit or a sentence of the
# documents then says which file it is without its folder (a run mode in
# frontends/ is <mode>_mode.c, the session's parts session_<what>.c).
. tests/lib.sh

# duplicates: the basenames that occur more than once among the paths on
# stdin, each with its paths, one name a line.
duplicates() {
	awk '{ n = $0; sub(/.*\//, "", n); paths[n] = paths[n] " " $0; count[n]++ }
		END { for (n in count) if (count[n] > 1) print n ":" paths[n] }' | sort
}

files=$(git ls-files '*.c' '*.h')
check "C sources and headers found ($(echo "$files" | wc -l))" [ "$(echo "$files" | wc -l)" -gt 300 ]
dups=$(echo "$files" | duplicates)
if [ -n "$dups" ]; then
	echo "$dups" | while IFS= read -r l; do fail "two files share a name: $l"; done
else
	pass "every C source and header has a name of its own"
fi

# The rule finds what it must, so that it cannot pass by finding nothing.
planted=$(printf 'a/census.c\nb/census.c\nb/census.h\nc/list.h\nd/list.h\n' | duplicates | tr '\n' ' ')
check "the rule finds the planted pairs, and only them ($planted)" \
	[ "$planted" = "census.c: a/census.c b/census.c list.h: c/list.h d/list.h " ]
