"""Runs registrations right after a module first executes, or at once where it already has:
dynamo's and Inductor's device registries, torchvision's ops. Importing those modules when
mojo registers would cost a second or more each."""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Callable

_WAITING: dict[str, list[Callable]] = {}


class _AfterImport(importlib.abc.MetaPathFinder):
    """Wraps the loader of each awaited module so that its registrations run after it."""

    def find_spec(self, name, path, target=None):
        if name not in _WAITING:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return None
        exec_module = spec.loader.exec_module

        # The registrations are taken when the module runs, not here: a probe such as
        # `importlib.util.find_spec("torchvision")` (transformers makes one) finds the spec
        # without importing it, and the import that follows must still register.
        def exec_then_register(module):
            exec_module(module)
            for register in _WAITING.pop(name, []):
                register(module)

        spec.loader.exec_module = exec_then_register
        return spec


def after_import(name: str, register: Callable) -> None:
    """Calls `register(module)` once the module `name` has executed (now, if it has)."""
    module = sys.modules.get(name)
    if module is not None:
        register(module)
        return
    _WAITING.setdefault(name, []).append(register)
    if not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())
