#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: cargo's unit tests, then pytest on the
# software device (Mesa lavapipe) and, at the same time, pytest on the CUDA backend over the
# CPU emulation of its driver, with faulthandler on so a crash is reported, never silent.
# Every test file runs in full on both; the conformance sweep runs every item with its first 3
# samples on the software device and its first one on the emulation (CI's fixed subset, to fit
# its time), or with every sample on the software device when MOJO_CONFORMANCE_SAMPLES=all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
export TORCH_MOJO_BACKEND_SOFTWARE=1
export TORCH_MOJO_BACKEND_TRACE=0
torch_lib="$(.venv/bin/python -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"

LD_LIBRARY_PATH="$torch_lib" cargo test --lib -q
samples="${MOJO_CONFORMANCE_SAMPLES:-3}"
[ "$samples" = all ] && samples=
# The two runs side by side: on 2 cores with a cold kernel cache the emulation's (22 minutes)
# ends within the software device's (63 minutes) instead of adding to it. The emulation's
# report follows the software device's.
emulation_log="$(mktemp)"
TORCH_MOJO_BACKEND_PLATFORM=cuda-emulated MOJO_CONFORMANCE_SAMPLES=1 \
  MOJO_CONFORMANCE_SUMMARY="$emulation_log.json" \
  .venv/bin/python -X faulthandler -m pytest -q tests "$@" >"$emulation_log" 2>&1 &
emulation=$!
software_status=0
MOJO_CONFORMANCE_SAMPLES="$samples" .venv/bin/python -X faulthandler -m pytest -q tests "$@" ||
  software_status=$?
emulation_status=0
wait "$emulation" || emulation_status=$?
echo "=== The CUDA backend over the CPU emulation of its driver"
cat "$emulation_log"
rm -f "$emulation_log" "$emulation_log.json"
echo "software device: exit $software_status; CUDA emulation: exit $emulation_status"
[ "$software_status" -eq 0 ] && [ "$emulation_status" -eq 0 ]
