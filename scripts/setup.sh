#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root): system packages, a venv with the pinned torch,
# and the build of torch_mojo_backend into that venv. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

TORCH_VERSION="${TORCH_VERSION:-2.11.0}"
TORCHVISION_VERSION="${TORCHVISION_VERSION:-0.26.0}"
TRANSFORMERS_VERSION="${TRANSFORMERS_VERSION:-5.24.0}"

if command -v apt-get >/dev/null; then
  need=()
  for pkg in mesa-vulkan-drivers libvulkan1 python3-venv g++ pkg-config curl; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  if [ "${#need[@]}" -gt 0 ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  fi
fi

# The software device's lavapipe from Mesa 25 (bookworm-backports) where Debian 12 ships 22.3,
# whose storage-buffer stores go lane by lane through the stack: a 16M-element add takes 200 ms
# there and 35 ms on 25 (2 cores, same build).
if command -v apt-get >/dev/null && grep -q '^VERSION_CODENAME=bookworm' /etc/os-release &&
  dpkg --compare-versions "$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)" lt 25; then
  echo "deb http://deb.debian.org/debian bookworm-backports main" \
    >/etc/apt/sources.list.d/bookworm-backports.list
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q -t bookworm-backports mesa-vulkan-drivers
fi

if ! command -v cargo >/dev/null; then
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  # shellcheck disable=SC1091
  source "$HOME/.cargo/env"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q "torch==${TORCH_VERSION}" numpy pytest expecttest ruff "maturin>=1.16,<2" \
  "nvidia-cuda-nvrtc==13.0.*"
# torchvision (models the tests train) matching torch, without letting it change torch.
.venv/bin/pip install -q --no-deps "torchvision==${TORCHVISION_VERSION}"
.venv/bin/pip install -q pillow
# Hugging Face transformers (GPT-2 built from a config in the tests; nothing downloaded at run time).
.venv/bin/pip install -q "transformers==${TRANSFORMERS_VERSION}"

# Build the extension in place (python/torch_mojo_backend/_C.abi3.so) and register the package.
rm -f python/torch_mojo_backend/_C.abi3.so
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" .venv/bin/maturin develop -q
