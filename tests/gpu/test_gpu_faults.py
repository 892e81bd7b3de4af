"""Faults: a trapping kernel or an illegal address raises CUDAError naming the kernel; the process lives on."""
from child_process import run_python

TRAP = r'''
import tegula.core as tc
src = 'extern "C" __global__ void {name}(float* p) {{ {body} }}'
k = tc.Program(src).compile().get_kernel("{name}")
s = tc.Device().create_stream()
buf = tc.Buffer.allocate(16, stream=s)
tc.launch(s, tc.LaunchConfig(grid=1, block=32), k, buf)
try:
    s.sync()
    print("NO ERROR")
except tc.CUDAError as e:
    print("CUDAError:", e, "| code", e.code)
try:
    tc.Buffer.allocate(16, stream=s).fill(0)
    print("LATER CALL OK")
except tc.CUDAError as e:
    print("LATER CALL CUDAError:", str(e)[:60])
print("ALIVE")
'''


def run_fault(name, body):
    proc = run_python(TRAP.format(name=name, body=body), check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_trap_raises_and_names_the_kernel():
    out = run_fault("trapper", "__trap();")
    assert "CUDAError:" in out and "'trapper'" in out and "sticky" in out
    assert "LATER CALL CUDAError" in out and out.strip().endswith("ALIVE")


def test_illegal_address_raises():
    out = run_fault("wild_write", "*(volatile float*)(0x10) = 1.0f;")
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in out and "'wild_write'" in out and out.strip().endswith("ALIVE")
