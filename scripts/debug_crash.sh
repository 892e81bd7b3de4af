#!/usr/bin/env bash
# Temporary: native backtrace (LD_PRELOAD handler + addr2line) and Python debug allocator for a pytest crash.
REPO=$(cd "$(dirname "$0")/.." && pwd)
python3 -m pip install -q --no-build-isolation --no-deps "$REPO" > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
gcc -shared -fPIC -o /tmp/segv.so "$REPO/scripts/segv_backtrace.c" || exit 1
cd /tmp
LD_PRELOAD=/tmp/segv.so PYTHONMALLOC=debug timeout 200 python3 -X dev -m pytest -x -q -p no:cacheprovider \
  "$REPO/tests/python" "$REPO/tests/gpu" > "$OUT/crash.txt" 2>&1
echo "pytest rc $?"
grep -v "^  File\|^Current thread\|^Thread 0x" "$OUT/crash.txt" | grep -B3 -A40 "Fatal Python\|native backtrace\|Debug memory\|error" | head -20
grep -A40 "native backtrace" "$OUT/crash.txt" | while read -r line; do
  if [[ $line =~ ^(/[^\(]*_tegula[^\(]*)\((\+0x[0-9a-f]+)\) ]]; then
    echo "$(addr2line -f -C -e "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]#+}" | head -1 | cut -c1-200)"
  else
    echo "$line" | cut -c1-150
  fi
done
