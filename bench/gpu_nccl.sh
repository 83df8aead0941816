#!/usr/bin/env bash
# Part of the NVIDIA check (bench/gpu_check.sh): the distributed suite's collective cases on
# one rank per GPU through the mojo group's NCCL path (cases that need a second rank to pair a
# send with are left out on one GPU), then bench/distributed.py --nccl.
#
#   bash bench/gpu_nccl.sh RESULTS_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
RESULTS="$1/nccl"
PY="${PYTHON:-python3}"
GPUS=$("$PY" -c 'import torch; print(torch.cuda.device_count())')
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
ONE_RANK="the_group,all_reduce,reduce_and_reduce_scatter,all_to_all,large,non_contiguous"
ONE_RANK="$ONE_RANK,async,coalescing,complex"
if [ "$GPUS" -gt 1 ]; then ONE_RANK=""; fi
MOJO_DIST_RESULTS="$RESULTS" MOJO_DIST_ONLY="$ONE_RANK" \
  PYTHONPATH="$PWD/tests/distributed${PYTHONPATH:+:$PYTHONPATH}" \
  timeout -k 5 40 "$PY" -m torch.distributed.run --standalone --nproc-per-node="$GPUS" \
  tests/distributed/collectives.py
"$PY" - "$RESULTS" "$GPUS" <<'PYEOF'
import json, sys
folder, ranks = sys.argv[1], int(sys.argv[2])
for rank in range(ranks):
    try:
        outcomes = json.load(open(f"{folder}/rank{rank}.json"))
    except OSError:
        print(f"rank {rank}: no outcomes")
        continue
    failed = {name: text for name, text in outcomes.items() if text != "ok"}
    print(f"rank {rank}: {len(outcomes) - len(failed)} of {len(outcomes)} collective cases passed")
    for name, text in failed.items():
        print(f"  FAILED {name}: {text[-600:]}")
PYEOF
timeout -k 5 25 "$PY" bench/distributed.py --nccl
