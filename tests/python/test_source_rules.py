"""Rules of the C++ core that no compiler checks but a GPU run has paid for.

No iostream formatting: the GPU machine's build of the extension (GCC 13 at /opt/gcc) carries a static libstdc++
whose locale facets get mixed with the process's shared libstdc++, so formatting a number or a hex address through
an ostream jumps into the wrong facet and the process dies with SIGSEGV (session 21: the tile launcher's hex
address; session 27: the matrix pass's describe(), which crashed every process that reached a pass). Messages are
built with str() (support/error.hpp: std::to_string and snprintf, no locale). A stream may still copy a file's
bytes (`o << f.rdbuf()`), which touches no facet; those few uses are listed here with what they do."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2] / "cpp" / "tegula"

STREAMS = re.compile(r"\b(?:std::)?(?:o|i)?stringstream\b|\bstd::(?:cout|cerr|clog|hex|setw|setprecision)\b|"
                     r"\bstd::(?:basic_)?(?:ostream|istream)\b|"
                     r"#include\s*<(?:iomanip|iostream)>")

# file (relative to cpp/tegula) -> the only stream lines it may hold (stripped), and why they are safe
ALLOWED = {
    "array/vm.cpp": ({"std::ostringstream o;", "o << f.rdbuf();"}, "reads a VM image file whole"),
    "jit/prebuilt.cpp": ({"std::ostringstream o;", "o << f.rdbuf();"}, "reads a prebuilt entry file whole"),
    "codegen/emitter.hpp": ({"std::ostringstream body_;"}, "the emitter's body; emitter::line appends strings only"),
}


def _stream_lines():
    for path in sorted(ROOT.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h", ".cc"):
            continue
        rel = path.relative_to(ROOT).as_posix()
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if STREAMS.search(code):
                yield rel, no, code.strip()


def test_no_iostream_formatting_in_the_core():
    bad = [f"cpp/tegula/{rel}:{no}: {code}" for rel, no, code in _stream_lines()
           if code not in ALLOWED.get(rel, (set(), ""))[0]]
    assert not bad, ("iostream use in the C++ core (format with str() from support/error.hpp instead; see this "
                     "module's docstring):\n" + "\n".join(bad))


def test_the_emitter_streams_strings_only():
    # body_ is an ostringstream: only emitter::line writes to it, and only std::string / char pieces
    writes = [line.strip() for path in (ROOT / "codegen").glob("emitter*.cpp")
              for line in path.read_text(encoding="utf-8").splitlines() if "body_ <<" in line]
    assert writes == ["void emitter::line(const std::string& s) { body_ << std::string(std::size_t(indent_) * 2, ' ') "
                      "<< s << '\\n'; }"], writes
