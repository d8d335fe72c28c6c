#!/bin/sh
# The picker finds a real Tomcat (Debian's tomcat10, its own CATALINA_BASE
# in a temp dir on a free loopback port) by what people type (issue 35):
# its main class is org.apache.catalina.startup.Bootstrap, so PROGRAM
# names it "Tomcat (org.apache.catalina.startup.Bootstrap)", and the
# filter searches the whole command line, so /tomcat and its base
# directory find it. Missing tomcat10: a skip, a failure under CI=true.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
TOMCAT_HOME=/usr/share/tomcat10
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
[ -x "$TOMCAT_HOME/bin/catalina.sh" ] || missing_runtime "Debian's tomcat10 (sh .ci/install-deps.sh installs it)"
[ -x "$JDK17/bin/java" ] || missing_runtime "JDK 17 at $JDK17"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE=$WORK/base-$$
mkdir -p "$BASE/conf" "$BASE/logs" "$BASE/temp" "$BASE/work" "$BASE/webapps"
cp /etc/tomcat10/web.xml /etc/tomcat10/catalina.properties /etc/tomcat10/logging.properties "$BASE/conf/"
sed "s/PORT/$PORT/" tests/java/tomcat/server.xml >"$BASE/conf/server.xml"
# catalina.sh run execs the JVM: $! is Tomcat's pid.
JAVA_HOME=$JDK17 CATALINA_HOME=$TOMCAT_HOME CATALINA_BASE=$BASE CATALINA_TMPDIR=$BASE/temp \
	CATALINA_OPTS="-Xmx128m -XX:+UseG1GC" "$TOMCAT_HOME/bin/catalina.sh" run >"$WORK/tomcat.log" 2>&1 &
TPID=$!
CHILD_PIDS="$CHILD_PIDS $TPID"
wait_for_hsperf "$TPID" 30 || { fail "Tomcat published no perf data: $(tail -c 300 "$WORK/tomcat.log")"; exit 0; }

tm new-session -d -x 160 -y 30 "$GCTOP_BIN; $(status_to gctop-exit "$WORK/status"); sleep 60"
check "the picker lists Tomcat by its known name" \
	wait_screen "^ *$TPID .*Tomcat \\(org\\.apache\\.catalina\\.startup\\.Bootstrap" 20
tm send-keys / && tm send-keys -l "tomcat" && tm send-keys Enter
check "/tomcat keeps Tomcat's row" wait_screen "^ *$TPID .*Tomcat " 10
check "... and the title says the filter matched" wait_screen "\\([1-9][0-9]* of [0-9]+ (found )?match \"tomcat\"" 5
tm send-keys / Escape
# a word of the command line alone: Tomcat's own base directory
tm send-keys / && tm send-keys -l "base-$$" && tm send-keys Enter
check "a word of the command line alone (its CATALINA_BASE) finds it" wait_screen "^ *$TPID .*Tomcat " 10
check "... and it alone" wait_screen "\\(1 of [0-9]+ (found )?match" 5
tm send-keys q
status=$(wait_exit 5)
check "q exits the picker with status 0 (got '$status')" test "$status" = 0
