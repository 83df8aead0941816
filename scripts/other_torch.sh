#!/usr/bin/env bash
# Builds the extension against another torch release and runs a part of the suite with it,
# beside the pinned torch of .venv (which stays as it is). The C++ glue is built per torch
# minor version; this is how a new one is checked, e.g. `bash scripts/other_torch.sh 2.12.0`.
# Needs the setup of scripts/setup.sh (the .venv, its nvidia-* wheels and a built target/).
set -euo pipefail
version="${1:?usage: scripts/other_torch.sh TORCH_VERSION [PYTEST ARGS...]}"
shift
cd "$(dirname "$0")/.."
root="${OTHER_TORCH_DIR:-/tmp/torch-$version}"
python=.venv/bin/python
site=$($python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")

if [ ! -d "$root/site/torch" ]; then
  $python -m pip install -q --no-deps --target "$root/site" "torch==$version"
  # torch's CUDA libraries are found beside it: reuse .venv's, replacing those whose pinned
  # version differs in this release (NCCL and cuDNN change most often).
  mkdir -p "$root/site/nvidia"
  for lib in "$site"/nvidia/*; do ln -sfn "$lib" "$root/site/nvidia/$(basename "$lib")"; done
  pins=$($python - "$root/site" <<'EOF'
import pathlib, re, sys
meta = next(pathlib.Path(sys.argv[1]).glob("torch-*.dist-info/METADATA")).read_text()
for name in ("nvidia-nccl-cu13", "nvidia-cudnn-cu13"):
    m = re.search(rf"Requires-Dist: {name}==([\w.]+)", meta)
    if m:
        print(f"{name}=={m.group(1)}")
EOF
)
  if [ -n "$pins" ]; then
    # shellcheck disable=SC2086
    $python -m pip install -q --no-deps --target "$root/nvidia-pins" $pins
    for lib in "$root"/nvidia-pins/nvidia/*; do ln -sfn "$lib" "$root/site/nvidia/$(basename "$lib")"; done
  fi
fi

# Reuse the compiled dependencies; only the glue and the crate are rebuilt.
if [ ! -d "$root/target" ] && [ -d target ]; then cp -a target "$root/target"; fi
touch csrc/mojo.h
PYTHONPATH="$root/site" PYO3_PYTHON="$PWD/$python" CARGO_TARGET_DIR="$root/target" cargo build

rm -rf "$root/package" && mkdir -p "$root/package"
cp -r python/torch_mojo_backend "$root/package/"
cp "$root/target/debug/libtorch_mojo_backend.so" "$root/package/torch_mojo_backend/_C.abi3.so"
export PYTHONPATH="$root/package:$root/site"
$python -c "import torch; print('torch', torch.__version__)"
if [ $# -eq 0 ]; then
  set -- tests/test_profiler.py tests/test_streams.py tests/test_registration.py \
    tests/test_training.py tests/test_autocast.py tests/test_memory.py tests/test_pinned.py \
    tests/test_serialization.py tests/test_random.py
fi
TORCH_MOJO_BACKEND_SOFTWARE=1 XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}" \
  $python -m pytest -q -p no:cacheprovider "$@"
