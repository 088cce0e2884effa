#!/usr/bin/env bash
# tools/mutate.sh -- the mutation check of the family tests (docs/tests.md).
#
# Each mutation below is one small slip in one line of the core (a pin moved by a collider,
# tetherSlack dropped, the sign of wind lift flipped, the tear threshold off by the rest
# length, ...). For each, the script copies src/ to a temporary folder, finds the line by its
# text (never by line number: files are being moved), replaces the text, rebuilds the native
# C test binary there (build/ is not touched) and runs the named tests. A mutation is
#   killed    when a test fails (or the binary crashes or times out),
#   SURVIVED  when every test still passes: the tests miss that slip,
#   NO MATCH  when its text is no longer in src/ (the code moved on: update the entry),
#   NO BUILD  when the mutated source does not compile (update the entry).
# It exits 0 only when every mutation was killed.
#
# Usage: tools/mutate.sh [--all] [--keep] [ID ...]
#   --all   run the whole native suite for every mutation, not just the tests named with it
#   --keep  keep the temporary folder (its path is printed)
#   ID ...  run only these mutations (see the table below, or --list)
#
# Entry format: M <id> <anchor> <text> <replacement> <tests> <what>
#   anchor       a fixed string that must occur exactly once in src/ (in any file; prototypes,
#                lines ending in ');' and maybe a comment, do not count), or "-": then <text>
#                itself must occur exactly once in src/
#   text         a fixed string; the first line containing it within 150 lines after the
#                anchor (or its one occurrence) is mutated, <text> replaced by <replacement>
#   tests        space-separated name filters of build/test_native (each runs on its own)
#   what         the slip, in words
set -u
cd "$(dirname "$0")/.."

CC=${CC:-gcc}
# NATIVE_CFLAGS of the Makefile, minus -Werror (a mutation may leave a variable unused).
CFLAGS="-O2 -ffp-contract=off -fno-fast-math -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter"
TIMEOUT=${TIMEOUT:-120}

IDS=() ENTRIES=()
M() { IDS+=("$1"); ENTRIES+=("$(printf '%s\x1f' "$@")"); }

# ---- colliders (src/families/colliders.c)
M col-pin-skip 'static void SolveParticles(' 'if (p[3] <= 0.0f) continue;' '/* mutated: no w = 0 check */' \
	'Family' 'collider particle solve moves pins (w = 0 check dropped)'
M col-edge-pin - 'float ka = wa * s1 / denom' 'float ka = (wa > 0.0f ? wa : 1.0f) * s1 / denom' \
	'Family' 'collider edge projection moves a pinned end'
M col-radius-full 'static void Colliders_Solve(' 'const float r = 0.5f * w->params[pbdParam_thickness];' 'const float r = w->params[pbdParam_thickness];' \
	'Family' 'collider keeps particles a whole thickness off, not thickness/2'
# ---- tethers (src/families/tethers.c)
M teth-slack-drop - 'const float k = t->k, slack = 1.0f + w->params[pbdParam_tetherSlack];' 'const float k = t->k, slack = 1.0f;' \
	'Family' 'tetherSlack ignored'
M teth-slack-no-one - 'const float k = t->k, slack = 1.0f + w->params[pbdParam_tetherSlack];' 'const float k = t->k, slack = w->params[pbdParam_tetherSlack];' \
	'Family' 'tether limit s*d instead of (1+s)*d'
M teth-tail-slack 'static void SolveTetherTo(' 'float limit = rest * slack;' 'float limit = rest;' \
	'Family' 'scalar tether path ignores the slack'
M teth-lanes-slack - 'pbdF4 limit = pbdF4_Mul(pbdF4_Load(rests + i), slackv);' 'pbdF4 limit = pbdF4_Load(rests + i);' \
	'Family' '4-wide tether path ignores the slack'
M teth-tail-equality 'static void SolveTetherTo(' 'if (len <= limit || len < 1e-9f) return;' 'if (len < 1e-9f) return;' \
	'Family' 'scalar tether projected when not violated (equality)'
M teth-lanes-equality 'static void SolveTetherSet(' 'pbdF4_Greater(len, limit)' 'pbdF4_Greater(len, zero)' \
	'Family' '4-wide tether projected when not violated (equality)'
M teth-kprime - 't->k = pbd_PassStiffness(w->params[pbdParam_tethers], ctx->passes);' 't->k = w->params[pbdParam_tethers];' \
	'Family' "tether stiffness k used per pass instead of k'"
M teth-last-pin - 'if (d2 < best) {' 'if (d2 < best || k == pinCount - 1) {' \
	'Family' 'tether anchored to the last pin, not the nearest'
M teth-islands-none 'static void SolveTethers(' 'for (int e = 0; e < t->extraSlots; ++e) {' 'for (int e = 0; e < 0; ++e) {' \
	'TethersBoundEveryPinIsland HangingClothHasNoSeam TetherIslandsFollowTheMesh' 'tethers to the nearest pin only (the other islands dropped)'
M teth-islands-merged 'static int PinIslands(' 'island[k] = r == k ? count++ : island[r];' 'island[k] = 0, count = 1;' \
	'TethersBoundEveryPinIsland HangingClothHasNoSeam' 'all pins one island'
M teth-islands-apart 'static void JoinPins(' 'if (sa < 0 || sb < 0) return;' 'return;' \
	'TetherIslandsFollowTheMesh' 'pins side by side taken as separate islands'
M teth-extra-last 'static void SolveTethers(' 'SolveTetherSet(w, t->anchor, t->rest, begin, n, k, slack);' ';' \
	'FamilyTetherSlackHangingCloth TethersBoundEveryPinIsland' 'the nearest pin'"'"'s tether not projected (only the other islands'"'"')'
# ---- speed bound (src/world/step.c)
M step-move-bound 'static void Stage_Commit(' 'if (d2 > maxMove2) {' 'if (0) {' \
	'Displacement' 'displacement not bounded (only the velocity)'
M step-move-fast 'static void Stage_Commit(' 'pbdF4_LessBits(pbdF4_Abs(d), dCap) & ' '' \
	'Displacement' 'fast path skips the displacement check'
# ---- wind (src/families/wind.c)
M wind-lift-sign - 'float lift = -q * cl * vn * speed;' 'float lift = q * cl * vn * speed;' \
	'Family' 'sign of lift flipped'
M wind-lift-vn2 - 'float lift = -q * cl * vn * speed;' 'float lift = -q * cl * vn * vn;' \
	'Family' 'lift scaled by (v.n)^2 instead of (v.n) speed'
M wind-lift-normal - 'float fx = drag * nx + lift * (nx - cosT * rx / speed);' 'float fx = drag * nx + lift * nx;' \
	'Family' 'lift along n, not across the flow (x component)'
M wind-drag-sign - 'float drag = -q * cd * speed * vn;' 'float drag = q * cd * speed * vn;' \
	'Family' 'sign of drag flipped'
M wind-area - 'float area = 0.5f * len;' 'float area = len;' \
	'Family' 'triangle area not halved'
M wind-cap-valence - 'float dvn = 6.0f * h * wmax * fn / 3.0f;' 'float dvn = h * wmax * fn / 3.0f;' \
	'Family' 'wind cap per triangle only, not for the 6 a vertex shares'
M wind-cap-off - 'if (dvn > fabsf(vn)) {' 'if (0) {' \
	'Family' 'no wind cap'
# ---- tearing (src/families/tearing.c)
M tear-rest-plus - 'if (!(len > d->rest[c] * limit)) continue;' 'if (!(len > d->rest[c] + w->params[pbdParam_tearStretch])) continue;' \
	'Family' 'tear when len > rest + tearStretch (off by the rest length)'
M tear-absolute - 'if (!(len > d->rest[c] * limit)) continue;' 'if (!(len > w->params[pbdParam_tearStretch])) continue;' \
	'Family' 'tear when len > tearStretch (not relative)'
M tear-no-one - 'const float limit = 1.0f + w->params[pbdParam_tearStretch];' 'const float limit = w->params[pbdParam_tearStretch];' \
	'Family' 'tear when len > tearStretch * rest (1 + dropped)'
# ---- ground (src/families/ground.c)
M ground-pin - 'if (p[1] >= ground || p[3] <= 0.0f) continue;' 'if (p[1] >= ground) continue;' \
	'Family' 'ground lifts pins'
M ground-full-thickness - 'g->height = params[pbdParam_groundHeight] + 0.5f * params[pbdParam_thickness];' \
	'g->height = params[pbdParam_groundHeight] + params[pbdParam_thickness];' \
	'Family' 'ground keeps particles a whole thickness up'
M ground-no-thickness - 'g->height = params[pbdParam_groundHeight] + 0.5f * params[pbdParam_thickness];' \
	'g->height = params[pbdParam_groundHeight];' \
	'Family' 'ground ignores the particle radius'
# ---- attachments (src/families/attachments.c)
M att-kprime - 'pbd_PassStiffness(s->slots[i].stiffness, ctx->passes)' 's->slots[i].stiffness' \
	'Family' "attachment stiffness k used per pass instead of k'"
M att-mass - 'float k = s->k[i];' 'float k = s->k[i] * p[3];' \
	'Family' 'attachment correction weighted by w (its target is w = 0: it takes all)'
M att-z - 'p[2] -= k * (p[2] - a->target[2]);' 'p[2] -= k * (p[2] - a->target[1]);' \
	'Family' 'attachment z pulled toward the target y'
M att-pin 'static void Attachments_Solve(' 'if (p[3] <= 0.0f) continue;' '/* mutated: no w = 0 check */' \
	'Family PinnedStays' 'attachment moves a pin (caught by test_projection.c)'
# ---- distance constraints (controls: covered by test_projection.c before this check)
M dist-half 'static void SolveDistanceRange(' 'float s = len >= 1e-9f ? k * (len - rest[c]) / len : 0.0f;' \
	'float s = len >= 1e-9f ? 0.5f * k * (len - rest[c]) / len : 0.0f;' \
	'MassWeighted Residual' "seed 001's extra 0.5 in the distance correction (control)"
M dist-kprime - 'const float k = pbd_PassStiffness(group->stiffness, ctx->passes);' 'const float k = group->stiffness;' \
	'Residual' "distance stiffness k used per pass instead of k' (control)"

# ---------------------------------------------------------------- driver

ALL=0 KEEP=0 ONLY=()
for arg in "$@"; do
	case "$arg" in
	--all) ALL=1 ;;
	--keep) KEEP=1 ;;
	--list) printf '%s\n' "${IDS[@]}"; exit 0 ;;
	-h|--help) sed -n '2,30p' "$0"; exit 0 ;;
	-*) echo "mutate.sh: unknown option $arg" >&2; exit 2 ;;
	*) ONLY+=("$arg") ;;
	esac
done
for id in "${ONLY[@]}"; do
	printf '%s\n' "${IDS[@]}" | grep -qxF -- "$id" || { echo "mutate.sh: no mutation '$id' (--list)" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/minipbd-mutate.XXXXXX")
if [ "$KEEP" = 1 ]; then echo "temporary folder: $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
mkdir -p "$TMP/obj" "$TMP/log"

# The core is every .c under src/ but the wasm surface, as in the Makefile.
mapfile -t CORE < <(find src -name '*.c' -not -path 'src/wasm/*' | sort)
mapfile -t TESTS < <(find tests/c -name '*.c' | sort)
obj() { local o=${1//\//_}; echo "$TMP/obj/${o%.c}.o"; }

echo "compiling the unmutated core and tests ($CC)..."
for f in "${CORE[@]}" "${TESTS[@]}"; do
	$CC $CFLAGS -Isrc -c "$f" -o "$(obj "$f")" 2>"$TMP/log/build.txt" || { cat "$TMP/log/build.txt"; echo "mutate.sh: $f does not build unmutated" >&2; exit 2; }
done
BASE_OBJS=()
for f in "${CORE[@]}" "${TESTS[@]}"; do BASE_OBJS+=("$(obj "$f")"); done
$CC "${BASE_OBJS[@]}" -lm -o "$TMP/test_base" || exit 2

# run <binary> <filters...>: 0 when every filter's tests pass; FAIL lines into $TMP/log/run.txt
run() {
	local bin=$1 status=0; shift
	: >"$TMP/log/run.txt"
	for filter in "$@"; do
		timeout "$TIMEOUT" "$bin" "$filter" >"$TMP/log/out.txt" 2>&1
		local rc=$?
		grep '^FAIL ' "$TMP/log/out.txt" | sed 's/^FAIL //; s/ ([0-9]* ms CPU)$//' >>"$TMP/log/run.txt"
		if [ $rc -ne 0 ]; then
			status=1
			[ $rc -eq 124 ] && echo "(timeout)" >>"$TMP/log/run.txt"
			[ $rc -gt 128 ] && [ $rc -ne 124 ] && echo "(crash, signal $((rc - 128)))" >>"$TMP/log/run.txt"
			grep -q . "$TMP/log/run.txt" || echo "(exit $rc)" >>"$TMP/log/run.txt"
		fi
	done
	return $status
}

# The unmutated tests must pass, or no result below means anything.
mapfile -t FILTERS_ALL < <(for e in "${ENTRIES[@]}"; do IFS=$'\x1f' read -r -a f <<<"$e"; echo "${f[4]}"; done | tr ' ' '\n' | sort -u)
if [ "$ALL" = 1 ]; then FILTERS_ALL=(""); fi
if ! run "$TMP/test_base" "${FILTERS_ALL[@]}"; then
	echo "mutate.sh: the unmutated tests fail:" >&2; cat "$TMP/log/run.txt" >&2; exit 2
fi

# locate <anchor> <text>: prints "file line" or an explanation on stderr
locate() {
	local anchor=$1 text=$2 hits file line
	if [ "$anchor" = "-" ]; then
		hits=$(grep -rnF --include='*.c' --include='*.h' -- "$text" src)
		local n; n=$(printf '%s' "$hits" | grep -c .)
		if [ "$n" -ne 1 ]; then echo "text occurs $n times in src/ (want 1): $text" >&2; return 1; fi
		echo "${hits%%:*}" "$(echo "$hits" | cut -d: -f2)"
		return 0
	fi
	# a prototype (a line ending in ');', maybe with a comment) is not the definition the anchor means
	hits=$(grep -rnF --include='*.c' --include='*.h' -- "$anchor" src | grep -vE '\)[[:space:]]*;[[:space:]]*(/[/*].*)?$')
	local n; n=$(printf '%s' "$hits" | grep -c .)
	if [ "$n" -ne 1 ]; then echo "anchor occurs $n times in src/ (want 1): $anchor" >&2; return 1; fi
	file=${hits%%:*}
	line=$(echo "$hits" | cut -d: -f2)
	local at
	at=$(TEXT="$text" awk -v from="$line" 'NR >= from && NR < from + 150 && index($0, ENVIRON["TEXT"]) { print NR; exit }' "$file")
	if [ -z "$at" ]; then echo "text not within 150 lines after the anchor in $file: $text" >&2; return 1; fi
	echo "$file" "$at"
}

killed=0 survived=0 broken=0
S=$'\x1f' # field separator of ROWS (a slip may contain |)
ROWS=()
for e in "${ENTRIES[@]}"; do
	IFS=$'\x1f' read -r -a f <<<"$e"
	id=${f[0]} anchor=${f[1]} text=${f[2]} repl=${f[3]} tests=${f[4]} what=${f[5]}
	if [ ${#ONLY[@]} -gt 0 ] && ! printf '%s\n' "${ONLY[@]}" | grep -qxF -- "$id"; then continue; fi
	where=$(locate "$anchor" "$text" 2>"$TMP/log/locate.txt")
	if [ -z "$where" ]; then
		ROWS+=("$id$S$what$S-${S}NO MATCH$S$(cat "$TMP/log/locate.txt")"); broken=$((broken + 1)); continue
	fi
	read -r file line <<<"$where"
	rm -rf "$TMP/msrc" && cp -r src "$TMP/msrc"
	target="$TMP/msrc/${file#src/}"
	TEXT="$text" REPL="$repl" awk -v n="$line" 'NR == n { i = index($0, ENVIRON["TEXT"]); $0 = substr($0, 1, i - 1) ENVIRON["REPL"] substr($0, i + length(ENVIRON["TEXT"])) } { print }' \
		"$file" >"$target"
	if cmp -s "$file" "$target"; then
		ROWS+=("$id$S$what$S$file:$line${S}NO MATCH${S}replacement changed nothing"); broken=$((broken + 1)); continue
	fi
	# A header mutation rebuilds everything; a .c mutation only its own object.
	objs=()
	if [[ "$file" == *.h ]]; then
		ok=1
		for src in "${CORE[@]}" "${TESTS[@]}"; do
			in="$src"; [[ "$src" == src/* ]] && in="$TMP/msrc/${src#src/}"
			o="$(dirname "$(obj "$src")")/m_$(basename "$(obj "$src")")"
			$CC $CFLAGS -I"$TMP/msrc" -c "$in" -o "$o" 2>>"$TMP/log/build.txt" || ok=0
			objs+=("$o")
		done
	else
		ok=1
		$CC $CFLAGS -I"$TMP/msrc" -c "$target" -o "$TMP/obj/mutant.o" 2>"$TMP/log/build.txt" || ok=0
		for src in "${CORE[@]}" "${TESTS[@]}"; do
			if [ "$src" = "$file" ]; then objs+=("$TMP/obj/mutant.o"); else objs+=("$(obj "$src")"); fi
		done
	fi
	if [ "$ok" = 1 ]; then $CC "${objs[@]}" -lm -o "$TMP/test_mut" 2>>"$TMP/log/build.txt" || ok=0; fi
	if [ "$ok" = 0 ]; then
		ROWS+=("$id$S$what$S$file:$line${S}NO BUILD$S$(grep -m1 error "$TMP/log/build.txt")"); broken=$((broken + 1)); continue
	fi
	read -r -a filters <<<"$tests"
	[ "$ALL" = 1 ] && filters=("")
	if run "$TMP/test_mut" "${filters[@]}"; then
		ROWS+=("$id$S$what$S$file:$line${S}SURVIVED$S"); survived=$((survived + 1))
	else
		ROWS+=("$id$S$what$S$file:$line${S}killed$S$(paste -sd, "$TMP/log/run.txt" | sed 's/,/, /g')"); killed=$((killed + 1))
	fi
	IFS=$S read -r _ _ _ result _ <<<"${ROWS[-1]}"
	printf '  %-22s %s\n' "$id" "$result"
done

echo
echo "| mutation | slip | line | result | failing tests |"
echo "| --- | --- | --- | --- | --- |"
for r in "${ROWS[@]}"; do
	IFS=$S read -r id what where result by <<<"$r"
	echo "| $id | $what | $where | $result | $by |"
done
echo
echo "$killed killed, $survived survived, $broken not applied ($([ "$ALL" = 1 ] && echo 'whole native suite' || echo 'named tests'))"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
