"""Running a test's work on several threads at once."""

import threading


def run_in_threads(work, threads=2, repeats=3):
    """Calls `work()` `repeats` times on each of `threads` threads at once; returns the
    results (in no particular order) and raises the first exception any call raised."""
    results, errors = [], []

    def loop():
        try:
            for _ in range(repeats):
                results.append(work())
        except Exception as e:  # raised below, on the test's thread
            errors.append(e)

    started = [threading.Thread(target=loop) for _ in range(threads)]
    for t in started:
        t.start()
    for t in started:
        t.join()
    if errors:
        raise errors[0]
    assert len(results) == threads * repeats
    return results
