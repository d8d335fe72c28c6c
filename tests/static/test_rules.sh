#!/bin/sh
# Three rules of the shell tests whose breach lets a check pass on nothing
# (tests/static/test_rules.py says why and how it reads the files):
# no `check`/`pass` followed by && or || (the condition after it decides
# nothing), no $? after a $(...) in the same command (under bash it is
# the substitution's status, 0), and no Python program that prints
# PASS/FAIL lines outside tests/lib.sh's comparator (its death would drop
# its checks silently).
. tests/lib.sh

files=$(find tests -name '*.sh' -o -name '*.shlib' | sort)
check "test scripts found ($(echo "$files" | wc -l) files)" [ -n "$files" ]
# shellcheck disable=SC2086
found=$(python3 tests/static/test_rules.py $files)
rc=$?
check "the rules' reader ran (status $rc)" [ "$rc" -eq 0 ]
for rule in after-check status-after-substitution bare-comparator; do
	hits=$(echo "$found" | grep -c ": $rule: ")
	echo "$found" | grep ": $rule: " | while IFS= read -r l; do fail "$l"; done
	check "no breach of $rule ($hits found)" [ "$hits" -eq 0 ]
done
other=$(echo "$found" | grep -v -e ': after-check: ' -e ': status-after-substitution: ' -e ': bare-comparator: ' | grep .)
check "the reader understood every file ($other)" [ -z "$other" ]

# The reader finds what it must, and only that (so it cannot pass by
# finding nothing): lines 1, 2, 5, 9, 11 and 18 below break a rule; the
# rest, the same words inside quotes, a here-document, before the check or
# through comparator, do not.
cat >"$WORK/planted.sh" <<'PLANTED'
check "a" [ -n "$x" ] && [ "$x" != False ]
check "b" \
	[ -n "$x" ] &&
	[ "$x" != False ]
pass "c" || exit 1
check "d" sh -c "[ -n '$x' ] && [ '$x' != False ]"
[ -x "$f" ] && check "e" true
check "f" eval '[ "$a" = 1 ] || [ "$b" = 1 ]'
check "g ($(cat "$WORK/err"))" [ $? -eq 0 ]
x=$(cat "$WORK/err"); rc=$?
check "h ($(cat "$WORK/err"))" \
	sh -c '[ "$1" -eq 1 ]' - $?
check "i ($(cat "$WORK/err"))" [ "$rc" -eq 0 ]
python3 - <<'PY'
check "j" [ a ] && [ b ] $(x) $?
PY
case $x in a) check "k" true ;; esac # check "l" x && y
python3 - "$WORK/g.json" <<'PY'
print("PASS: m")
PY
comparator "n" python3 - "$WORK/g.json" <<'PY'
print("PASS: n")
PY
PLANTED
planted=$(python3 tests/static/test_rules.py "$WORK/planted.sh" | sed 's/^[^:]*:\([0-9]*\): \([a-z-]*\):.*/\1 \2/' | tr '\n' ',')
check "the reader finds the planted breaches, and only them ($planted)" \
	[ "$planted" = "1 after-check,2 after-check,5 after-check,9 status-after-substitution,11 status-after-substitution,18 bare-comparator," ]

# tests/lib.sh's comparator keeps the verdicts a comparison printed before
# it died, and fails its death; one that decided everything adds nothing.
died=$(comparator planted python3 -c 'print("PASS: x: decided", flush=True); [][0]' 2>/dev/null | tr '\n' '|')
check "comparator keeps the verdicts before a crash and fails the crash ($died)" \
	[ "$died" = "PASS: x: decided|FAIL: test_rules: the comparator planted stopped with status 1 before deciding all its checks|" ]
lived=$(comparator planted python3 -c 'print("FAIL: x: decided", flush=True)' | tr '\n' '|')
check "comparator adds nothing to one that decided everything ($lived)" [ "$lived" = "FAIL: x: decided|" ]
