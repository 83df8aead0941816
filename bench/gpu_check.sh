#!/usr/bin/env bash
# The NVIDIA check. Runs on a machine with an NVIDIA GPU, Python 3.12 with torch 2.11.0+cu130
# (which brings cuBLAS and NVRTC as nvidia-* wheels), numpy, pytest and pytest-xdist; it needs
# no Rust and no internet. The extension is built elsewhere and copied in (README, "The GPU
# check"). Writes every result to one directory (default gpu-check-results/) and ends in under
# 12 minutes: each part has its own time limit. GPU_CHECK_PARTS picks parts (default: all, in
# the order below); GPU_CHECK_TESTS the pytest selection (default: tests).
#
#   bash bench/gpu_check.sh [RESULTS_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
RESULTS="${1:-gpu-check-results}"
mkdir -p "$RESULTS"
PY="${PYTHON:-python3}"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
export TORCH_MOJO_BACKEND_PLATFORM=cuda
export TORCH_MOJO_BACKEND_TRACE=0
export TORCH_MOJO_BACKEND_SHADOW_NVRTC=0
export TORCH_MOJO_BACKEND_CACHE_DIR="${TORCH_MOJO_BACKEND_CACHE_DIR:-$PWD/.gpu-check-cache}"
LOG="$RESULTS/log.txt"
: >"$LOG"

# Kernels compiled ahead (bench/gpu_check_cache.sh) save the suite NVRTC time; optional.
if [ -f bench/kernel-cache.tar.xz ]; then
  mkdir -p "$TORCH_MOJO_BACKEND_CACHE_DIR"
  tar -C "$TORCH_MOJO_BACKEND_CACHE_DIR" -xJf bench/kernel-cache.tar.xz
fi

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  "$PY" -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name())'
  "$PY" -c 'import torch, torch_mojo_backend as m; m.register_mojo_devices(); print("mojo backend:", m._C.backend_name(), torch.mojo.get_device_name(), "init error:", m._C.init_error())'
} >"$RESULTS/env.txt" 2>&1
cat "$RESULTS/env.txt"

part() {
  local name=$1 limit=$2
  shift 2
  case " ${GPU_CHECK_PARTS:-ops rng bench firstcall nccl compile pytest} " in
  *" $name "*) ;;
  *) return ;;
  esac
  local start=$SECONDS
  echo "=== $name (limit ${limit}s)" | tee -a "$LOG"
  timeout -k 5 "$limit" "$@" >>"$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $((SECONDS - start))s" | tee -a "$LOG"
  tail -n 3 "$LOG" | sed 's/^/    /'
}

part ops 45 "$PY" bench/gpu_check.py ops "$RESULTS"
part rng 45 "$PY" bench/gpu_check.py rng "$RESULTS"
part bench 120 "$PY" bench/gpu_check.py bench "$RESULTS"
part firstcall 45 "$PY" bench/gpu_check.py firstcall "$RESULTS"
# The collectives through NCCL, one rank per GPU, and all_reduce against stock NCCL.
part nccl 75 bash bench/gpu_nccl.sh "$RESULTS"
# Attention and convolution alone (bench measures them too); only when GPU_CHECK_PARTS names it.
part layers 90 "$PY" bench/gpu_check.py layers "$RESULTS"
# Which stage goes wrong when one thread runs a backward while another runs a forward; only
# when GPU_CHECK_PARTS names it (the suite's test_threads.py checks the same).
for warm in none forward library kernel; do
  part threads 60 "$PY" bench/gpu_thread_probe.py --warm "$warm"
done
# -v names each test as it ends and failures.txt gets each failure's report as it happens, so
# a run stopped at its limit still says what failed and why.
export MOJO_TEST_FAILURES="$RESULTS/failures.txt"
# shellcheck disable=SC2086 # the selection is words
part pytest "${GPU_CHECK_PYTEST_LIMIT:-195}" "$PY" -m pytest -v ${GPU_CHECK_TESTS:-tests} -p no:cacheprovider \
  -n "${GPU_CHECK_WORKERS:-14}" --timeout 120 --junitxml "$RESULTS/junit.xml" -o junit_family=legacy
grep -E " passed| failed" "$LOG" | tail -n 1 >"$RESULTS/pytest.txt"
grep -E "(FAILED|ERROR) tests/" "$LOG" | sed 's/^\[gw[0-9]*\] \[ *[0-9]*%\] //' >>"$RESULTS/pytest.txt"
part compile "${GPU_CHECK_COMPILE_LIMIT:-195}" "$PY" bench/gpu_check.py compile "$RESULTS"
echo "results in $RESULTS:"
ls "$RESULTS"
