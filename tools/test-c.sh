#!/usr/bin/env bash
# test-c.sh NAME=COMMAND... — the C layer's runs (`make test-c` gives them, once its binaries are built), TEST_C_JOBS
# at a time (default 2: this machine and CI have 2 cores). The runs are independent programs that write no files but
# their own logs (the tests' worlds are in memory; the fuzzer keeps build/fuzz-api.log and build/fuzz-corpus-short),
# and no C test asserts a time, so running two at once changes what each checks in nothing: only when it ends.
# The fuzzer runs for its fixed seconds either way, on a core of its own (two runs, two cores).
#
# Give the runs longest first (the order of `make test-c`): each starts as soon as a slot is free. Each run's output
# goes to build/test-c/NAME.log and is printed whole when the run ends, under a line with its name, wall time and
# result, so two runs never interleave their lines. Every run runs even when another failed; the exit status is 1
# when any failed, and the last line names them.
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=${TEST_C_JOBS:-2}
logs=build/test-c
rm -rf "$logs"
mkdir -p "$logs"

# One run: its output to its log, then (under a lock, so two that end together print one after the other) its
# heading and log to stdout, and its status to NAME.status.
run() {
	local name=$1 cmd=$2 t0 s
	t0=$(date +%s)
	bash -c "$cmd" >"$logs/$name.log" 2>&1
	s=$?
	echo "$s" >"$logs/$name.status"
	{
		flock 9
		printf -- '---- %s: %s (%d s, %s)\n' "$name" "$cmd" $(( $(date +%s) - t0 )) "$([ "$s" -eq 0 ] && echo passed || echo "FAILED, exit $s")"
		cat "$logs/$name.log"
	} 9>"$logs/.lock"
}

names=()
for spec in "$@"; do
	name=${spec%%=*}
	names+=("$name")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	run "$name" "${spec#*=}" &
done
wait

failed=()
for name in "${names[@]}"; do
	[ "$(cat "$logs/$name.status" 2>/dev/null)" = 0 ] || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "test-c: FAILED: ${failed[*]} (logs in $logs/)"
	exit 1
fi
echo "test-c: ${#names[@]} runs passed (logs in $logs/)"
