# MiniPBD build. `make` builds dist/ (the web demo, a folder for any static host);
# `make test` runs every test; `make serve` builds and serves dist/; `make bench`; `make release` writes
# dist/release/ (the zip of the site and the package, and the one-file offline page).
# Both the README commands install what is missing first (tools/setup.sh).

SHELL := /bin/bash
export NODE_PATH := /usr/share/nodejs

# The core: every .c under src/ but the wasm surface (src/wasm/). The folders are the architecture:
# base/ (pool, SIMD), world/ (the world and its step), families/ (one file per constraint family),
# neighbours/ (the one neighbour search), builders/ (one file per object type), wasm/ (the JS surface).
CORE_SRC := $(sort $(filter-out src/wasm/% src/host/%,$(wildcard src/*/*.c)))
# host/: what a native host adds (POSIX threads for a team, base/tasks.h); never in a wasm build.
HOST_SRC := $(wildcard src/host/*.c)
WASM_SRC := $(CORE_SRC) $(wildcard src/wasm/*.c)
HDRS := $(wildcard src/*.h src/*/*.h)
TEST_SRC := $(wildcard tests/c/*.c)
TEST_HDRS := $(wildcard tests/c/*.h)

# Same bits natively and in wasm: no FMA contraction, no fast-math, no libm in the step.
FP_FLAGS := -ffp-contract=off -fno-fast-math
WARN := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wno-unused-parameter
NATIVE_CFLAGS := -O2 $(FP_FLAGS) $(WARN) -Isrc
SAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DPBD_POOL_POISON=1 $(FP_FLAGS) $(WARN) -Isrc
BENCH_CFLAGS := -O3 -march=native -DNDEBUG $(FP_FLAGS) $(WARN) -Isrc

WASM_EXPORTS = $(shell bash tools/wasm-exports.sh)
# The wasm a page downloads is compiled file by file: -O2 for the step and the builders' heavy loops (lattices, tet
# meshes, the winding number), -Oz (-Os until the fluid's guard, below) for what runs once or rarely (WASM_COLD: the wasm surface, world setup,
# parameters, statistics, colouring, the registry, the builders' plans, checks and skins), and linked at
# -O3 with emmalloc (a smaller allocator than dlmalloc: a world takes one block from it). Measured against one -O3
# compile (bench/ab.mjs, CPU time, medians of 7): steps 0.98-1.02x on the same bits (cloth, dam-break, hammock,
# box-stack), builds 0.74-1.11x, the wasm 118.5 -> 107.2 KB gzip (the element's budget, weight.test.mjs). The
# builders' plans, checks and skins at -Os too: 1.8 KB gzip less (the element was 180.7 KB with the models' fill in
# parts); a soft box of 48^3 cells builds in 121-151 ms against 123-254 (noisy, same run), rigid-cap 26 -> 36 ms.
# The lattices and tet meshes (builders/lattice.c, tetmesh.c) and the particle setters (world/particles.c) at -Os
# too: 1.2 KB gzip less (106.6 -> 105.3 KB; the element had reached 180.2 KB with inflatables of any mesh), builds
# 1.07-1.24x (rigid-cap 28.7 -> 30.8 ms, box-stack 5.4 -> 6.4, boxes-overlap 4.6 -> 5.6; bench/ab.mjs --build
# --cpu, medians of 7), a build plus its first step 1.01-1.21x, the same bits. The winding number stays -O2 (an
# open model's fill is seconds).
# The fluid's queries (families/fluid_queries.c: statistics outside the step) and its sort into cell order
# (fluid_sort.c: a counting sort and copies, once a step) at -Os: 0.4 KB gzip less (106.8 -> 106.4 KB; the
# fluid's sheet memory had taken the element to 180.3 KB), dam-break 1.016x a step (42.2 -> 42.9 ms, bench/ab.mjs
# --cpu, medians of 7), the same bits.
# The pointer's attachments (families/attachments.c: a few per step) and the fluid's emitters and drains
# (fluid_emit.c: a hose's few particles a step) at -Os: 0.2 KB gzip less (104.5 -> 104.3 KB; the bodies' face planes
# and the sheet memory had taken the element to 180.0 KB), the same bits (tests/node/crossbuild.test.mjs). The bodies'
# surface distances (shapes_sdf.c: from the rest pose, at building) and the tethers' anchors (tethers_build.c, split
# from tethers.c for this: at the step after the pins changed) at -Os: 1.4 KB gzip less (104.9 -> 103.5 KB; the
# pointer's reach had taken the element to 180.4 KB), the same bits.
# The fluid's guard against crossing a cloth (fluid_guard.c and its broad phase neighbours/triangles.c) took the
# element to 183.0 KB (3.6 KB gzip). To come back under 180: the cold files at -Oz instead of -Os (0.3 KB), and at
# -Oz too the guard, its broad phase and the fluid's sheet contact (fluid_sheets.c), the fluid's per-substep setup
# (fluid.c), the grid build (grid.c), the pointer's reach (reach.c) and the shapes' step start (shapes.c): 179.9 KB.
# Same-run A/B against the build before the guard (bench/ab.mjs --cpu, medians of 9): box-stack 1.006, cloth 0.94,
# cloth-sphere 1.02, flag 1.00, dam-break 1.02, hammock 1.29 (1.15 with the guard at -O2, the rest of it these
# levels); the same bits. Tried and not kept: tethers.c (cloth 1.13x, flag 1.17x), shapes_motion.c (box-stack
# 1.31x), colliders.c (cloth-sphere 1.21x), contacts_bodies.c (box-stack 1.10x).
# The soft bodies' volume by cells (issue 22) took the element to 185.1 KB: the volume family's building, step
# setup and walls (volume.c) at -Oz (0.3 KB), the cells' 4-wide kernel left out (1.1 KB: twice as fast natively on
# a 12^3 press, nothing measurable in wasm on the built-in scenes), and the object types' words off the types
# (objects/index.js OBJECT_TYPE_STRINGS: the element's bundle has no panel, 3.2 KB of JS): 179.7 KB.
# The cells' next pass took it to 180.1 KB with two changes then taken out (179.9 KB without them). For headroom,
# the step's stages (world/step.c: dispatch, and the per-particle predict, velocity and commit loops) at -O1
# (WASM_LEAN, 0.26 KB gzip): cloth-316x316 0.995 / 0.986 (1 x 10 / 10 x 1), dam-break 0.974, jelly 1.008, box-stack
# 1.002 (B/A with B at -O2, bench/ab.mjs --cpu, medians of 9), the same bits: 179.6 KB. The volume kernels at -O1
# instead would have saved as much for 8-10% of jelly and bend-bar; the walls' two-nearest query out of line
# (one copy in boundary_api.c, not inlined into volume.c) changed nothing in the linked wasm.
# The two changes came back (with the contacts' fix of the cycle they uncovered): 180.1 KB. The bodies' rotation
# extraction (families/rotation.c: once per body and pass) at -Os (WASM_SMALL, 0.25 KB gzip; -Oz saves no more and
# cost box-stack 1.026): box-stack 1.004, table 1.010, beach-ball 0.996 (B/A, medians of 15), the same bits: 179.8 KB.
# The contacts' guard against crossing a cloth (contacts_sheets.c, with the fluid's test moved to services/crossing.c,
# both at -Oz) took it to 181.2 KB: the fluid lists' whole search made the sliced walk without a budget, as the
# pairs' already was (grid_lists.c: 4 copies of the walk, not 8, 1.2 KB gzip; dam-break 1.009, hammock 1.010,
# floating 0.96, B/A medians of 9, the same bits), and one guard function for both families: 179.8 KB.
# The cloth's placed pins carrying it (objects/cloth.js, 0.3 KB gzip of the element's JS) and the fluid guard's
# second pass took it to 180.2 KB: the colliders family (families/colliders.c) at -Os (WASM_SMALL), 0.35 KB gzip:
# 179.8 KB; table 1.043, beach-ball 1.006, box-stack 1.003, trampoline 1.021 (B/A against the commit before, wasm,
# CPU time, medians of 9), the same bits. The bodies' motion (shapes_motion.c) at -Os too would save 1.2 KB more
# but cost box-stack 1.108 and table 1.075; tearing.c and plasticity.c at -Os saved nothing.
# The levels change no bits: wasm has no FMA, and FP_FLAGS keep each operation as written.
# Our snprintf (src/wasm/freestanding/printf.c, the threaded build's) in the Emscripten builds too, in place of
# musl's: its printf core and exact %g (fmt_fp) were 5.8 KB of code for the core's few messages with numbers; ours
# prints them as glibc does, which the native tests read (3.9 KB gzip off the wasm).
WASM_PRINTF := src/wasm/freestanding/printf.c
WASM_COLD := $(filter src/wasm/% src/world/world.c src/world/params.c src/world/tables.c src/world/stats.c src/world/graph_colouring.c \
	src/builders/body.c src/builders/body_skin.c src/builders/builder.c src/builders/chain.c src/builders/cloth.c src/builders/lattice.c src/builders/tetmesh.c src/world/particles.c \
	src/builders/fluid.c src/builders/inflatable.c src/builders/skin.c src/builders/surface.c src/families/attachments.c src/families/fluid_emit.c src/families/shapes_sdf.c src/families/tethers_build.c src/families/tethers_grids.c \
	src/services/boundary_api.c src/families/distance_colouring.c src/families/inflatables.c src/families/registry.c \
	src/families/fluid_queries.c src/families/fluid_sort.c src/families/fluid_guard.c src/services/crossing.c src/families/contacts_sheets.c src/families/contacts_list.c src/neighbours/triangles.c src/services/reach.c \
	src/families/fluid.c src/neighbours/grid.c src/families/shapes.c src/families/fluid_sheets.c src/families/volume.c,$(WASM_SRC) $(WASM_PRINTF))
EMCC_CFLAGS := -msimd128 $(FP_FLAGS) -DNDEBUG $(WARN) -Isrc
EMCC_LDFLAGS = -O3 -msimd128 --no-entry -sSTANDALONE_WASM -sMALLOC=emmalloc \
	-sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=1MB \
	-sEXPORTED_FUNCTIONS=$(WASM_EXPORTS)
WASM_OBJ := $(patsubst src/%.c,build/wasm/%.o,$(WASM_SRC) $(WASM_PRINTF))
WASM_SCALAR_OBJ := $(patsubst src/%.c,build/wasm-scalar/%.o,$(WASM_SRC) $(WASM_PRINTF))
WASM_LEAN := $(filter src/world/step.c,$(WASM_SRC))
WASM_SMALL := $(filter src/families/rotation.c src/families/colliders.c,$(WASM_SRC))
wasm_opt = $(if $(filter $(1),$(WASM_COLD)),-Oz,$(if $(filter $(1),$(WASM_LEAN)),-O1,$(if $(filter $(1),$(WASM_SMALL)),-Os,-O2)))

# The page's modules: the whole web/js tree (folders by role), copied as it is. engine/param-table.js is generated
# from the wasm's parameter table (tools/gen-param-table.mjs) and committed; it is rewritten whenever the wasm changes.
PARAM_TABLE_JS := web/js/engine/param-table.js
WEB_JS := $(sort $(shell find web/js -name '*.js' -o -name '*.d.ts') $(PARAM_TABLE_JS))
WEB_FILES := $(wildcard web/*.html web/css/*.css) web/coi-sw.js
# Models the built-in scenes load (web/assets/bunny.obj, written by tools/make-bunny.mjs), copied to dist/assets.
WEB_ASSETS := $(wildcard web/assets/*)
WEB_HTML := $(wildcard web/*.html)
SHADERS := $(wildcard shaders/*)
# The page's panel library, lil-gui, comes from npm (pinned in package-lock.json): `make setup` installs it
# (npm ci, again whenever the lockfile changes), and so does the rule below when it is missing.
LIB_JS := node_modules/lil-gui/dist/lil-gui.esm.min.js
LIB_CSS := node_modules/lil-gui/dist/lil-gui.min.css
LIB_LICENSE := node_modules/lil-gui/LICENSE.md

.PHONY: all dist release setup test test-build test-c test-node test-browser test-browser-shared test-browser-alone test-node-threads test-node-rest serve bench clean
all: dist

setup:
	@bash tools/setup.sh

build/wasm/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	@emcc $(call wasm_opt,$<) $(EMCC_CFLAGS) -c $< -o $@
build/minipbd.wasm: $(WASM_OBJ) Makefile tools/wasm-exports.sh
	@mkdir -p build
	@echo "emcc -> $@"
	@emcc $(EMCC_LDFLAGS) $(WASM_OBJ) -o $@

# ---- The threaded wasm: the same C with atomics over a shared, imported memory, built by Debian's
# clang 14 and wasm-ld (Emscripten 3.1.6 cannot make a standalone wasm with threads). It has no libc but ours
# (src/wasm/freestanding/: allocator, memcmp/strcmp, snprintf) and musl's pow, compiled from Emscripten's own
# musl sources so its bits are the emcc build's (wasm has no FMA: the flags cannot change them). The memory's
# maximum is fixed (a shared memory is created at its maximum's reservation); each instance has its own
# __stack_pointer, which web/js/engine/threads.js sets for every worker before any call.
THREADS_WASM_MAX_MEMORY := 1073741824
EM_SYSROOT := /usr/share/emscripten/cache/sysroot
MUSL := /usr/share/emscripten/system/lib/libc/musl
MUSL_POW := pow pow_data exp_data __math_oflow __math_uflow __math_xflow __math_invalid __math_divzero
FREESTANDING_SRC := $(wildcard src/wasm/freestanding/*.c)
THREADS_CFLAGS := --target=wasm32 -O3 -msimd128 -matomics -mbulk-memory -mmutable-globals $(FP_FLAGS) -DNDEBUG \
	-DPBD_WASM_THREADS=1
THREADS_EXPORTS = $(shell bash tools/wasm-exports.sh | tr , '\n' | sed 's/^_/-Wl,--export=/')
THREADS_LDFLAGS := -nostdlib -Wl,--no-entry,--shared-memory,--import-memory,--max-memory=$(THREADS_WASM_MAX_MEMORY) \
	-Wl,-z,stack-size=1048576,--export=__stack_pointer,--export=__heap_base
MUSL_POW_OBJ := $(patsubst %,build/threads/musl_%.o,$(MUSL_POW))
build/threads/musl_%.o: $(MUSL)/src/math/%.c Makefile
	@mkdir -p build/threads
	@clang $(THREADS_CFLAGS) -w -I$(MUSL)/src/include -I$(MUSL)/src/internal -I$(MUSL)/arch/emscripten \
		-I$(MUSL)/arch/generic -isystem $(EM_SYSROOT)/include -c $< -o $@
build/minipbd_threads.wasm: $(WASM_SRC) $(FREESTANDING_SRC) $(HDRS) $(MUSL_POW_OBJ) Makefile tools/wasm-exports.sh
	@mkdir -p build
	@echo "clang (threads) -> $@"
	@clang $(THREADS_CFLAGS) $(WARN) -Isrc -isystem $(EM_SYSROOT)/include $(WASM_SRC) $(FREESTANDING_SRC) \
		$(MUSL_POW_OBJ) $(THREADS_LDFLAGS) $(THREADS_EXPORTS) -o $@
# The freestanding snprintf against glibc's, natively (its functions renamed so both are in one program).
build/test_freestanding: src/wasm/freestanding/printf.c tests/c/freestanding/test_printf.c
	@mkdir -p build
	gcc -O2 $(WARN) -Wno-format -fno-builtin -Dvsnprintf=fs_vsnprintf -Dsnprintf=fs_snprintf -c src/wasm/freestanding/printf.c -o build/fs_printf.o
	gcc -O2 $(WARN) -Wno-format-truncation tests/c/freestanding/test_printf.c build/fs_printf.o -lm -o $@

node_modules/lil-gui/package.json:
	npm ci --no-audit --no-fund
# esbuild (pinned in package-lock.json) makes the pages' bundles: installed by the same `npm ci`.
node_modules/esbuild/package.json:
	npm ci --no-audit --no-fund
$(LIB_JS) $(LIB_CSS) $(LIB_LICENSE): node_modules/lil-gui/package.json

$(PARAM_TABLE_JS): build/minipbd.wasm tools/gen-param-table.mjs
	node tools/gen-param-table.mjs build/minipbd.wasm $@

# The package: tools/package.mjs writes dist/minipbd@VERSION/ (VERSION from package.json) from the rest
# of dist/: ONE folder that is both the npm package (`npm pack dist/minipbd@VERSION`) and the CDN folder. The scene
# format's JSON Schema (web/scene.schema.json) is generated by tools/gen-scene-schema.mjs and committed
# (tests/node/schema.test.mjs fails when it is stale).
# The command line, minipbd-run, is the package's bin: package.mjs copies it to bin/.
PACKAGE_FILES := tools/package.mjs package.json LICENSE docs/package-README.md web/scene.schema.json tools/minipbd-run.mjs \
	$(wildcard tools/run/*.mjs)
# The pages' minified bundles (tools/bundle.mjs): dist/js/bundle/, which dist/'s pages load; dist/js/ keeps the modules.
BUNDLE_FILES := tools/bundle.mjs node_modules/esbuild/package.json

dist: build/minipbd.wasm build/minipbd_threads.wasm $(WEB_JS) $(WEB_FILES) $(WEB_ASSETS) $(SHADERS) $(LIB_JS) $(LIB_CSS) $(LIB_LICENSE) $(PACKAGE_FILES) $(BUNDLE_FILES)
	@# dist/js is made afresh, so a module that moved or went away does not linger there.
	rm -rf dist/js
	@mkdir -p dist/js dist/css/vendor dist/shaders
	cp build/minipbd.wasm dist/minipbd.wasm
	cp build/minipbd_threads.wasm dist/minipbd_threads.wasm
	cp -R web/js/. dist/js/
	@mkdir -p dist/js/vendor
	cp $(LIB_JS) dist/js/vendor/
	cp $(LIB_LICENSE) dist/js/vendor/lil-gui.LICENSE.md
	cp $(WEB_HTML) dist/
	cp web/coi-sw.js dist/
	cp web/css/*.css dist/css/
	@# lil-gui's stylesheet without its @font-face: a data: URL font, which the page's policy (font-src falls
	@# back to default-src 'self') refuses; app.css draws the same arrows and tick in the page's font.
	sed -E 's/@font-face\{[^}]*\}//g' $(LIB_CSS) > dist/css/vendor/lil-gui.min.css
	@! grep -q 'font-face' dist/css/vendor/lil-gui.min.css || { echo "lil-gui.min.css still has an @font-face" >&2; exit 1; }
	cp $(SHADERS) dist/shaders/
	rm -rf dist/assets && mkdir -p dist/assets && cp -R web/assets/. dist/assets/
	cp web/scene.schema.json dist/
	@# A copied dist/ inside a CommonJS project (npm's default "type") still loads its .js files as modules.
	echo '{ "type": "module" }' > dist/package.json
	node tools/bundle.mjs dist
	node tools/package.mjs dist
	@echo "dist/ ready"

# `make release`: what someone who does not build downloads (tools/release.mjs), in dist/release/:
# minipbd-VERSION.zip (the static site and the package folder) and minipbd-offline.html, one self-contained file
# (the single-thread wasm, the modules, the shaders, the assets and the CSS inlined) that opens from disk.
release: dist tools/release.mjs
	node tools/release.mjs dist

# ---- C tests: native, native under ASan+UBSan, scalar fallback, and the wasm build under Node.
build/test_native: $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) $(HDRS) $(TEST_HDRS)
	@mkdir -p build
	gcc $(NATIVE_CFLAGS) $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) -lm -pthread -o $@
build/test_scalar: $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) $(HDRS) $(TEST_HDRS)
	@mkdir -p build
	gcc $(NATIVE_CFLAGS) -DPBD_SCALAR=1 $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) -lm -pthread -o $@
build/test_san: $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) $(HDRS) $(TEST_HDRS)
	@mkdir -p build
	gcc $(SAN_CFLAGS) $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) -lm -pthread -o $@
# ThreadSanitizer over the threads tests (tests/c/test_threads*.c: every family's loops shared
# out on a team, the stress test; lighter under PBD_TEST_TSAN): a data race between participants
# fails the test command.
TSAN_CFLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DPBD_TEST_TSAN=1 $(FP_FLAGS) $(WARN) -Isrc
build/test_tsan: $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) $(HDRS) $(TEST_HDRS)
	@mkdir -p build
	clang $(TSAN_CFLAGS) $(CORE_SRC) $(HOST_SRC) $(TEST_SRC) -lm -pthread -o $@
build/test_wasm.cjs: $(CORE_SRC) $(TEST_SRC) $(HDRS) $(TEST_HDRS)
	@mkdir -p build
	emcc -O3 -msimd128 $(FP_FLAGS) $(WARN) -Isrc -sSINGLE_FILE=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 $(CORE_SRC) $(TEST_SRC) -o $@

# The runs are independent programs: tools/test-c.sh runs them two at a time (TEST_C_JOBS), longest first (CPU
# seconds measured with /usr/bin/time on the 2-core machine: native 91, san 86, scalar 76, tsan 68, fuzz 60 s of wall
# time, wasm 35), each one's output printed whole when it ends. `make -j2 test-c` also builds the programs two at a time.
TEST_C_BINS := build/test_native build/test_scalar build/test_san build/test_tsan build/test_wasm.cjs build/fuzz_api \
	build/test_freestanding
# Native runs every C test; the other builds leave out the long physics scenarios (`--builds-subset`: main.c's
# TEST_LIST_LONG, docs/tests.md "What each build runs"), which native checked and whose code they still run.
test-c: $(TEST_C_BINS)
	@bash tools/test-c.sh "native=build/test_native" "san=build/test_san --builds-subset" \
		"scalar=build/test_scalar --builds-subset" "tsan=TSAN_OPTIONS=halt_on_error=1 build/test_tsan Threads" \
		"fuzz=$(FUZZ_SHORT)" "wasm=node build/test_wasm.cjs --builds-subset" "freestanding=build/test_freestanding"

# ---- Fuzzing: a libFuzzer harness over the public C API (tests/fuzz/), built
# from CORE_SRC with clang's -fsanitize=fuzzer,address,undefined. `make fuzz` runs it for
# FUZZ_SECONDS (10 minutes) from tests/fuzz/corpus and what earlier runs found (build/fuzz-corpus);
# `make fuzz-short` (the last step of test-c) for FUZZ_SHORT_SECONDS from the committed corpus
# alone (build/fuzz-corpus-short, emptied first), so the test does the same work every time. The
# committed corpus is only read; a crash leaves its reproducer in build/fuzz-artifacts/ (replay:
# build/fuzz_api FILE, FUZZ_TRACE=1 to print every call). `make fuzz-corpus` rewrites the seeds.
# `make fuzz` then runs FUZZ_LONG_SECONDS more over the same corpus with -len_control=0: long
# inputs (long call sequences) from the start. fuzz-short keeps libFuzzer's defaults, as before.
FUZZ_SRC := $(filter-out tests/fuzz/make_corpus.c,$(wildcard tests/fuzz/*.c))
FUZZ_HDRS := $(wildcard tests/fuzz/*.h)
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DPBD_POOL_POISON=1 \
	$(FP_FLAGS) $(WARN) -Isrc
FUZZ_SECONDS ?= 600
FUZZ_SHORT_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 600
FUZZ_RUN = bash tests/fuzz/run.sh build/fuzz_api
FUZZ_SHORT = FRESH=1 $(FUZZ_RUN) $(FUZZ_SHORT_SECONDS) build/fuzz-corpus-short
.PHONY: fuzz fuzz-short fuzz-corpus
build/fuzz_api: $(CORE_SRC) $(HOST_SRC) $(FUZZ_SRC) $(HDRS) $(FUZZ_HDRS) Makefile
	@mkdir -p build
	clang $(FUZZ_CFLAGS) $(CORE_SRC) $(HOST_SRC) $(FUZZ_SRC) -lm -pthread -o $@
build/make_corpus: tests/fuzz/make_corpus.c tests/fuzz/fuzz_input.h src/minipbd.h Makefile
	@mkdir -p build
	gcc -O1 $(WARN) -Isrc tests/fuzz/make_corpus.c -lm -o $@
fuzz-corpus: build/make_corpus
	@mkdir -p tests/fuzz/corpus
	@# repro-1..4 are written by make_corpus; the later reproducers are the fuzzer's own inputs, kept as found.
	rm -f tests/fuzz/corpus/seed-*
	build/make_corpus tests/fuzz/corpus
fuzz: build/fuzz_api
	$(FUZZ_RUN) $(FUZZ_SECONDS) build/fuzz-corpus
	FUZZ_ARGS=-len_control=0 $(FUZZ_RUN) $(FUZZ_LONG_SECONDS) build/fuzz-corpus
fuzz-short: build/fuzz_api
	$(FUZZ_SHORT)

# build/replay_calls replays natively the calls the JS engine made to the wasm (tests/node/crossbuild.test.mjs).
build/replay_calls: $(WASM_SRC) $(HOST_SRC) $(HDRS) tests/crossbuild/replay_calls.c
	@mkdir -p build
	gcc $(NATIVE_CFLAGS) $(WASM_SRC) $(HOST_SRC) tests/crossbuild/replay_calls.c -lm -pthread -o $@

# $(call run_each,A,B[,C]): runs the commands in turn, each even when one before failed; the status is the first
# failure's.
keep_status = || { r=$$?; [ $$s -ne 0 ] || s=$$r; };
run_each = s=0; $(1) $(keep_status) $(2) $(keep_status) $(if $(3),$(3) $(keep_status)) exit $$s

# Two test files at a time (node's default on 2 cores is one; many wait on child processes: npm, tsc, the CLI,
# replay_calls, the benches), then the two halves of the threaded build's scene check side by side: they are much
# of the layer's work, and their worlds on 3, 4 and 8 threads spin on the 2 cores, which the other files' few timed
# checks (a refusal within 50 ms, a reply within 200 ms) should not share. The benches' programs are prerequisites
# (the line after BENCH_BINS below), so the `make` that bench_smoke, bench_fluid and bench_threads run finds them
# built, and two of them never build one at once. Last and alone, bench_threads: it checks that the stages' measured
# times make up at least half of the step's, which a step on 2 threads sharing the 2 cores with another file's
# work does not hold (measured: stages 1.1 ms of a 9.2 ms step beside bench_smoke).
NODE_THREADS := tests/node/threads.test.mjs tests/node/threads-fluids.test.mjs
NODE_ALONE := tests/node/bench_threads.test.mjs
# `make test` runs the two parts apart (tools/test-layers.sh): test-node-threads (no timed check: hashes only) beside
# the browser half once the C layer is done, test-node-rest after.
NODE_REST = node --test --test-concurrency=2 $(filter-out $(NODE_THREADS) $(NODE_ALONE),$(wildcard tests/node/*.test.mjs))
test-node: dist build/replay_calls
	@$(call run_each,$(NODE_REST),node --test --test-concurrency=2 $(NODE_THREADS),node --test --test-concurrency=1 $(NODE_ALONE))
test-node-threads: dist
	@node --test --test-concurrency=2 $(NODE_THREADS)
test-node-rest: dist build/replay_calls
	@$(call run_each,$(NODE_REST),node --test --test-concurrency=1 $(NODE_ALONE))

# The browser layer in two halves. test-browser-shared: BROWSER_JOBS files at a time, each with its own Chromium (their
# waits are for steps and frames, never for a time; 1 by default: on a loaded machine the heatmap file once saw too
# little red beside another, `make test-browser BROWSER_JOBS=2` to try it). `make test` runs this half beside the C
# layer (tools/test-layers.sh). test-browser-alone: alone, the files that time the page's answers: a click handled
# within 100 or 200 ms (frame, respond, responsive), a finger held HOLD_MS (touch); and heatmap, whose red area after a
# drag depends on how many steps the page ran while drawing. `make test-browser` runs both halves in turn; the status
# is the first failure's.
BROWSER_JOBS ?= 1
BROWSER_ALONE := $(addprefix tests/browser/,frame.test.mjs heatmap.test.mjs respond.test.mjs responsive.test.mjs touch.test.mjs)
test-browser-shared: dist
	@node --test --test-concurrency=$(BROWSER_JOBS) $(filter-out $(BROWSER_ALONE),$(wildcard tests/browser/*.test.mjs))
test-browser-alone: dist
	@node --test --test-concurrency=1 $(BROWSER_ALONE)
test-browser: dist
	@$(call run_each,$(MAKE) --no-print-directory test-browser-shared,$(MAKE) --no-print-directory test-browser-alone)

# Everything the layers run built first, two programs at a time (make -j test-build), then the layers, each in a make
# of its own, the C layer and the browser's untimed files side by side (TEST_LAYERS_SERIAL=1: in turn), with each
# layer's wall time printed at the end (tools/test-layers.sh).
test: setup
	@bash tools/test-layers.sh

# `make serve SERVE_FLAGS=--cors` (docs/embedding.md "Hosting"): flags passed on to tools/serve.mjs.
SERVE_FLAGS ?=
# setup runs first and the build in a make of its own: a make that started before setup installed Emscripten has
# cached the missing /usr/share/emscripten while reading this file, so its pattern rules for the threaded build's
# musl sources would never match ("No rule to make target 'build/threads/musl_pow.o'" on a fresh machine's first run).
serve: setup
	$(MAKE) dist
	node tools/serve.mjs dist $(SERVE_FLAGS)

# bench_native: tuned for this CPU (the reference of ratio_vs_native); bench_native_portable:
# -O2 for any x86-64; bench_native_scalar: the tuned build with -DPBD_SCALAR=1 (no SIMD: the
# distance solve is families/distance.c's plain loop, same bits), for the SIMD/scalar speed-up; bench_native_clang: the
# tuned flags through clang (emcc's compiler), when clang is installed, so that "the
# fastest native build" is measured, not assumed. All keep FP_FLAGS, so their states hash
# the same as the wasm's (bench.mjs checks it). Warnings are shown but do not stop the
# bench builds (BENCH_WARN): -O3 -march=native and clang see warnings -O2 does not, and
# `make test` is the warnings gate.
BENCH_WARN = $(filter-out -Werror,$(1))
# GCC_SAME_BITS: gcc 12's SLP vectorizer fuses a multiply into alternating add/subtract lanes
# (vfmsubadd/vfmaddsub: families/shapes_motion.c, families/rotation.c) even under -ffp-contract=off
# whenever FMA is enabled (-march=native here), so the rigid bodies' bits changed; clang, wasm and gcc
# without FMA were unaffected. Off for the gcc bench builds: the cloth bench measured no cost (15.4 / 15.2 ms).
GCC_SAME_BITS := -fno-tree-slp-vectorize
# bench_native_world.c: the solid cases' worlds, read from the plan bench.mjs writes (bench/solid-cases.mjs).
BENCH_NATIVE_SRC := bench/bench_native.c bench/bench_native_world.c bench/bench_native_stages.c
BENCH_NATIVE_HDRS := bench/bench_native_world.h bench/bench_native_stages.h
build/bench_native: $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) $(BENCH_NATIVE_HDRS) $(HDRS) Makefile
	@mkdir -p build
	gcc $(call BENCH_WARN,$(BENCH_CFLAGS)) $(GCC_SAME_BITS) $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) -lm -pthread -o $@
build/bench_native_portable: $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) $(BENCH_NATIVE_HDRS) $(HDRS) Makefile
	@mkdir -p build
	gcc $(call BENCH_WARN,$(NATIVE_CFLAGS)) $(GCC_SAME_BITS) -DNDEBUG $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) -lm -pthread -o $@
build/bench_native_scalar: $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) $(BENCH_NATIVE_HDRS) $(HDRS) Makefile
	@mkdir -p build
	gcc $(call BENCH_WARN,$(BENCH_CFLAGS)) $(GCC_SAME_BITS) -DPBD_SCALAR=1 $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) -lm -pthread -o $@
build/bench_native_clang: $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) $(BENCH_NATIVE_HDRS) $(HDRS) Makefile
	@mkdir -p build
	clang $(call BENCH_WARN,$(BENCH_CFLAGS)) $(CORE_SRC) $(HOST_SRC) $(BENCH_NATIVE_SRC) -lm -pthread -o $@

# The kernel lab (bench/bench_kernel_lab.c: variants of the solver's projection kernel),
# natively and in wasm; run by hand, not by `make bench`.
build/bench_kernel_lab: bench/bench_kernel_lab.c src/base/simd.h Makefile
	@mkdir -p build
	gcc $(call BENCH_WARN,$(BENCH_CFLAGS)) bench/bench_kernel_lab.c -lm -o $@
build/bench_kernel_lab.cjs: bench/bench_kernel_lab.c src/base/simd.h Makefile
	@mkdir -p build
	emcc -O3 -msimd128 $(FP_FLAGS) -DNDEBUG -Isrc -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 bench/bench_kernel_lab.c -o $@

# The wasm engine without SIMD (no -msimd128, -DPBD_SCALAR=1): the SIMD speed-up of the
# product itself, both builds run by V8 in the same Node process (bench.mjs, impl wasm-scalar).
build/wasm-scalar/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	@emcc $(call wasm_opt,$<) $(filter-out -msimd128,$(EMCC_CFLAGS)) -DPBD_SCALAR=1 -c $< -o $@
build/minipbd_scalar.wasm: $(WASM_SCALAR_OBJ) Makefile tools/wasm-exports.sh
	@mkdir -p build
	@echo "emcc (scalar) -> $@"
	@emcc $(filter-out -msimd128,$(EMCC_LDFLAGS)) $(WASM_SCALAR_OBJ) -o $@

BENCH_BINS := build/bench_native build/bench_native_portable build/bench_native_scalar \
	$(if $(shell command -v clang),build/bench_native_clang) build/minipbd_scalar.wasm
# What the Node tests run is built before them (bench_smoke.test.mjs also makes these, a no-op then), and so by
# test-build: everything the three layers run, which tools/test-layers.sh builds first with make -j2.
test-node test-node-rest: $(BENCH_BINS)
test-build: $(TEST_C_BINS) dist build/replay_calls $(BENCH_BINS)
bench: setup
	$(MAKE) dist $(BENCH_BINS)
	node bench/bench.mjs

clean:
	rm -rf build dist
