#!/bin/sh
# make demo: install what is missing, build, start the demo workload, watch it.
set -eu
cd "$(dirname "$0")/.."
sh .ci/install-deps.sh demo
make -j2
mkdir -p build/demo
javac -d build/demo demo/Demo.java
java -Xmx256m -XX:+UseG1GC -cp build/demo Demo >build/demo/demo.log 2>&1 &
demo_pid=$!
# Interrupted: stop the workload too. (Not an EXIT trap: the status of its
# wait, 143 for the workload ended by SIGTERM, would become make's.)
trap 'kill $demo_pid 2>/dev/null; wait $demo_pid 2>/dev/null; exit 130' INT TERM
echo "demo workload started as pid $demo_pid; press q to quit gctop"
sleep 1
status=0
./build/gctop -p "$demo_pid" || status=$?
trap - INT TERM
kill $demo_pid 2>/dev/null
wait $demo_pid 2>/dev/null || true
exit $status
