"""Streams and events (the spec's table rows torch.Stream, torch.Event, current_stream):
real stream objects with a per-thread current stream, work ordered as the user orders it,
events that query, synchronise and time with the device clock."""

import threading
import time

import pytest
import torch


def slow_product(a: torch.Tensor, repeats: int = 4) -> torch.Tensor:
    for _ in range(repeats):
        a = (a @ a).tanh()
    return a


def side_stream_after_current(device) -> torch.Stream:
    """A new stream whose work follows what the current stream was given so far."""
    side = torch.Stream(device)
    side.wait_stream(torch.accelerator.current_stream())
    return side


def test_streams_are_objects_of_the_device(device):
    default = torch.accelerator.current_stream()
    assert default.device == torch.device(device.type, 0) and default.stream_id == 0
    s1, s2 = torch.Stream(device), torch.Stream(device)
    assert s1.stream_id != s2.stream_id and 0 not in (s1.stream_id, s2.stream_id)
    assert s1 == s1 and s1 != s2
    with s1:
        assert torch.accelerator.current_stream() == s1
        with s2:
            assert torch.accelerator.current_stream() == s2
        assert torch.accelerator.current_stream() == s1
    assert torch.accelerator.current_stream() == default
    torch.accelerator.set_stream(s2)
    assert torch.accelerator.current_stream() == s2
    torch.accelerator.set_stream(default)


def test_the_current_stream_is_per_thread(device):
    side = torch.Stream(device)
    seen = []
    with side:
        thread = threading.Thread(target=lambda: seen.append(torch.accelerator.current_stream()))
        thread.start()
        thread.join()
    assert seen[0].stream_id == 0


def test_work_on_a_side_stream_is_ordered_when_the_user_orders_it(device):
    a_cpu = torch.randn(48, 48) / 8
    a = a_cpu.to(device)
    side = side_stream_after_current(device)
    with side:
        b = slow_product(a)
        done = side.record_event()
    torch.accelerator.current_stream().wait_event(done)
    c = b + 1
    b.record_stream(torch.accelerator.current_stream())
    torch.testing.assert_close(c.cpu(), slow_product(a_cpu) + 1, rtol=1e-5, atol=1e-5)
    torch.accelerator.current_stream().wait_stream(side)
    side.synchronize()
    # The current stream's wait on the side stream ends on the device's time, not the host's:
    # it is done once the current stream is synchronized too (a race the CUDA emulation, whose
    # streams run on their own threads, showed).
    torch.accelerator.current_stream().synchronize()
    assert side.query() and torch.accelerator.current_stream().query()


def test_events_query_synchronize_and_time(device):
    a = torch.randn(48, 48, device=device) / 8
    slow_product(a)
    torch.accelerator.synchronize()
    start, end = torch.Event(device, enable_timing=True), torch.Event(device, enable_timing=True)
    assert start.query()  # not yet recorded: nothing to wait for
    begun = time.perf_counter()
    start.record()
    slow_product(a, repeats=8)
    end.record()
    end.synchronize()
    host_ms = (time.perf_counter() - begun) * 1e3
    assert end.query()
    elapsed = start.elapsed_time(end)
    assert 0 < elapsed <= host_ms * 1.05 + 1
    assert end.elapsed_time(start) < 0


def test_event_errors_are_pytorchs(device):
    timed = torch.Event(device, enable_timing=True)
    timed.record()
    untimed = torch.Event(device)
    untimed.record()
    untimed.synchronize()
    with pytest.raises(ValueError, match="enable_timing=True"):
        untimed.elapsed_time(timed)
    with pytest.raises(ValueError, match="must be recorded"):
        torch.Event(device, enable_timing=True).elapsed_time(timed)


def test_recording_again_moves_the_event(device):
    event = torch.Event(device, enable_timing=True)
    first = torch.Event(device, enable_timing=True)
    first.record()
    event.record()
    slow_product(torch.randn(48, 48, device=device) / 8)
    event.record()
    event.synchronize()
    assert first.elapsed_time(event) > 0


def test_memory_another_stream_reads_is_not_reused_before_it_has(device):
    a_cpu = torch.randn(128, 128) / 12
    a = a_cpu.to(device)
    side = side_stream_after_current(device)
    with side:
        b = slow_product(a, repeats=6)  # reads `a` on the side stream
    a.record_stream(side)
    del a
    # Same-sized blocks taken and overwritten on the default stream at once: on a backend whose
    # streams run concurrently, `a`'s block must not be among them until the side stream is done.
    filled = [torch.full((128, 128), 7.0, device=device) for _ in range(4)]
    torch.accelerator.current_stream().wait_stream(side)
    torch.testing.assert_close(b.cpu(), slow_product(a_cpu, repeats=6), rtol=1e-4, atol=1e-5)
    assert all(bool((f == 7.0).all()) for f in filled)
