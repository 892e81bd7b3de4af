"""The tile front end: a kernel's Python AST -> tile IR, through the C++ builder (no tracing).

Names are bound to IR values (Tile, Array) or to Python statics (ints, floats, tuples, dtypes,
modules). Arithmetic on statics folds in Python; on tiles it emits IR with NumPy semantics (the
builder promotes and broadcasts). `for`/`while`/`if` over run-time values become IR regions whose
carried values are the variables the body assigns. Errors name the user's file and line.
"""
from __future__ import annotations

import ast
import builtins
import operator

from .. import _tegula
from . import _ops, _types
from ._emit import Emitter
from ._values import Array, ArrayShape, BoundMethod, Tile, is_static_number

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
           ast.LShift: "shl", ast.RShift: "shr"}
_PYOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
          ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
          ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
          ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_CMPOPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_PYCMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
          ast.Gt: operator.gt, ast.GtE: operator.ge}
_METHODS = {"astype", "reshape", "permute", "transpose", "expand_dims", "broadcast_to", "sum", "prod", "max",
            "min", "argmax", "argmin", "cumsum", "cumprod"}


class TileSyntaxError(SyntaxError):
    """A Python construct the tile language does not support, at the user's line."""


def assigned_names(stmts) -> list[str]:
    """Names a statement list assigns (in first-assignment order), looking into nested blocks."""
    out = []
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.For):
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and n.id not in out:
                    out.append(n.id)
    return out


class Translator(Emitter):
    def __init__(self, fn, filename, first_line, globals_, specs):
        super().__init__(_tegula.Builder(fn.__name__), filename)
        self.fn = fn
        self.line_offset = first_line - 1
        self.globals = globals_
        self.specs = specs  # per parameter: ("array", dtype, ndim) | ("scalar", dtype) | ("const", value)

    # ---- entry -------------------------------------------------------------------------------
    def translate(self, tree: ast.FunctionDef):
        scope = {}
        args = tree.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            self.syntax(tree, "kernel parameters must be plain positional parameters")
        if len(args.args) != len(self.specs):
            raise TypeError(f"{self.fn.__name__}() takes {len(args.args)} arguments but {len(self.specs)} were given")
        for a, spec in zip(args.args, self.specs):
            kind = spec[0]
            if kind == "const":
                scope[a.arg] = spec[1]
            elif kind == "array":
                vid = self.b.add_param(a.arg, spec[1], spec[2], True)
                scope[a.arg] = Array(vid, spec[1], spec[2], a.arg)
            else:
                vid = self.b.add_param(a.arg, spec[1], [], False)
                scope[a.arg] = Tile(vid, spec[1], ())
        self.block(tree.body, scope)
        return self.b.finish()

    def syntax(self, node, message):
        err = TileSyntaxError(f"{message} (in tile kernel '{self.fn.__name__}')")
        err.filename, err.lineno = self.filename, getattr(node, "lineno", 0) + self.line_offset
        err.offset = getattr(node, "col_offset", 0) + 1
        raise err

    def locate(self, node):
        self.line = getattr(node, "lineno", 0) + self.line_offset
        self.b.set_location(self.filename, self.line, getattr(node, "col_offset", 0) + 1)

    # ---- statements --------------------------------------------------------------------------
    def block(self, stmts, scope):
        for s in stmts:
            self.locate(s)
            self.stmt(s, scope)

    def stmt(self, s, scope):
        if isinstance(s, ast.Assign):
            value = self.expr(s.value, scope)
            for t in s.targets:
                self.bind(t, value, scope)
        elif isinstance(s, ast.AugAssign):
            cur = self.expr(s.target, scope) if isinstance(s.target, ast.Name) else self.syntax(s, "augmented assignment to this target")
            self.bind(s.target, self.binop(type(s.op), cur, self.expr(s.value, scope), s), scope)
        elif isinstance(s, ast.AnnAssign) and s.value is not None:
            self.bind(s.target, self.expr(s.value, scope), scope)
        elif isinstance(s, ast.Expr):
            if not (isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)):  # docstrings
                self.expr(s.value, scope)
        elif isinstance(s, ast.For):
            self.for_(s, scope)
        elif isinstance(s, ast.If):
            self.if_(s, scope)
        elif isinstance(s, ast.While):
            self.while_(s, scope)
        elif isinstance(s, ast.Assert):
            self.assert_(s, scope)
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.syntax(s, "a tile kernel cannot return a value: store results into an array")
            self.syntax(s, "'return' inside a tile kernel is not supported; structure the code with if/else")
        else:
            self.syntax(s, f"'{type(s).__name__}' statements are not supported in tile kernels")

    def bind(self, target, value, scope):
        if isinstance(target, ast.Name):
            if isinstance(value, Tile):
                self.b.set_name(value.id, target.id)
            scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, tuple) or len(value) != len(target.elts):
                self.syntax(target, "cannot unpack: the right side is not a tuple of matching length")
            for t, v in zip(target.elts, value):
                self.bind(t, v, scope)
        else:
            self.syntax(target, "only names and tuples of names can be assigned in tile kernels")

    def carry(self, names, scope):
        """The names among `names` currently bound to tiles or static numbers, as tiles."""
        out = []
        for n in names:
            v = scope.get(n)
            if isinstance(v, Tile) or is_static_number(v):
                out.append((n, self.as_tile(v)))
        return out

    @staticmethod
    def rebind(scope, carried, ids):
        """Binds each carried name to the region argument or op result `ids` (same types as carried)."""
        for (n, t), vid in zip(carried, ids):
            scope[n] = Tile(vid, t.dtype, t.shape)

    def check_carried(self, node, carried, new_values, what):
        out = []
        for (name, init), v in zip(carried, new_values):
            v = self.as_tile(v, like=init)
            if (v.dtype, v.shape) != (init.dtype, init.shape):
                if v.shape == init.shape and self.b.type_of(self.b.binary("add", init.id, v.id))[1] == init.dtype:
                    v = self.cast(v, init.dtype)
                else:
                    self.syntax(node, f"{what} variable '{name}' changes from {init.dtype}{list(init.shape)} to "
                                      f"{v.dtype}{list(v.shape)}; initialise it with its final dtype and shape")
            out.append(v)
        return out

    def for_(self, s, scope):
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            self.syntax(s, "tile kernels loop only over range(...)")
        if not isinstance(s.target, ast.Name):
            self.syntax(s, "the loop variable must be a name")
        if s.orelse:
            self.syntax(s, "for-else is not supported")
        bounds = [self.expr(a, scope) for a in it.args]
        if not 1 <= len(bounds) <= 3:
            self.syntax(s, "range() takes 1 to 3 arguments")
        lb, ub, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else 1)
        idx = "int64" if any(isinstance(b, Tile) and b.dtype == "int64" for b in (lb, ub, step)) else "int32"
        lb, ub, step = (self.cast(self.as_tile(b), idx) for b in (lb, ub, step))
        carried = self.carry([n for n in assigned_names(s.body) if n != s.target.id], scope)
        iv, args = self.b.begin_for(lb.id, ub.id, step.id, [t.id for _, t in carried])
        inner = dict(scope)
        inner[s.target.id] = Tile(iv, idx, ())
        self.rebind(inner, carried, args)
        self.block(s.body, inner)
        self.locate(s)
        ys = self.check_carried(s, carried, [inner[n] for n, _ in carried], "loop-carried")
        self.rebind(scope, carried, self.b.end_for([y.id for y in ys]))

    def while_(self, s, scope):
        if s.orelse:
            self.syntax(s, "while-else is not supported")
        carried = self.carry(assigned_names(s.body), scope)
        args = self.b.begin_while([t.id for _, t in carried])
        before = dict(scope)
        self.rebind(before, carried, args)
        cond = self.to_bool(self.expr(s.test, before), s)
        after_args = self.b.while_do(cond.id, list(args))
        inner = dict(scope)
        self.rebind(inner, carried, after_args)
        self.block(s.body, inner)
        self.locate(s)
        ys = self.check_carried(s, carried, [inner[n] for n, _ in carried], "loop-carried")
        self.rebind(scope, carried, self.b.end_while([y.id for y in ys]))

    def if_(self, s, scope):
        test = self.expr(s.test, scope)
        if not isinstance(test, Tile):  # decided at compile time: only one branch exists
            self.block(s.body if test else s.orelse, scope)
            return
        cond = self.to_bool(test, s)
        then_names, else_names = assigned_names(s.body), assigned_names(s.orelse)
        outs = [n for n in dict.fromkeys(then_names + else_names)
                if (isinstance(scope.get(n), Tile) or is_static_number(scope.get(n)))
                or (n in then_names and n in else_names)]
        self.b.begin_if(cond.id)
        then_scope = dict(scope)
        self.block(s.body, then_scope)
        self.locate(s)
        then_vals = []
        for n in outs:
            if n not in then_scope:
                self.syntax(s, f"'{n}' is assigned in only one branch of a run-time 'if' and has no value before it")
            then_vals.append(self.as_tile(then_scope[n]))
        self.b.begin_else([v.id for v in then_vals])
        else_scope = dict(scope)
        self.block(s.orelse, else_scope)
        self.locate(s)
        else_vals = self.check_carried(s, list(zip(outs, then_vals)), [else_scope[n] for n in outs], "if/else")
        self.rebind(scope, list(zip(outs, then_vals)), self.b.end_if([v.id for v in else_vals]))

    def assert_(self, s, scope):
        cond = self.expr(s.test, scope)
        message = s.msg.value if isinstance(s.msg, ast.Constant) else ast.unparse(s.test)
        if not isinstance(cond, Tile):
            if not cond:
                self.syntax(s, f"assertion is false at compile time: {message}")
            return
        self.b.create("assert", [self.to_bool(cond, s).id], {"message": str(message)})

    # ---- expressions -------------------------------------------------------------------------
    def expr(self, e, scope):
        if isinstance(e, ast.Constant):
            if isinstance(e.value, (bool, int, float, str)) or e.value is None:
                return e.value
            self.syntax(e, f"constant {e.value!r} is not supported")
        if isinstance(e, ast.Name):
            if e.id in scope:
                return scope[e.id]
            if e.id in self.globals:
                return self.globals[e.id]
            if hasattr(builtins, e.id):
                return getattr(builtins, e.id)
            self.syntax(e, f"name '{e.id}' is not defined")
        if isinstance(e, ast.Tuple) or isinstance(e, ast.List):
            return tuple(self.expr(x, scope) for x in e.elts)
        if isinstance(e, ast.BinOp):
            return self.binop(type(e.op), self.expr(e.left, scope), self.expr(e.right, scope), e)
        if isinstance(e, ast.UnaryOp):
            return self.unary(e, self.expr(e.operand, scope))
        if isinstance(e, ast.Compare):
            return self.compare(e, scope)
        if isinstance(e, ast.BoolOp):
            vals = [self.expr(v, scope) for v in e.values]
            op = ast.BitAnd if isinstance(e.op, ast.And) else ast.BitOr
            if not builtins.any(isinstance(v, Tile) for v in vals):
                return builtins.all(vals) if op is ast.BitAnd else builtins.any(vals)
            acc = self.to_bool(self.as_tile(vals[0]), e)
            for v in vals[1:]:
                acc = self.binop(op, acc, self.to_bool(self.as_tile(v, like=acc), e), e)
            return acc
        if isinstance(e, ast.IfExp):
            test = self.expr(e.test, scope)
            if not isinstance(test, Tile):
                return self.expr(e.body if test else e.orelse, scope)
            return self.where(self.to_bool(test, e), self.expr(e.body, scope), self.expr(e.orelse, scope))
        if isinstance(e, ast.Attribute):
            return self.attribute(e, self.expr(e.value, scope))
        if isinstance(e, ast.Subscript):
            return self.subscript(e, self.expr(e.value, scope), self.expr(e.slice, scope))
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.Lambda):
            return e  # a combine function for tt.reduce / tt.scan, inlined where it is used
        self.syntax(e, f"'{type(e).__name__}' expressions are not supported in tile kernels")

    def binop(self, op, a, b, node):
        if op is ast.MatMult:
            if not isinstance(a, Tile) or not isinstance(b, Tile):
                self.syntax(node, "@ needs two tiles")
            return self.op_matmul(a, b)
        if not isinstance(a, Tile) and not isinstance(b, Tile):
            if isinstance(a, (Array, ArrayShape)) or isinstance(b, (Array, ArrayShape)):
                self.syntax(node, "arrays cannot be used in arithmetic: load tiles from them first")
            return _PYOPS[op](a, b)
        a, b = self.operands(a, b, node)
        return self.tile(self.b.binary(_BINOPS[op], a.id, b.id))

    def operands(self, a, b, node):
        for v in (a, b):
            if not isinstance(v, Tile) and not is_static_number(v):
                self.syntax(node, f"cannot combine a tile with {type(v).__name__} {v!r}")
        if not isinstance(a, Tile):
            a = self.tile(self.b.weak_scalar(float(a), not isinstance(a, float), b.id))
        if not isinstance(b, Tile):
            b = self.tile(self.b.weak_scalar(float(b), not isinstance(b, float), a.id))
        return a, b

    def unary(self, e, v):
        if not isinstance(v, Tile):
            return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
                    ast.Invert: operator.invert}[type(e.op)](v)
        if isinstance(e.op, ast.UAdd):
            return v
        if isinstance(e.op, ast.USub):
            return self.tile(self.b.create("neg", [v.id])[0])
        if isinstance(e.op, ast.Not):
            return self.tile(self.b.create("not", [self.to_bool(v, e).id])[0])
        return self.tile(self.b.create("not", [v.id])[0])

    def compare(self, e, scope):
        left = self.expr(e.left, scope)
        result = None
        for op, right_node in zip(e.ops, e.comparators):
            right = self.expr(right_node, scope)
            if type(op) not in _CMPOPS:
                self.syntax(e, f"comparison '{type(op).__name__}' is not supported")
            if isinstance(left, Tile) or isinstance(right, Tile):
                a, b = self.operands(left, right, e)
                r = self.tile(self.b.binary(_CMPOPS[type(op)], a.id, b.id))
            else:
                r = _PYCMP[type(op)](left, right)
            result = r if result is None else self.binop(ast.BitAnd, self.bool_of(result), self.bool_of(r), e)
            left = right
        return result

    def bool_of(self, v):
        return v if isinstance(v, Tile) else bool(v)

    def attribute(self, e, obj):
        name = e.attr
        if isinstance(obj, Tile):
            if name == "shape":
                return obj.shape
            if name == "dtype":
                return _types.DTYPES[obj.dtype]
            if name == "ndim":
                return obj.ndim
            if name == "T":
                return self.op_transpose(obj, None)
            if name in _METHODS:
                return BoundMethod(name, obj)
            self.syntax(e, f"tiles have no attribute '{name}'")
        if isinstance(obj, Array):
            if name == "shape":
                return ArrayShape(obj)
            if name == "dtype":
                return _types.DTYPES[obj.dtype]
            if name == "ndim":
                return obj.ndim
            self.syntax(e, f"kernel arrays have no attribute '{name}' (load tiles with tt.load)")
        try:
            return getattr(obj, name)
        except AttributeError:
            self.syntax(e, f"{obj!r} has no attribute '{name}'")

    def subscript(self, e, obj, index):
        if isinstance(obj, ArrayShape):
            if not isinstance(index, int) or not -obj.array.ndim <= index < obj.array.ndim:
                self.syntax(e, f"array shape index must be a constant in [0, {obj.array.ndim})")
            return self.tile(self.b.create("dim", [obj.array.id], {"axis": index % obj.array.ndim})[0])
        if isinstance(obj, tuple) and not isinstance(index, Tile):
            return obj[index]
        if isinstance(obj, Tile):
            self.syntax(e, "tiles cannot be indexed; use tt.load/tt.gather on arrays, or reshape/broadcast")
        self.syntax(e, f"cannot index {type(obj).__name__}")

    def call(self, e, scope):
        fn = self.expr(e.func, scope)
        args = [self.expr(a, scope) for a in e.args]
        kwargs = {k.arg: self.expr(k.value, scope) for k in e.keywords}
        if isinstance(fn, BoundMethod):
            args.insert(0, fn.receiver)
            return self.apply(e, fn.op, args, kwargs)
        if isinstance(fn, _ops._TileOp):
            return self.apply(e, fn.name, args, kwargs)
        if fn is range:
            self.syntax(e, "range() may only appear as the iterable of a for loop")
        if fn in (builtins.min, builtins.max) and builtins.any(isinstance(a, Tile) for a in args):
            acc = args[0]
            for a in args[1:]:
                x, y = self.operands(acc, a, e)
                acc = self.tile(self.b.binary("minimum" if fn is builtins.min else "maximum", x.id, y.id))
            return acc
        if fn in (float, int, bool) and args and isinstance(args[0], Tile):
            return self.cast(args[0], {float: "float32", int: "int32", bool: "bool"}[fn])
        if fn is builtins.abs and args and isinstance(args[0], Tile):
            return self.apply(e, "abs", args, kwargs)
        if fn is builtins.print:
            return self.apply(e, "printf", args, kwargs)
        if builtins.any(isinstance(a, (Tile, Array)) for a in list(args) + list(kwargs.values())):
            self.syntax(e, f"cannot call {getattr(fn, '__name__', fn)!r} on tiles inside a kernel (only tt.* functions)")
        try:
            return fn(*args, **kwargs)  # a Python function of statics, evaluated at compile time
        except Exception as exc:  # noqa: BLE001 - reported at the user's line
            self.syntax(e, f"evaluating {ast.unparse(e)} at compile time failed: {exc}")

    # ---- custom reduce / scan: the combine function is inlined into the op's region ----------
    def op_reduce(self, x, axis, combine, identity, keepdims=False):
        return self._combine("reduce", x, axis, combine, identity, bool(keepdims))

    def op_scan(self, x, axis, combine, identity, reverse=False):
        return self._combine("scan", x, axis, combine, identity, bool(reverse))

    def _combine(self, op, x, axis, combine, identity, flag):
        t = self.as_tile(x)
        ident = self.cast(self.as_tile(identity, like=t) if not isinstance(identity, Tile) else identity, t.dtype)
        acc, item = self.b.begin_reduce(op, t.id, ident.id, axis, flag)
        combined = self.inline(combine, [Tile(acc, t.dtype, ()), Tile(item, t.dtype, ())])
        return self.tile(self.b.end_reduce(self.cast(self.as_tile(combined, like=t), t.dtype).id))

    def inline(self, fn, args):
        """Translates a combine function at this point and returns its value: a lambda written in the
        kernel, or a Python function (def) defined in a file."""
        if isinstance(fn, ast.Lambda):
            node = fn
        else:
            import inspect
            import textwrap

            try:
                tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
            except (OSError, TypeError, SyntaxError):
                raise TypeError(f"{self.filename}:{self.line}: the combine function must be a lambda in the kernel "
                                f"or a def in a file, got {fn!r}")
            node = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
            if node is None:
                raise TypeError(f"{self.filename}:{self.line}: the combine function must be a lambda in the kernel "
                                f"or a def, got {fn!r}")
        if len(node.args.args) != len(args):
            raise TypeError(f"{self.filename}:{self.line}: the combine function must take {len(args)} arguments")
        scope = {a.arg: v for a, v in zip(node.args.args, args)}
        if isinstance(node, ast.Lambda):
            return self.expr(node.body, scope)
        for stmt in node.body:
            if isinstance(stmt, ast.Return):
                return self.expr(stmt.value, scope)
            self.stmt(stmt, scope)
        raise TypeError(f"{self.filename}:{self.line}: the combine function '{node.name}' must end with a return")

    def apply(self, e, name, args, kwargs):
        method = getattr(self, "op_" + name, None)
        if method is None:
            if name in _ops.UNARY:
                return self.op_unary(e, _ops.UNARY[name], *args, **kwargs)
            self.syntax(e, f"tt.{name} is not supported yet")
        try:
            return method(*args, **kwargs)
        except TypeError as exc:
            if "positional argument" in str(exc) or "keyword argument" in str(exc):
                self.syntax(e, f"tt.{name}: {exc}")
            raise
