"""Timing shared by the benchmarks: the median of several runs, each until the device has
finished it."""

import statistics
import time

import torch


def sync(device):
    if device.type != "cpu":
        torch.accelerator.synchronize()


def timed(fn, args, device, runs=5, warmup=2):
    """Median seconds of `fn(*args)`, each run until the device has finished it, after
    `warmup` untimed runs (both sides' allocators and caches settle)."""
    for _ in range(warmup):
        fn(*args)
    times = []
    for _ in range(runs):
        sync(device)
        start = time.perf_counter()
        fn(*args)
        sync(device)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
