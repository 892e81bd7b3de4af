"""The histogram rows of the libs workload alone (tegula.numpy.histogram of 2^24 float32 into 100 bins against
torch.histc and cupy.histogram), for a quick look after a change to the counting kernel:
    cd bench && python3 probe_histogram.py"""
from __future__ import annotations

import tempfile

from run import Context
from workloads import libs

if __name__ == "__main__":
    for r in libs._histogram(Context(False, tempfile.mkdtemp())):
        print(f"{r['impl']:8s} {r['value']:8.1f} {r['unit']}  {r.get('note', '')}")
