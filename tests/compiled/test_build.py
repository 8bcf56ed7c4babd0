"""The build this run tests is the one it says (``make test`` runs these tests in both builds).

``make test`` sets ``CANASTA_BUILD``: ``interpreted`` for the whole suite, ``compiled`` for the
engine, bot and research tests run again with the compiled tree first on ``PYTHONPATH``.  Here
that run proves it imports extension modules, so it cannot test the interpreted code twice; and
everything the engine hands out still pickles and copies (Ray, process pools and OpenSpiel's
serialisation use it), which compiled classes do only as they are told.
"""

from __future__ import annotations

import copy
import importlib
import importlib.machinery
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import pytest

import canasta
from canasta.buildinfo import COMPILED, COMPILED_MODULES, INTERPRETED, NEEDS_NUMPY, build, compiled_modules
from canasta.cli import main

from .support import BUILD, compiled_lib

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
HAS_NUMPY = importlib.util.find_spec("numpy") is not None


def _import_all() -> dict[str, str]:
    """Every module of the compiled list this interpreter can import, and the file it came from."""
    files = {}
    for name in COMPILED_MODULES:
        if name in NEEDS_NUMPY and not HAS_NUMPY:
            continue
        files[name] = str(importlib.import_module(name).__file__)
    return files


@pytest.mark.skipif(BUILD is None, reason="CANASTA_BUILD is unset: make test names the build each run tests")
def test_this_run_tests_the_build_it_names() -> None:
    files = _import_all()
    if BUILD == "compiled":
        assert str(canasta.__file__).startswith(str(compiled_lib())), canasta.__file__
        assert build() == COMPILED
        assert compiled_modules() == [m for m in COMPILED_MODULES if HAS_NUMPY or m not in NEEDS_NUMPY]
        interpreted = [name for name, path in files.items() if not path.endswith(EXTENSIONS)]
        assert not interpreted, f"imported from their sources in the compiled run: {interpreted}"
    else:
        assert BUILD == "interpreted"
        assert build() == INTERPRETED and compiled_modules() == []
        assert all(path.endswith(".py") for path in files.values())


def test_the_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"canasta {canasta.__version__}, {build()}\n"


def _worker_build() -> str:
    return build()


def test_worker_processes_run_the_same_build() -> None:
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        assert pool.submit(_worker_build).result() == build()


def test_ray_workers_run_the_same_build() -> None:
    ray = pytest.importorskip("ray", reason="the ray backend needs: pip install 'canasta[ray]'")
    if BUILD != "compiled":
        pytest.skip("Ray workers import what the driver imports; this checks it in the compiled run")
    import logging

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        assert ray.get(ray.remote(_worker_build).remote()) == COMPILED
    finally:
        if started:
            ray.shutdown()


# -- pickling and copying ----------------------------------------------------------------------


def _objects() -> dict[str, Any]:
    from canasta.bots import make_bot
    from canasta.bots.belief import Belief
    from canasta.bots.expert import ExpertParams, _Scorer
    from canasta.bots.search import Budget
    from canasta.bots.tracking import Knowledge
    from canasta.moves import Group, Move
    from canasta.resample import Resampler
    from canasta.rl.actions import TurnActions
    from canasta.state import GameState, TurnSoFar

    rng = random.Random(1)
    state = GameState.deal("classic", rng=rng)
    for _ in range(40):
        moves = list(state.legal_moves())
        state.push(moves[rng.randrange(len(moves))])
    view = state.view(state.to_act)
    objects: dict[str, Any] = {
        "state": state, "move": Move.parse("meld KS KD 2C, QS QH QC"), "group": Group.parse("K: 2C JK"),
        "discard": Move.parse("discard 7H"), "turn so far": TurnSoFar(), "view": view,
        "legal moves": state.legal_moves(), "turn actions": TurnActions(state), "resampler": Resampler(view),
        "expert params": ExpertParams(), "budget": Budget(rollouts=5), "tracking": Knowledge(view),
        "scorer": _Scorer(view, ExpertParams()), "belief": Belief(view),
    }
    for name in ("random", "basic", "expert", "search:5", "search:5:uniform"):
        objects[f"bot {name}"] = make_bot(name, random.Random(2))
    if HAS_NUMPY:
        from canasta.rl.core import Hand
        from canasta.rl.observation import Encoder

        objects["encoder"] = Encoder("two-player")
        objects["hand"] = Hand(state.rules)
    over = state.copy()
    while not over.is_over:
        over.push(over.legal_moves()[0])
    objects["finished state"] = over
    objects["result"] = over.result
    return objects


OBJECTS = _objects()


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_everything_pickles_and_copies(name: str, how: str) -> None:
    original = OBJECTS[name]
    if how == "pickle":
        again = pickle.loads(pickle.dumps(original))
    elif how == "copy":
        again = copy.copy(original)
    else:
        again = copy.deepcopy(original)
    assert type(again) is type(original)
    if type(original).__eq__ is not object.__eq__:
        assert again == original
    assert _contents(again) == _contents(original)


def _contents(x: Any, depth: int = 0) -> Any:
    """Everything an object holds, attribute by attribute, as plain values to compare."""
    assert depth < 30, "too deep"
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return x
    if isinstance(x, bytearray):
        return bytes(x)
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_contents(i, depth + 1) for i in x]]
    if isinstance(x, dict):
        return ["dict", [(_contents(k, depth + 1), _contents(v, depth + 1)) for k, v in x.items()]]
    if isinstance(x, (set, frozenset)):
        return ["set", sorted(repr(_contents(i, depth + 1)) for i in x)]
    if isinstance(x, random.Random):
        return ["Random", x.getstate()]
    if hasattr(x, "dtype") and hasattr(x, "tobytes"):  # a numpy array
        return ["array", str(x.dtype), x.shape, x.tobytes()]
    if type(x).__eq__ is not object.__eq__:  # moves, views...: their own equality (a move's text is a cache)
        return x
    state = x.__getstate__()
    if isinstance(state, tuple):  # (__dict__, slots) of an interpreted class
        state = {**(state[0] or {}), **(state[1] or {})}
    return [type(x).__qualname__, _contents(state, depth + 1)]


def test_a_state_and_its_copy_play_on_alike() -> None:
    state = OBJECTS["state"]
    twin = pickle.loads(pickle.dumps(state))
    for other in (twin, state.copy()):
        assert other.history_text() == state.history_text() and list(other.legal_moves()) == list(state.legal_moves())
