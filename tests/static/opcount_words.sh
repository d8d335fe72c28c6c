#!/bin/sh
# "ops" is for interface tables, "opcount" for the operations counter
# (tests/static/opcount_words.py says what a hit is and what is allowed).
. tests/lib.sh
comparator opcount_words.py python3 tests/static/opcount_words.py .

# The rule finds what it must and only that, so it cannot pass by finding
# nothing.
cat >"$WORK/counter.c" <<'EOF'
static int set_ops(struct gt_sample *s) { return s->ops_total.valid; }
EOF
cat >"$WORK/allowed.c" <<'EOF'
/* ops_total in a comment; the option --ops */
static const struct gt_backend_ops *ops;
static void f(struct gt_sample *s) { add("ops_unavailable", s->opcount_unavailable); gctop_pub_set_ops(p); }
EOF
check "the rule finds set_ops and ops_total in code" \
	[ "$(python3 tests/static/opcount_words.py "$WORK/counter.c" | grep -c '(say opcount): ')" -eq 2 ]
check "the rule allows interface tables, comments, strings and the public header's names" \
	sh -c 'python3 tests/static/opcount_words.py "$1" | grep -q "^PASS: opcount_words: 0 identifiers in 1 files"' - "$WORK/allowed.c"
