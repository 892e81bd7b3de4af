"""run_threads: the helper the CPU and GPU thread tests share."""
import threading
import traceback

import pytest


def run_threads(fn, n=8):
    """Runs fn(i) on n threads released together; fails the test with the first failure's thread traceback."""
    barrier = threading.Barrier(n)
    errors = []

    def body(i):
        try:
            barrier.wait()
            fn(i)
        except BaseException:  # noqa: BLE001 - reported below
            errors.append((i, traceback.format_exc()))

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        pytest.fail(f"{len(errors)} threads failed; first (thread {errors[0][0]}):\n{errors[0][1]}")
