#!/usr/bin/env bash
# test-layers.sh — `make test`'s body. First it builds everything the layers run, TEST_JOBS programs at a time
# (`make -j test-build`: the C tests' seven builds, dist/, build/replay_calls and the benches' programs; default: the
# machine's cores, 2 here and on CI). Then it runs the layers, each in a make of its own (so a make that started before
# tools/setup.sh installed Emscripten never decides what to build; a layer's own make then finds its programs built),
# and prints the build's and each layer's wall time at the end, with its result. Every layer runs even when another
# failed, so one CI run shows every failure; the exit status is the first failure's (in the order printed).
#
# Why two layers run side by side: the whole suite costs about 45 CPU-minutes, and the C layer alone keeps both cores
# busy for only part of its time (its last runs, tsan and the fuzzer, leave a core idle), while the browser layer's
# one-file-at-a-time run leaves the cores half idle (Chromium waits on frames). So the order is:
#   1. test-c, then test-node-threads (the threaded build's scene hashes, nothing timed), beside test-browser-shared
#      (the browser files whose waits are for steps and frames, never for a time; no C test asserts a time either: a
#      slower run changes only when it ends, tools/test-c.sh). The browser half runs about 3 minutes longer than the
#      C layer, at 1.2-1.7 busy cores: the hashes take the rest;
#   2. test-node-rest (the other Node files: their few timed checks, a refusal within 50 ms, a reply within 200 ms,
#      and bench_threads's stage times, want the cores to themselves);
#   3. test-browser-alone (the files that time the page's answers: the Makefile's BROWSER_ALONE).
# TEST_LAYERS_SERIAL=1 runs build, test-c, test-node, test-browser-shared, test-browser-alone one after another (the
# old order), for a machine where two layers at once would not fit in memory or to time one layer by itself.
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=${TEST_JOBS:-$(nproc)}
export TEST_C_JOBS=${TEST_C_JOBS:-$jobs}
serial=${TEST_LAYERS_SERIAL:-0}
logs=build/test-layers
mkdir -p "$logs"
declare -A secs status
order=()
t_start=$(date +%s)

# layer NAME: runs it (in the foreground), recording its wall time and status.
layer() {
	local name=$1 t0 s
	t0=$(date +%s)
	if [ "$name" = build ]; then
		make --no-print-directory -j"$jobs" test-build
	else
		# -o dist: the build made dist/, and dist is phony (its recipe starts with rm -rf dist/js), so a layer's own
		# make would make it again, under the browser half running beside it: CI saw the page test's
		# js/bundle/main.js answer 404 when test-node-threads started in the middle of test-browser-shared.
		make --no-print-directory -o dist "$name"
	fi
	s=$?
	echo "$(( $(date +%s) - t0 )) $s" >"$logs/$name.result"
}

record() {
	local name=$1 r
	r=$(cat "$logs/$name.result" 2>/dev/null || echo "0 1")
	secs[$name]=${r% *}
	status[$name]=${r#* }
	order+=("$name")
}

rm -f "$logs"/*.result "$logs"/*.log
layer build; record build
if [ "$serial" = 1 ]; then
	for name in test-c test-node test-browser-shared test-browser-alone; do layer "$name"; record "$name"; done
else
	# The browser half's output goes to its log and is printed whole when it ends (after the C layer's, which
	# prints each run whole as it ends), so the two never interleave their lines.
	layer test-browser-shared >"$logs/test-browser-shared.log" 2>&1 &
	browser=$!
	layer test-c
	layer test-node-threads
	wait "$browser"
	echo "---- test-browser-shared (beside test-c, then test-node-threads)"
	cat "$logs/test-browser-shared.log"
	record test-c; record test-node-threads; record test-browser-shared
	layer test-node-rest; record test-node-rest
	layer test-browser-alone; record test-browser-alone
fi

rc=0
echo
if [ "$serial" = 1 ]; then echo "make test: wall time per layer (in turn)"; else echo "make test: wall time per layer (test-c, then test-node-threads, beside test-browser-shared)"; fi
for name in "${order[@]}"; do
	s=${secs[$name]}
	if [ "${status[$name]}" -eq 0 ]; then r=passed; else r="FAILED (exit ${status[$name]})"; [ "$rc" -eq 0 ] && rc=${status[$name]}; fi
	printf '  %-20s %4d min %02d s  %s\n' "$name" $(( s / 60 )) $(( s % 60 )) "$r"
done
total=$(( $(date +%s) - t_start ))
printf '  %-20s %4d min %02d s\n' total $(( total / 60 )) $(( total % 60 ))
exit "$rc"
