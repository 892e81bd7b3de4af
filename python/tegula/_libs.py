"""Where CUDA libraries may live besides the system paths: NVIDIA's pip wheels (nvidia-*)."""
import os
import sys


def wheel_library_dirs():
    """Library folders of installed nvidia-* wheels (CUDA 13 'cu13' layout and the older per-library one)."""
    dirs = []
    for base in sys.path:
        root = os.path.join(base, "nvidia")
        if not os.path.isdir(root):
            continue
        for sub in ("cu13/lib", "cuda_nvrtc/lib", "nvjitlink/lib", "cublas/lib", "nccl/lib"):
            path = os.path.join(root, sub)
            if os.path.isdir(path):
                dirs.append(path)
    return dirs


def register(core_module):
    for path in wheel_library_dirs():
        core_module.add_library_dir(path)
