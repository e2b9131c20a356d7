"""What a `companion` process does first: defer the standard library's ``inspect`` module.

``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``: about 6 ms of
processor time, a tenth of a whole `companion rules perft` command) only to write a signature
into the docstring of a dataclass that has none, and every dataclass here has one. So the
command line puts a stand-in for ``inspect`` in ``sys.modules`` that imports the real module
the first time anyone asks it for anything but its name; from then on the stand-in holds the
real module's names too, and ``sys.modules`` the real module. Nothing else changes: code that
uses ``inspect`` gets the real one, a few milliseconds later.
"""

from __future__ import annotations

import sys
import types
from typing import Any

DEFERRED = "inspect"


class DeferredModule(types.ModuleType):
    """A stand-in for a module not imported yet; asking it for a name imports the module."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        import importlib

        real = importlib.import_module(self.__name__)
        self.__dict__.update(real.__dict__)
        return getattr(real, name)


def defer_inspect() -> None:
    """Put the stand-in for ``inspect`` in ``sys.modules``, unless it is imported already (as
    in a test run, where this changes nothing)."""
    if DEFERRED not in sys.modules:
        sys.modules[DEFERRED] = DeferredModule(DEFERRED)
