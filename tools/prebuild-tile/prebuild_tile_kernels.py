"""The build's step that writes tegula.numpy's tile kernels into the package (tegula/numpy/_prebuild.py says what and
why): python prebuild_tile_kernels.py EXTENSION SOURCE_DIR OUT_DIR.

It runs before the package is installed, so it imports tegula from SOURCE_DIR (python/) with the extension just
built (EXTENSION, wherever the build put it) in place of any other _tegula found there."""
import importlib.util
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: prebuild_tile_kernels.py EXTENSION SOURCE_DIR OUT_DIR", file=sys.stderr)
        return 2
    extension, source, out = argv
    sys.path.insert(0, source)
    spec = importlib.util.spec_from_file_location("tegula._tegula", extension)
    module = importlib.util.module_from_spec(spec)
    sys.modules["tegula._tegula"] = module
    spec.loader.exec_module(module)
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("tegula-prebuild: tegula.numpy's tile kernels not prebuilt (NumPy is not importable by the build's "
              "Python); they compile on first use")
        return 0
    from tegula.numpy import _prebuild

    return _prebuild.main([out])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
