#!/usr/bin/env bash
# Installs what the build and the tests need, when missing: Debian's emscripten,
# chromium and clang (with libFuzzer), and the npm packages pinned in package-lock.json (npm ci). Idempotent and
# quiet when everything is there. Called by `make serve` and `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		echo "setup: need root (or sudo) to run: $*" >&2
		exit 1
	fi
}

missing=()
command -v emcc >/dev/null 2>&1 || missing+=(emscripten)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
# clang and its libFuzzer runtime: the fuzz harness (tests/fuzz, run by make test-c)
command -v clang >/dev/null 2>&1 || missing+=(clang)
# wasm-ld: the threaded wasm (build/minipbd_threads.wasm) is linked by clang with lld
command -v wasm-ld >/dev/null 2>&1 || missing+=(lld)
compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null || missing+=(libclang-rt-dev)
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing Debian packages: ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# npm ci when node_modules is absent or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "setup: npm ci"
	npm ci --no-audit --no-fund
fi
