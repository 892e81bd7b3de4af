#!/usr/bin/env bash
# dev.sh {demo|test}: set up a virtualenv and build tegula, then run the demo or every test.
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-}
if [[ $what != demo && $what != test ]]; then
  echo "usage: ./dev.sh demo | ./dev.sh test" >&2
  exit 2
fi

venv=${TEGULA_VENV:-.venv}
[[ -x $venv/bin/python ]] || python3 -m venv "$venv"
py=$venv/bin/python
"$py" -m pip install -q --disable-pip-version-check numpy pytest hypothesis nanobind scikit-build-core array-api-strict ml_dtypes scipy "dask[array]"

if [[ $what == demo ]]; then
  # The user's path: pip builds and installs the package, then the demo runs from it.
  "$py" -m pip install -q --disable-pip-version-check --no-build-isolation .
  "$py" examples/demo.py
  exit
fi

# The developer's path: one CMake build gives the gtest binary and the extension in python/tegula.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build/dev "${generator[@]}" -DTEGULA_BUILD_TESTS=ON -DPython_EXECUTABLE="$PWD/$py" >/dev/null
cmake --build build/dev -j "$(nproc)"
ctest --test-dir build/dev --output-on-failure
PYTHONPATH=python "$py" -m pytest -q -rs tests/python tests/gpu
