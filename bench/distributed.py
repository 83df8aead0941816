"""all_reduce and all_gather bandwidth on two ranks: mojo tensors through the mojo backend
against CPU tensors through stock Gloo, in the same run.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/distributed.py
(it starts two ranks with torchrun, one software device each). On NVIDIA,
`bench/distributed.py --nccl` runs one rank per GPU and compares the mojo group (NCCL through
the backend) with stock PyTorch's NCCL group on CUDA tensors of the same GPUs, at 16 and
256 MiB (one GPU: algorithm bandwidth, bytes over time, as bus bandwidth is then zero).
Each row first checks that both computed the same values, then prints the median of the runs
(the two sides' interleaved) as bus bandwidth (NCCL's definition: all_reduce moves 2(n-1)/n
of the buffer per rank, all_gather (n-1)/n).
"""

import os
import statistics
import subprocess
import sys
import time

SIZES_MIB = [1, 16, 64]
RUNS = 15


def bus_bandwidth(kind: str, nbytes: int, seconds: float, ranks: int) -> float:
    factor = 2 * (ranks - 1) / ranks if kind == "all_reduce" else (ranks - 1) / ranks
    return factor * nbytes / seconds / 1e9


def measure(cases) -> list[float]:
    """The median time of each (run, sync) pair in `cases`, their runs interleaved so that
    the machine's drift (two ranks share the cores) weighs on each alike."""
    times = [[] for _ in cases]
    for attempt in range(RUNS + 1):
        for (run, sync), spent in zip(cases, times, strict=True):
            start = time.perf_counter()
            run()
            sync()
            if attempt:  # the first run warms up
                spent.append(time.perf_counter() - start)
    return [statistics.median(spent) for spent in times]


def nccl_main() -> None:
    """One rank of the NVIDIA comparison: the mojo group against ProcessGroupNCCL."""
    import torch
    import torch.distributed as dist

    import torch_mojo_backend

    torch_mojo_backend.register_mojo_devices()
    local = int(os.environ["LOCAL_RANK"])
    torch.accelerator.set_device_index(local)
    torch.cuda.set_device(local)
    dist.init_process_group(backend="cpu:gloo,mojo:mojo,cuda:nccl")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    mojo, cuda = torch.device("mojo", local), torch.device("cuda", local)
    if rank == 0:
        unit = "bus" if ranks > 1 else "algorithm"
        print(f"| all_reduce ({ranks} ranks, {unit} GB/s) | mojo | stock NCCL | ratio |")
        print("|---|---:|---:|---:|")
    for mib in (16, 256):
        n = mib * 2**20 // 4
        x = torch.full((n,), float(rank + 1), device=cuda)
        y = x.to(mojo)
        dist.all_reduce(x)
        dist.all_reduce(y)
        assert torch.equal(x.cpu(), y.cpu())
        theirs, ours = measure(
            [
                (lambda x=x: dist.all_reduce(x), torch.cuda.synchronize),
                (lambda y=y: dist.all_reduce(y), lambda: torch.accelerator.synchronize(mojo)),
            ]
        )
        factor = 2 * (ranks - 1) / ranks if ranks > 1 else 1.0
        a, b = factor * n * 4 / ours / 1e9, factor * n * 4 / theirs / 1e9
        if rank == 0:
            print(f"| {mib} MiB float32 | {a:.1f} | {b:.1f} | {a / b:.2f}× |", flush=True)
    dist.destroy_process_group()


def rank_main() -> None:
    import torch
    import torch.distributed as dist

    import torch_mojo_backend

    torch_mojo_backend.register_mojo_devices()
    local = int(os.environ["LOCAL_RANK"])
    torch.accelerator.set_device_index(local)
    dist.init_process_group()
    gloo = dist.new_group(backend="gloo")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    device = torch.device("mojo", local)
    if rank == 0:
        print(f"| case ({ranks} ranks) | mojo GB/s | Gloo CPU GB/s | ratio |")
        print("|---|---:|---:|---:|")
    for mib in SIZES_MIB:
        n = mib * 2**20 // 4
        host = torch.full((n,), float(rank + 1))
        mine = host.to(device)
        for kind in ("all_reduce", "all_gather"):
            if kind == "all_reduce":
                x, y = host.clone(), mine.clone()
                dist.all_reduce(x, group=gloo)
                dist.all_reduce(y)
                assert torch.equal(x, y.cpu())

                def on_cpu(x=x):
                    dist.all_reduce(x, group=gloo)

                def on_mojo(y=y):
                    dist.all_reduce(y)

            else:
                out_cpu = host.new_empty(ranks * n)
                out_mojo = mine.new_empty(ranks * n)
                dist.all_gather_into_tensor(out_cpu, host, group=gloo)
                dist.all_gather_into_tensor(out_mojo, mine)
                assert torch.equal(out_cpu, out_mojo.cpu())

                def on_cpu(out=out_cpu, host=host):
                    dist.all_gather_into_tensor(out, host, group=gloo)

                def on_mojo(out=out_mojo, mine=mine):
                    dist.all_gather_into_tensor(out, mine)

            cpu, mojo = measure(
                [(on_cpu, lambda: None), (on_mojo, lambda: torch.accelerator.synchronize(device))]
            )
            a = bus_bandwidth(kind, n * 4, mojo, ranks)
            b = bus_bandwidth(kind, n * 4, cpu, ranks)
            if rank == 0:
                print(
                    f"| {kind} {mib} MiB float32 | {a:.2f} | {b:.2f} | {a / b:.2f}× |", flush=True
                )
    dist.destroy_process_group()


if __name__ == "__main__":
    if "LOCAL_RANK" in os.environ:
        nccl_main() if "--nccl" in sys.argv else rank_main()
    elif "--nccl" in sys.argv:
        import torch

        command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
        command += [f"--nproc-per-node={torch.cuda.device_count()}", __file__, "--nccl"]
        sys.exit(subprocess.run(command).returncode)
    else:
        env = dict(os.environ, TORCH_MOJO_BACKEND_SOFTWARE_DEVICES="2")
        command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
        command += ["--nproc-per-node=2", __file__]
        sys.exit(subprocess.run(command, env=env).returncode)
