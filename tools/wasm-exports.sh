#!/usr/bin/env bash
# Prints the -sEXPORTED_FUNCTIONS list: every PBD_API function of src/minipbd.h and
# every PBDJS_API function of src/wasm/, so the export list is declared once.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  sed -n 's/^PBD_API[^(]* \**\(pbd_[A-Za-z_]*\)(.*/_\1/p' src/minipbd.h
  sed -n 's/^PBDJS_API[^(]* \**\(pbdjs_[A-Za-z_]*\)(.*/_\1/p' src/wasm/*.c
  echo _malloc
  echo _free
} | paste -sd, -
