"""tt.autotune's choice, on a fake device (the timing needs a GPU; tests/gpu runs it for real through the matmul
bench kernels): every config warmed first, then timed round robin, each judged by its median, a config that cannot
launch reported and skipped, and the choice remembered."""
import pytest

import tegula.core as core
import tegula.tile as tt
from tegula.tile import _autotune


@tt.kernel
def _fill(out, BLOCK: tt.Constant[int]):
    tt.store(out, index=(tt.bid(0),), tile=tt.full((BLOCK,), 1.0, out.dtype))


class _Clock:
    def __init__(self, cost):
        self.now, self.cost, self.order = 0.0, cost, []

    def launch(self, kernel, grid, args, stream=None, interpret=None):
        block = args[-1]
        self.order.append(block)
        if block == 3:
            raise ValueError("block of 3 does not fit")
        self.now += self.cost(block, len(self.order))


class _Event:
    def __init__(self, clock):
        self.clock, self.t = clock, 0.0

    def record(self, stream):
        self.t = self.clock.now

    def sync(self):
        pass

    def __sub__(self, other):
        return self.t - other.t


class _Stream:
    pass


def _fake_device(monkeypatch, clock):
    class Device:
        default_stream = _Stream()

        def create_event(self, timing=True):
            return _Event(clock)

    monkeypatch.setattr(core, "Device", Device)
    monkeypatch.setattr(core, "Stream", _Stream)
    monkeypatch.setattr(_autotune, "launch", clock.launch)


def test_round_robin_medians_pick_the_fastest_and_skip_what_fails(monkeypatch, tmp_path):
    # A drift: every launch is slower than the one before. Timed config by config, the first config would win
    # though it is the slowest; round robin sees block 64 as the fastest.
    clock = _Clock(lambda block, n: {16: 1.2, 64: 1.0, 3: 0.0}[block] + 0.01 * n)
    _fake_device(monkeypatch, clock)
    tuned = tt.autotune([tt.Config(BLOCK=16), tt.Config(BLOCK=3), tt.Config(BLOCK=64)], warmup=1, repeat=5)(_fill)
    monkeypatch.setattr(tuned, "_file", lambda: "")  # no on-disk choice
    out = object()
    best = tuned._tune("k", (4,), (out,), None)
    assert best == tt.Config(BLOCK=64)
    timings = dict((repr(c), t) for c, t in tuned.timings["k"])
    assert "does not fit" in timings[repr(tt.Config(BLOCK=3))]
    assert timings[repr(tt.Config(BLOCK=64))] < timings[repr(tt.Config(BLOCK=16))]
    # warm-up of each config (the failing one once), then rounds alternating between the two that run
    assert clock.order[:3] == [16, 3, 64] and clock.order[3:] == [16, 64] * 5


def test_no_config_runs(monkeypatch):
    clock = _Clock(lambda block, n: 1.0)
    _fake_device(monkeypatch, clock)
    tuned = tt.autotune([tt.Config(BLOCK=3)])(_fill)
    with pytest.raises(RuntimeError, match="no configuration ran"):
        tuned._tune("k", (4,), (object(),), None)
