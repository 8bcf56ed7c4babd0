"""Expert iteration in one resumable command (canasta.rl.iterate): rounds of labels, a network, its duel."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from canasta.rl.iterate import main
from canasta.rl.train_q import load_values

TINY = ["--shards", "2", "--hands", "1", "--labeller", "search:8", "--epochs", "1", "--hidden", "16",
        "--eval-deals", "2", "--seed", "5"]


def arrays(path: Path) -> list[np.ndarray]:
    data = load_values([str(path)])
    return [data.states, data.moves, data.decision, data.base, data.gains]


def same(a: Path, b: Path) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(arrays(a), arrays(b)))


def test_a_run_interrupted_resumes_to_what_an_uninterrupted_run_makes(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert main(["--dir", str(whole), "--rounds", "2", "--workers", "2", *TINY]) == 0
    progress = json.loads((whole / "progress.json").read_text())
    assert [sorted(r) for r in progress["rounds"]] == [["agreement", "decisions", "error", "points"]] * 2
    assert progress["rounds"][1]["decisions"] > progress["rounds"][0]["decisions"]  # round 1 adds its labels
    assert "| 1 |" in (whole / "curve.md").read_text() and "| 1 |" in capsys.readouterr().out

    # The same run, one process, stopped after round 0 (as if killed while labelling round 1: a file half
    # written under its temporary name), then resumed: the same labels, the same networks.
    assert main(["--dir", str(cut), "--rounds", "1", "--workers", "1", *TINY]) == 0
    (cut / "labels" / "r1-0.npz.part.npz").write_bytes(b"half a file")
    with pytest.raises(SystemExit):  # the folder holds a run: going on needs --resume
        main(["--dir", str(cut), "--rounds", "2", *TINY])
    assert main(["--dir", str(cut), "--rounds", "2", "--workers", "1", "--resume"]) == 0
    for name in ("r0-0", "r0-1", "r1-0", "r1-1"):
        assert same(whole / "labels" / f"{name}.npz", cut / "labels" / f"{name}.npz"), name
    for round_ in (0, 1):
        with np.load(whole / f"round-{round_}.npz") as a, np.load(cut / f"round-{round_}.npz") as b:
            assert all(np.array_equal(a[k], b[k]) for k in a.files)

    # A finished round is not redone; a lost network is made again from the labels kept.
    stamp = (cut / "labels" / "r0-0.npz").stat().st_mtime_ns
    (cut / "round-1.npz").unlink()
    assert main(["--dir", str(cut), "--rounds", "2", "--resume"]) == 0
    assert (cut / "labels" / "r0-0.npz").stat().st_mtime_ns == stamp and (cut / "round-1.npz").exists()


def test_bad_runs_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--dir", str(tmp_path / "none"), "--resume"])
    assert "holds no run to resume" in capsys.readouterr().err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "progress.json").write_text("{not json")
    assert main(["--dir", str(broken), "--resume"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a run's progress file" in err
