#!/usr/bin/env bash
# test-layers.sh — `make test`'s body: runs the three layers (C, Node, browser) one after another, each in a make
# of its own (so a make that started before tools/setup.sh installed Emscripten never decides what to build), and
# prints each layer's wall time at the end, with its result. Every layer runs even when an earlier one failed, so
# one CI run shows every failure; the exit status is the first failure's.
#
# The layers run in turn, not side by side: the browser tests draw with software WebGL on this 2-core machine and
# their waits are sized for a machine that is not also compiling.
set -uo pipefail
cd "$(dirname "$0")/.."

layers=(test-c test-node test-browser)
declare -A secs status
rc=0
for layer in "${layers[@]}"; do
	t0=$(date +%s)
	make --no-print-directory "$layer"
	s=$?
	secs[$layer]=$(( $(date +%s) - t0 ))
	status[$layer]=$s
	[ "$s" -ne 0 ] && [ "$rc" -eq 0 ] && rc=$s
done

total=0
echo
echo "make test: wall time per layer"
for layer in "${layers[@]}"; do
	s=${secs[$layer]}
	total=$(( total + s ))
	if [ "${status[$layer]}" -eq 0 ]; then r=passed; else r="FAILED (exit ${status[$layer]})"; fi
	printf '  %-13s %4d min %02d s  %s\n' "$layer" $(( s / 60 )) $(( s % 60 )) "$r"
done
printf '  %-13s %4d min %02d s\n' total $(( total / 60 )) $(( total % 60 ))
exit "$rc"
