"""Collect each module's doctests only where the optional extras it needs are installed."""

import importlib.util


def _missing(*modules: str) -> bool:
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return True
        except (ImportError, ValueError):
            return True
    return False


_NEEDS = {
    "src/canasta/web/*": ("fastapi",),
    "src/canasta/tui/app.py": ("textual",),
    "src/canasta/tui/widgets.py": ("textual",),
    "src/canasta/tui/replay_app.py": ("textual",),
    "src/canasta/sheets/layout.py": ("fpdf",),
    "src/canasta/sheets/rulesheet.py": ("fpdf",),
    "src/canasta/sheets/scoresheet.py": ("fpdf",),
    "src/canasta/rl/observation.py": ("numpy",),
    "src/canasta/rl/core.py": ("numpy",),
    "src/canasta/rl/gymnasium.py": ("numpy", "gymnasium"),
    "src/canasta/rl/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/canasta/rl/openspiel.py": ("numpy", "pyspiel"),
}
collect_ignore_glob = [path for path, needs in _NEEDS.items() if _missing(*needs)]
