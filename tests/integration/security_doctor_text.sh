#!/bin/sh
# sanitizer: yes
# --doctor's report prints no control character of a target's: an
# unprivileged user's fake JVM (security_fake_jvm.*) whose perf data names
# its version with an OSC title sequence (ESC ] 0 ; ... BEL), a
# right-to-left override (U+202E) and invalid UTF-8, and a fake .NET
# process (security_fake_dotnet.*) whose ProcessInfo names its runtime
# version with U+202E and U+2066. Each report is valid UTF-8 with no C0,
# C1 or bidirectional control, and still names the process on its first
# line, with the version in the sanitiser's form.
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
. tests/integration/security_fake_dotnet.shlib
trap 'fake_jvm_cleanup; fake_cleanup; cleanup' EXIT INT TERM
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

start_fake_jvm jdk17-G1.hsperfdata 'DoctorMain' '-Xmx64m' 'No GC' '17.0.9\x1b]0;PWNED\x07\xe2\x80\xaeevil\xff' || exit 0
FAKE_RUNTIME_VERSION='10.0.0\u202eevil\u2066x' start_fake stop 0.45 || exit 0

# doctor LABEL PID: gctop --doctor's report in $WORK/LABEL.out; its exit
# status is a finding's (0, 12-14) or a failure, which the test names.
doctor() {
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" --doctor -p "$2" -d 1 >"$WORK/$1.out" 2>"$WORK/$1.err"
	rc=$?
	case $rc in 0 | 12 | 13 | 14) ;; *) fail "$1: gctop --doctor exited $rc: $(head -c 300 "$WORK/$1.err")"; return 1 ;; esac
}
report_clean() {
	if why=$(clean "$WORK/$1.out" 2>&1); then pass "$1: --doctor's report has no control character"; else fail "$1: $why"; fi
}

if doctor jvm "$FAKE_JVM"; then
	report_clean jvm
	check "jvm: the first line names the process and the version, cleaned ($(head -n 1 "$WORK/jvm.out" | cat -v))" \
		grep -q "^gctop --doctor: PID $FAKE_JVM (.*17\.0\.9?\]0;PWNED??evil?" "$WORK/jvm.out"
fi
if doctor dotnet "$FAKE"; then
	report_clean dotnet
	check "dotnet: the first line names the process and the version, cleaned ($(head -n 1 "$WORK/dotnet.out" | cat -v))" \
		grep -q "^gctop --doctor: PID $FAKE (.*10\.0\.0?evil?x" "$WORK/dotnet.out"
fi
