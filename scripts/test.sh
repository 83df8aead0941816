#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: cargo's unit tests and pytest on the
# software device (Mesa lavapipe), then pytest on the CUDA backend over the CPU emulation of its
# driver, with faulthandler on so a crash is reported, never silent. Every test file runs in
# full on both; the conformance sweep runs every item with its first 3 samples on the software
# device and its first one on the emulation (CI's fixed subset, to fit its time), or with every
# sample on the software device when MOJO_CONFORMANCE_SAMPLES=all.
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
MOJO_CONFORMANCE_SAMPLES="$samples" .venv/bin/python -X faulthandler -m pytest -q tests "$@"
TORCH_MOJO_BACKEND_PLATFORM=cuda-emulated MOJO_CONFORMANCE_SAMPLES=1 \
  .venv/bin/python -X faulthandler -m pytest -q tests "$@"
