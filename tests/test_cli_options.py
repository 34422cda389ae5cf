"""Every accepted command-line option acts or is refused (issue 20): `garp check --seed`
seeds run i with N + i; contradictory or ignored combinations and bad numbers exit 2."""

from __future__ import annotations

import shutil

import pytest

from garp.cli import build_parser, main
from sim_helpers import Shared, seeded_cache


@pytest.mark.parametrize("argv, message", [
    (["run", "apology", "--live", "--record"], "choose one"),
    (["check", "--live", "--record"], "choose one"),
    (["run", "apology", "--live", "--cache", "x.sqlite"], "--cache would be ignored"),
    (["play", "--server", "http://127.0.0.1:8080/v1", "--threads", "2"], "--threads sets up the embedded model"),
    (["run", "apology", "--server", "http://127.0.0.1:8080/v1", "--gpu-layers", "9"], "--gpu-layers"),
    (["check", "--runs", "0"], "--runs: 0 is not at least 1"),
    (["run", "apology", "--hours", "-2"], "--hours: -2 is not above 0"),
    (["play", "--speed", "fast"], "--speed: 'fast' is not a number"),
    (["interview", "Maya", "--threads", "0"], "--threads: 0 is not at least 1"),
])
def test_ignored_or_bad_options_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.model
def test_check_seed_gives_run_i_the_seed_n_plus_i(tmp_path, sim_engine, monkeypatch):
    from garp.sim import check
    from garp.sim import runner, wiring

    def built_only(scenario, opts, **kw):  # the seed is fixed at build time; no need to run the day
        sim = wiring.build(scenario, opts, lockstep=True, backend=kw["backend"], embedder=kw["embedder"])
        sim.close()
        return sim

    monkeypatch.setattr(runner, "run_headless", built_only)
    backend, embedder = sim_engine
    args = build_parser().parse_args(["check", "solitary_evening", "--seed", "11", "--runs", "2"])
    args.cache = str(seeded_cache(tmp_path))
    rows = [check.run_one("solitary_evening", None, run, args, tmp_path / "out", Shared(backend), Shared(embedder),
                          progress=False) for run in range(args.runs)]
    starts = [next(e for e in row["events"] if e["kind"] == "run_start") for row in rows]
    assert [s["seed"] for s in starts] == [r["seed"] for r in rows] == [11, 12]
    default = build_parser().parse_args(["check"])
    assert [check.run_seed(default, run) for run in range(3)] == [0, 1, 2]  # the recorded runs keep their seeds
    shutil.rmtree(tmp_path / "out")
