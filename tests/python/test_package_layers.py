"""python/tegula's packages form layers with no import cycle (DESIGN.md rule 12, docs/architecture.md): every
import counts, those inside functions too, so that no module reaches up into a package that imports it. tegula.core
and tegula.tile sit below tegula.numpy, and no file of tegula.numpy or tegula.math handles a raw device pointer."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2] / "python"
PACKAGE = ROOT / "tegula"


def _modules():
    mods = {}
    for p in PACKAGE.rglob("*.py"):
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        mods[name[:-len(".__init__")] if name.endswith(".__init__") else name] = p
    return mods


def _known(name, mods):
    """The module of `name` (a module itself, or the package or module that defines the name)."""
    while name not in mods and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in mods else None


def _imports(mods):
    """{module: {imported tegula module: first line}}, every import statement (function bodies included). The
    extension (_tegula) is a leaf below everything and is left out."""
    graph = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        edges = graph.setdefault(mod, {})
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" for a in node.names if a.name != "_tegula"]
            for t in targets:
                if t == "tegula._tegula" or t.startswith("tegula._tegula."):
                    continue
                if t.startswith("tegula.") or t == "tegula":
                    m = _known(t, mods)
                    if m is not None and m != mod:
                        edges.setdefault(m, node.lineno)
    return graph


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    graph = _imports(_modules())
    cycles = _cycles(graph)
    detail = [[f"{a} -> {b} (line {graph[a][b]})" for a in c for b in graph[a] if b in c] for c in cycles]
    assert not cycles, f"import cycles in python/tegula: {detail}"


def test_core_and_tile_sit_below_numpy():
    graph = _imports(_modules())
    up = [(a, b) for a, edges in graph.items() if a.startswith(("tegula.core", "tegula.tile"))
          for b in edges if b.startswith("tegula.numpy")]
    assert not up, f"tegula.core / tegula.tile import tegula.numpy: {up}"


def test_numpy_and_math_handle_no_device_pointer():
    """Library calls take arrays in C++ (cpp/tegula/libs/*_arrays, tegula.math's products through
    libs/matmul_epilogue_arrays): no pointer or hand-made write barrier in tegula.numpy or tegula.math."""
    files = sorted((PACKAGE / "numpy").rglob("*.py")) + [PACKAGE / "math.py"]
    found = [f"{p.relative_to(PACKAGE)}:{i}" for p in files
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if any(s in line for s in ("_data_ptr", "_prepare_write", "data_ptr()", '["data"]', "cublaslt_matmul"))]
    assert not found, f"raw device pointers in tegula.numpy / tegula.math: {found}"


def test_the_checker_sees_a_cycle():
    """The graph and the cycle finder are not vacuous: a two-module cycle and a function-level import are found."""
    tree = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert _cycles(tree) == [["a", "b", "c"]]
    graph = _imports(_modules())
    assert "tegula.numpy._creation" in graph["tegula.numpy._indexing"]  # a module-level import
    assert "tegula.numpy._sort" in graph["tegula.numpy._histogram"]     # one inside a function
