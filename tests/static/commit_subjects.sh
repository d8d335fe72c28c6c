#!/bin/sh
# Issue 37: a commit's subject is at most 72 characters, the why in its
# body, as git and the kernel keep them (`git log --oneline`, `git
# shortlog` and mail subjects cut or wrap past that). The 656 commits
# before the rule (median subject 162 characters) are left as they are:
# the check starts after RULE_BASE, the last commit made before it.
. tests/lib.sh
SUBJECT_MAX=72
base=$(git rev-parse -q --verify "da13c114^{commit}" 2>/dev/null)
if [ -z "$base" ]; then
	# a tarball, or a shallow clone that stops after the rule began
	skip history "no git history back to da13c114 here, nothing to hold to the rule"
	exit 0
fi
long=$(git log --format='%h %s' "$base..HEAD" | awk -v max=$SUBJECT_MAX 'length($0) - index($0, " ") > max')
n=$(git rev-list --count "$base..HEAD")
check "the $n commits since the rule have subjects of at most $SUBJECT_MAX characters${long:+ (longer: $(echo "$long" | head -n 3 | tr '\n' ';'))}" \
	[ -z "$long" ]
