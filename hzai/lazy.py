"""The library's one way of importing late.

Almost every import in hzai is at the top of its module. Two kinds are not, and both go
through this module so that the reason is written once, here:

- **Heavy modules behind light commands.** `hzai --help`, `hzai new` and the record
  commands start in about a tenth of a second; the learning modules (numpy: 0.1-0.4 s
  to import), the model files (numpy) and the arena (multiprocessing, concurrent.futures:
  about 15 ms) are imported only by the commands that use them. The command modules name
  each such function as "package.module:name" with `lazy_call`.
- **Optional packages** (the extras of pyproject.toml: matplotlib for plots, Ray for
  batches): `lazy_import` imports them when a feature asks, so hzai installs and runs
  without them, and the caller says which extra to install.

Each target is a literal string at its call site, and tests/test_imports.py reads
`lazy_call("a.b:f")` and `lazy_import("a.b")` as imports of a.b: the layers and the
no-cycle rule hold for late imports as for the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable


def lazy_import(name: str) -> ModuleType:
    """The module `name`, imported now (ImportError when it is not installed)."""
    return importlib.import_module(name)


def lazy_call(target: str) -> Callable[..., Any]:
    """A stand-in for the function (or class) `target`, written "package.module:name":
    calling it imports the module, once, and calls the real one with the same arguments."""
    module, sep, name = target.partition(":")
    if not sep or not module or not name.isidentifier():
        raise ValueError(f"lazy_call: {target!r}: write the target as package.module:name")
    found: list[Callable[..., Any]] = []

    def call(*args, **kwargs):
        if not found:
            try:
                found.append(getattr(lazy_import(module), name))
            except AttributeError:
                raise ImportError(f"lazy_call: {module} has no {name} ({target})") from None
        return found[0](*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = target
    call.__doc__ = f"{target}, imported on the first call (hzai.lazy)."
    return call
