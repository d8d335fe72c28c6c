#!/bin/sh
# The top of the tree holds what a newcomer reads first and nothing else: a
# file left there by a run (a -b output, a recording, a log) is refused.
# The allowed entries are listed once, below; the layers' folders come from
# LAYERS, so renaming a layer there renames it here.
. tests/lib.sh

# Every entry allowed at the top, files and folders.
TOP_LEVEL=".ci .gitignore CONTRIBUTING.md LAYERS Makefile README.md agent bench contrib demo man tests $(layer_names | tr "\n" " ")"

# unlisted ENTRY...: the entries TOP_LEVEL does not allow, one a line.
unlisted() {
	for e in "$@"; do
		case " $TOP_LEVEL " in *" $e "*) ;; *) echo "$e" ;; esac
	done
}

# The tracked entries at the top: a file's name, or the first folder of its path.
tracked=$(git ls-files | cut -d/ -f1 | sort -u)
# shellcheck disable=SC2086
stray=$(unlisted $tracked | tr '\n' ' ')
check "tracked top-level entries found ($(echo "$tracked" | wc -l))" [ "$(echo "$tracked" | wc -l)" -ge 10 ]
check "every tracked top-level entry is listed in tests/static/top_level.sh (not listed: $stray)" [ -z "$stray" ]
missing=
for e in $TOP_LEVEL; do
	echo "$tracked" | grep -qxF "$e" || missing="$missing $e"
done
check "every listed top-level entry is tracked (missing:$missing)" [ -z "$missing" ]

# The rule refuses what it must, so that it cannot pass by allowing all.
check "the rule refuses a stray b.txt and a recording" [ "$(unlisted b.txt mix25.json Makefile | tr '\n' ' ')" = "b.txt mix25.json " ]
check "the rule allows a layer's folder from LAYERS" [ -z "$(unlisted "$(layer_names | head -n 1)")" ]
