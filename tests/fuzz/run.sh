#!/usr/bin/env bash
# run.sh BINARY SECONDS [CORPUS] -- runs the libFuzzer harness for SECONDS over the committed seed
# corpus (tests/fuzz/corpus, read only) and CORPUS (default build/fuzz-corpus, kept between runs;
# new inputs go there; FRESH=1 empties it first), with a per-input timeout and a memory cap. libFuzzer's own output goes to build/fuzz-api.log; the closing
# line is the test runners' summary, `fuzz (api): N passed, 0 failed`, N being the inputs run.
# On a crash, a failed check, a timeout or a leak it prints the end of the log (the harness
# prints the calls that led there), names the reproducer and exits 1. FUZZ_ARGS adds libFuzzer flags
# (make fuzz's second run: -len_control=0, so inputs grow to -max_len at once instead of creeping
# up from short ones; with the default length control they stayed under 811 of 4,096 bytes in 10
# minutes, so the long call sequences were never tried).
set -u
bin=$1
seconds=$2
corpus=${3:-build/fuzz-corpus}
case "$seconds" in '' | *[!0-9]*) echo "run.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
[ "${FRESH:-0}" = 1 ] && rm -rf "$corpus"
mkdir -p "$corpus" build/fuzz-artifacts
log=build/fuzz-api.log
echo "fuzz (api): $seconds s${FUZZ_ARGS:+ ($FUZZ_ARGS)} over tests/fuzz/corpus ($(ls tests/fuzz/corpus | wc -l) seeds) and $corpus ($(ls "$corpus" | wc -l) inputs); log in $log"
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 ${FUZZ_ARGS:-} \
	-artifact_prefix=build/fuzz-artifacts/ "$corpus" tests/fuzz/corpus >"$log" 2>&1
status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
if [ "$status" -eq 0 ] && [ -n "$runs" ]; then
	echo "fuzz (api): ${cov:-no coverage line}, $corpus now holds $(ls "$corpus" | wc -l) inputs"
	echo "fuzz (api): $runs passed, 0 failed"
	exit 0
fi
echo "---- end of $log" >&2
tail -n 80 "$log" >&2
echo "----" >&2
artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
[ -n "$artifact" ] && echo "fuzz (api): reproducer $artifact (replay: $bin $artifact; FUZZ_TRACE=1 prints every call)" >&2
echo "fuzz (api): $(( ${runs:-1} > 0 ? ${runs:-1} - 1 : 0 )) passed, 1 failed"
exit 1
