"""tt.autotune: pick the fastest of several tile-size / pipeline configurations of a kernel, by timing each
on the GPU the first time a problem shape is seen; the choice is kept on disk beside the compiled binaries."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile

from .. import _tegula
from . import _args
from ._kernel import Kernel, _cluster_arg, launch


class Config:
    """One candidate: values for the kernel's tt.Constant parameters (by name) and code generation options."""

    def __init__(self, num_stages=0, cluster=1, **constants):
        self.constants = dict(constants)
        self.num_stages = int(num_stages)
        self.cluster = _cluster_arg(cluster)

    def as_dict(self):
        d = {"constants": self.constants, "num_stages": self.num_stages}
        if self.cluster != 1:
            d["cluster"] = self.cluster
        return d

    def __eq__(self, other):
        return isinstance(other, Config) and self.as_dict() == other.as_dict()

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.constants.items())
        more = f", cluster={self.cluster}" if self.cluster != 1 else ""
        return f"Config({inner}{', ' if inner else ''}num_stages={self.num_stages}{more})"


def autotune(configs, key=None, warmup=2, repeat=5):
    """Decorator over a @tt.kernel: `tt.launch(tuned, grid, args)` passes only the parameters no config sets;
    `grid` may be a function of the chosen constants (a dict). `key` names the arguments whose values (scalars)
    or shapes and dtypes (arrays) decide a new tuning; by default every array's shape and dtype does."""
    def wrap(k):
        if not isinstance(k, Kernel):
            raise TypeError("tt.autotune wraps a @tt.kernel function (put @tt.autotune above @tt.kernel)")
        return Autotuned(k, configs, key, warmup, repeat)
    return wrap


class Autotuned:
    _tile_launchable = True  # tt.launch hands it the launch (tile._kernel._launch_slow)

    def __init__(self, kernel, configs, key, warmup, repeat):
        self.kernel = kernel
        self.__name__ = kernel.__name__
        self.configs = list(configs)
        if not self.configs or not all(isinstance(c, Config) for c in self.configs):
            raise ValueError("tt.autotune needs a non-empty list of tt.Config")
        names = set(self.configs[0].constants)
        for c in self.configs:
            if set(c.constants) != names:
                raise ValueError(f"every tt.Config must set the same parameters, got {sorted(names)} and "
                                 f"{sorted(c.constants)}")
            for n in c.constants:
                if n not in kernel.arg_names or not kernel.constants[kernel.arg_names.index(n)]:
                    raise ValueError(f"tt.Config sets '{n}', which is not a tt.Constant parameter of "
                                     f"'{kernel.__name__}'")
        self.tuned = names
        self.free = [n for n in kernel.arg_names if n not in names]
        self.key = list(key) if key is not None else None
        self.warmup, self.repeat = warmup, repeat
        self._variants = {}
        self._best = {}
        self.timings = {}  # tuning key -> [(config, ms or error text)] of the last tuning
        self._path = None

    # ---- arguments
    def _full_args(self, args, config):
        if len(args) != len(self.free):
            raise TypeError(f"autotuned kernel '{self.__name__}' takes {len(self.free)} arguments "
                            f"({', '.join(self.free)}) but {len(args)} were given")
        given = dict(zip(self.free, args))
        given.update(config.constants)
        return tuple(given[n] for n in self.kernel.arg_names)

    def _tuning_key(self, args):
        parts = []
        for name, a in zip(self.free, args):
            if self.key is not None and name not in self.key:
                continue
            facts = _args.array_facts(a) if not isinstance(a, (int, float, bool)) else None
            if facts is not None:
                parts.append((name, *facts))
            elif self.key is not None:
                parts.append((name, repr(a)))
        return repr(tuple(parts))

    def _variant(self, config):
        options = (config.num_stages, config.cluster)
        v = self._variants.get(options)
        if v is None:
            v = self._variants[options] = self.kernel.with_options(num_stages=config.num_stages,
                                                                   cluster=config.cluster)
        return v

    # ---- the on-disk choice
    def _file(self):
        if self._path is None:
            import inspect

            digest = hashlib.sha256(inspect.getsource(self.kernel.fn).encode() +
                                    repr([c.as_dict() for c in self.configs]).encode()).hexdigest()[:16]
            root = _tegula.config()["cache_dir"]
            self._path = os.path.join(root, "autotune", f"{self.__name__}-{digest}.json") if root else ""
        return self._path

    def _load(self, tkey):
        path = self._file()
        if not path or not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                d = json.load(f).get(tkey)
        except (OSError, ValueError):
            return None  # unreadable or corrupt: tune again and rewrite it
        if d is None:
            return None
        c = Config(d.get("num_stages", 0), d.get("cluster", 1), **d.get("constants", {}))
        return c if c in self.configs else None

    def _store(self, tkey, config):
        path = self._file()
        if not path:
            return
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = {}
            if os.path.exists(path):
                try:
                    with open(path) as f:
                        data = json.load(f)
                except (OSError, ValueError):
                    data = {}
            data[tkey] = config.as_dict()
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache only costs a new tuning in the next process

    # ---- launching
    def best_config(self, args):
        """The chosen Config for these arguments, if tuned already (in this process or on disk)."""
        tkey = self._tuning_key(args)
        c = self._best.get(tkey)
        if c is None:
            c = self._load(tkey)
            if c is not None:
                self._best[tkey] = c
        return c

    def launch(self, grid, args, stream=None, interpret=None):
        tkey = self._tuning_key(args)
        config = self.best_config(args)
        if config is None:
            config = self.configs[0] if interpret else self._tune(tkey, grid, args, stream)
            if not interpret:
                self._best[tkey] = config
                self._store(tkey, config)
        g = grid(dict(config.constants)) if callable(grid) else grid
        launch(self._variant(config), grid=g, args=self._full_args(args, config), stream=stream, interpret=interpret)

    def _tune(self, tkey, grid, args, stream):
        from .. import core

        dev = core.Device()
        s = stream if stream is not None else dev.default_stream
        if not isinstance(s, core.Stream):
            s = core.Stream.from_handle(s)
        start, end = dev.create_event(timing=True), dev.create_event(timing=True)
        # Every config compiled and warmed first, then timed round robin (one launch of each per round, each on
        # its own) and judged by its median: a clock or power drift while tuning (an H200 slows down under a long
        # run of large products) then weighs on every config alike instead of on the ones timed last.
        ready, errors = [], {}
        for i, config in enumerate(self.configs):
            g = grid(dict(config.constants)) if callable(grid) else grid
            k, full = self._variant(config), self._full_args(args, config)
            try:
                for _ in range(max(self.warmup, 1)):  # at least once: a config that cannot launch is found here
                    launch(k, grid=g, args=full, stream=stream)
                ready.append((i, k, g, full))
            except Exception as e:  # noqa: BLE001 - a config that does not compile or fit is skipped, and said
                errors[i] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        times = {i: [] for i, *_ in ready}
        for _ in range(self.repeat):
            for i, k, g, full in ready:
                start.record(s)
                launch(k, grid=g, args=full, stream=stream)
                end.record(s)
                end.sync()
                times[i].append(end - start)
        results = [(c, errors[i] if i in errors else sorted(times[i])[len(times[i]) // 2])
                   for i, c in enumerate(self.configs)]
        self.timings[tkey] = results
        timed = [(ms, i) for i, (c, ms) in enumerate(results) if isinstance(ms, float)]
        if not timed:
            raise RuntimeError(f"autotuning '{self.__name__}': no configuration ran: " +
                               "; ".join(f"{c}: {e}" for c, e in results))
        return results[min(timed)[1]][0]
