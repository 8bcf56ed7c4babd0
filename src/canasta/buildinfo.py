"""Which build of canasta runs: the pure-Python package, or the same sources compiled by mypyc.

The pure-Python package is the reference and the fallback.  ``setup.py`` compiles the modules
of :data:`COMPILED_MODULES` with mypyc when asked (``CANASTA_COMPILE=1``) and able (mypy and a C
compiler at hand); each compiled module is an extension module next to its ``.py`` source, which
Python then imports instead.  Nothing else differs: the same seeds give the same games.

>>> build() in ("interpreted", "compiled (mypyc)")
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

COMPILED_MODULES: tuple[str, ...] = (
    "canasta.cards",
    "canasta.moves",
    "canasta.judge",
    "canasta.goingout",
    "canasta.legal",
    "canasta.scoring",
    "canasta.views",
    "canasta.state",
    "canasta.resample",
    "canasta.testing.bench",
    "canasta.bots.basic",
    "canasta.bots.belief",
    "canasta.bots.expert",
    "canasta.bots.hints",
    "canasta.bots.randombot",
    "canasta.bots.search",
    "canasta.bots.tracking",
    "canasta.rl.actions",
    "canasta.rl.observation",
    "canasta.rl.core",
)
"""The modules ``setup.py`` compiles (the engine's hot path, the bots and the research layer's core).

``canasta.rules`` stays interpreted (a compiled frozen dataclass neither pickles nor names a bad
option's type), and so do the adapters to Gymnasium, PettingZoo and OpenSpiel, which subclass
their libraries' classes, and everything that is not on a hot path (text, front ends, commands).
"""

NEEDS_NUMPY: tuple[str, ...] = ("canasta.rl.observation", "canasta.rl.core")
"""The compiled modules that import numpy: compiled only where numpy is installed (mypyc needs its types)."""

INTERPRETED = "interpreted"
COMPILED = "compiled (mypyc)"


def is_compiled(module: str) -> bool:
    """True when ``module`` is (or would be) imported from an extension module, not its ``.py`` source.

    Finding the module imports its parent packages, not the module itself.
    """
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return False
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that this interpreter runs compiled."""
    return [name for name in COMPILED_MODULES if is_compiled(name)]


def build() -> str:
    """``"compiled (mypyc)"`` when the engine runs compiled (its state machine is), else ``"interpreted"``."""
    return COMPILED if is_compiled("canasta.state") else INTERPRETED


__all__ = ["COMPILED", "COMPILED_MODULES", "INTERPRETED", "NEEDS_NUMPY", "build", "compiled_modules", "is_compiled"]
