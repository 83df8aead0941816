#!/usr/bin/env bash
# Prepares this checkout for bench/gpu_check.sh on a GPU machine without Rust: builds the
# release extension into python/torch_mojo_backend/ and packs the NVRTC kernels this machine
# has compiled (the test suite shadow-compiles every kernel for sm_80 and sm_90) into
# bench/kernel-cache.tar.xz. Then copy the whole checkout to the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/maturin ] || bash scripts/setup.sh
rm -rf target/wheels-gpu-check
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" \
  .venv/bin/maturin build --release -q -o target/wheels-gpu-check
python3 -m zipfile -e target/wheels-gpu-check/*.whl target/wheels-gpu-check/unpacked
cp target/wheels-gpu-check/unpacked/torch_mojo_backend/_C.abi3.so python/torch_mojo_backend/
# Debug line tables make the library 75 MB; the check needs none of them.
strip --strip-debug python/torch_mojo_backend/_C.abi3.so
cache="${TORCH_MOJO_BACKEND_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-mojo-backend}"
if [ -d "$cache/cuda" ]; then
  tar -C "$cache" -cf - cuda | xz -T0 -6 >bench/kernel-cache.tar.xz
fi
ls -la python/torch_mojo_backend/_C.abi3.so bench/kernel-cache.tar.xz 2>/dev/null || true
