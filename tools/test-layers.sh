#!/usr/bin/env bash
# test-layers.sh — `make test`'s body. First it builds everything the layers run, TEST_JOBS programs at a time
# (`make -j test-build`: the C tests' seven builds, dist/, build/replay_calls and the benches' programs; default: the
# machine's cores, 2 here and on CI). Then it runs the three layers (C, Node, browser) one after another, each in a
# make of its own (so a make that started before tools/setup.sh installed Emscripten never decides what to build; a
# layer's own make then finds its programs built), and prints the build's and each layer's wall time at the end,
# with its result. Every layer runs even when an earlier one failed, so one CI run shows every failure; the exit
# status is the first failure's.
#
# Inside a layer the work is shared over the cores where that is safe: the C layer's runs two at a time
# (tools/test-c.sh), the Node files two at a time (node --test --test-concurrency=2). The layers themselves run in
# turn, not side by side: each keeps both cores busy, and the browser tests draw with software WebGL and their
# waits are sized for a machine that is not also compiling.
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=${TEST_JOBS:-$(nproc)}
export TEST_C_JOBS=${TEST_C_JOBS:-$jobs}
steps=(build test-c test-node test-browser)
declare -A secs status
rc=0
for step in "${steps[@]}"; do
	t0=$(date +%s)
	if [ "$step" = build ]; then
		make --no-print-directory -j"$jobs" test-build
	else
		make --no-print-directory "$step"
	fi
	s=$?
	secs[$step]=$(( $(date +%s) - t0 ))
	status[$step]=$s
	[ "$s" -ne 0 ] && [ "$rc" -eq 0 ] && rc=$s
done

total=0
echo
echo "make test: wall time per layer"
for step in "${steps[@]}"; do
	s=${secs[$step]}
	total=$(( total + s ))
	if [ "${status[$step]}" -eq 0 ]; then r=passed; else r="FAILED (exit ${status[$step]})"; fi
	printf '  %-13s %4d min %02d s  %s\n' "$step" $(( s / 60 )) $(( s % 60 )) "$r"
done
printf '  %-13s %4d min %02d s\n' total $(( total / 60 )) $(( total % 60 ))
exit "$rc"
