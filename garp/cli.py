"""`garp` command line: play, run, check, interview, models, report, doctor.

Each sub-command lives next to its subsystem; this module only parses arguments and
turns a `GarpError` into one clear line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from garp.errors import GarpError

# sub-command -> "module:function"; imported lazily so `garp models list` stays fast.
COMMANDS = {
    "play": "garp.game.app:cmd_play",
    "run": "garp.sim.runner:cmd_run",
    "check": "garp.sim.check:cmd_check",
    "interview": "garp.game.interview_cli:cmd_interview",
    "models": "garp.engine.models:cmd_models",
    "report": "garp.report:cmd_report",
    "doctor": "garp.doctor:cmd_doctor",
}


def _number(kind: type, low: float, strict: bool):
    """An argparse type: a number of `kind` above `low` (or at least `low` when not strict)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a{'n integer' if kind is int else ' number'}") from None
        if value < low or (strict and value == low):
            raise argparse.ArgumentTypeError(f"{text} is not {'above' if strict else 'at least'} {low:g}")
        return value
    return parse


POSITIVE_INT, POSITIVE, COUNT = _number(int, 1, False), _number(float, 0, True), _number(int, 0, False)
NON_NEGATIVE = _number(float, 0, False)


def _add_model_options(p: argparse.ArgumentParser, seed_help: str = "random seed for the run") -> None:
    p.add_argument("--model", help="model name from models/registry.json or a path to a .gguf file")
    p.add_argument("--server", action="append",
                   help="base URL of an OpenAI-compatible server (e.g. http://127.0.0.1:8080/v1), or a .toml/.json "
                        "file listing endpoints; repeat for a pool")
    p.add_argument("--api-key", help="API key for the servers (default: $GARP_API_KEY, then $OPENAI_API_KEY)")
    p.add_argument("--threads", type=POSITIVE_INT, help="CPU threads for the embedded model")
    p.add_argument("--gpu-layers", type=COUNT, default=None, help="layers to offload to the GPU (embedded model)")
    p.add_argument("--seed", type=int, default=None, help=seed_help)


def _add_save_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--resume", metavar="RUN_DIR",
                   help="continue a run from its save (RUN_DIR/save.json): same scenario, seed and switches, "
                        "the same log and memories")
    p.add_argument("--autosave", type=NON_NEGATIVE, default=None, metavar="GAME_MINUTES",
                   help="save every this many game minutes (default 60; 0: only when the run ends or you quit)")


def _add_switches(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-minute-plans", action="store_true", help="turn off minute-level planning")
    p.add_argument("--no-emotions", action="store_true", help="turn off the emotion system")
    p.add_argument("--no-needs", action="store_true", help="turn off the needs system")


def _add_report(sub: Any) -> None:
    report = sub.add_parser("report", help="write an HTML report of a run from its events.jsonl")
    report.add_argument("run_dir", help="a run directory (holds events.jsonl)")
    report.add_argument("--out", help="the HTML file to write (default RUN_DIR/report.html)")


def _add_check(sub: Any) -> None:
    check = sub.add_parser("check", help="run scenarios headless and check their goals")
    check.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    check.add_argument("--runs", type=POSITIVE_INT, default=1, help="runs per scenario")
    check.add_argument("--hours", type=POSITIVE, help="check only the first game hours of each scenario (default: all)")
    check.add_argument("--live", action="store_true", help="ignore the reply cache (call the model)")
    check.add_argument("--record", action="store_true", help="call the model and refresh the reply cache")
    check.add_argument("--out", default="runs/check", help="directory for logs, JSON and JUnit XML")
    _add_model_options(check, seed_help="seed of the first run; run i uses seed + i (default 0, the recorded one)")


def _add_interview(sub: Any) -> None:
    interview = sub.add_parser("interview", help="interview an agent in the terminal")
    interview.add_argument("persona", help="persona name (file in personas/)")
    interview.add_argument("--save", help="a run's folder: its memories answer, and each exchange is written into "
                                          "that run's memory store and log (see --read-only)")
    interview.add_argument("--read-only", action="store_true",
                           help="with --save: interview a temporary copy of the run's memories; the run is untouched")
    _add_model_options(interview)


def _add_models(sub: Any) -> None:
    models = sub.add_parser("models", help="list or download models")
    msub = models.add_subparsers(dest="models_command", required=True)
    msub.add_parser("list", help="show installed models and the default")
    pull = msub.add_parser("pull", help="download a registered model into models/ and check its sha256")
    pull.add_argument("name")
    pull.add_argument("--url", help="download from this URL instead of the registry's")


def _add_doctor(sub: Any) -> None:
    doctor = sub.add_parser("doctor", help="check that this machine can run the game (CPU, llama.cpp build, tok/s)")
    doctor.add_argument("--model", help="model name or .gguf path to try (default: the default model)")
    doctor.add_argument("--threads", type=POSITIVE_INT, help="CPU threads for the test generation")
    doctor.add_argument("--quick", action="store_true", help="skip the embedder check (its torch import takes ~5 s)")
    doctor.add_argument("--json", action="store_true", help="print the report as one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="garp", description="A town of generative agents on local hardware.")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play_and_run(sub)
    _add_check(sub)
    _add_interview(sub)
    _add_report(sub)
    _add_models(sub)
    _add_doctor(sub)
    return parser


def _add_play_and_run(sub: Any) -> None:
    play = sub.add_parser("play", help="open the game window")
    play.add_argument("--scenario", help="scenario name (file in scenarios/ without .json; default town, or the "
                                         "save's with --resume)")
    play.add_argument("--speed", type=POSITIVE, help="clock multiplier (default: what the model's measured "
                                                     "speed can serve for the cast, at most the scenario's)")
    play.set_defaults(auto_speed=True)
    play.add_argument("--trait", help="for personality scenarios: which temperament runs (e.g. 'very introverted')")
    _add_save_options(play)
    _add_model_options(play)
    _add_switches(play)

    run = sub.add_parser("run", help="run a scenario without a window (lockstep clock)")
    run.add_argument("scenario", help="scenario name or path")
    run.add_argument("--headless", action="store_true", help="no window (the only mode of `run`; accepted for clarity)")
    run.add_argument("--out", help="directory for the event log and save data (default runs/NAME-TIMESTAMP)")
    run.add_argument("--hours", type=POSITIVE, help="game hours to simulate (default: the scenario's duration)")
    run.add_argument("--live", action="store_true", help="ignore the reply cache")
    run.add_argument("--record", action="store_true", help="refresh the reply cache")
    run.add_argument("--cache", help="a reply recording to replay and extend (e.g. scenarios/replies/replies.sqlite) "
                                     "instead of the local live cache")
    run.add_argument("--trait", help="for personality scenarios: which temperament runs (e.g. 'very introverted')")
    _add_save_options(run)
    _add_model_options(run)
    _add_switches(run)


def refuse_ignored(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Options that would be accepted and then ignored are refused (argparse error, exit 2)."""
    given = vars(args)
    if given.get("live") and given.get("record"):
        parser.error("--live calls the model without the reply cache and --record refreshes the cache: choose one")
    if given.get("read_only") and not given.get("save"):
        parser.error("--read-only applies to a run's memories (--save DIR); without --save the interview "
                     "already uses a temporary store")
    if given.get("live") and given.get("cache"):
        parser.error("--live does not read or write a reply cache, so --cache would be ignored: choose one")
    if given.get("resume"):
        for flag in ("seed", "trait", "out"):
            if given.get(flag) is not None:
                parser.error(f"--{flag} would be ignored with --resume: a resumed run keeps the "
                             "saved run's own (drop it)")
        for flag in ("no_minute_plans", "no_emotions", "no_needs"):
            if given.get(flag):
                parser.error(f"--{flag.replace('_', '-')} would be ignored with --resume: a resumed run keeps the "
                             "saved run's switches (drop it)")
    if given.get("server"):
        for flag in ("threads", "gpu_layers"):
            if given.get(flag) is not None:
                parser.error(f"--{flag.replace('_', '-')} sets up the embedded model; with --server the server "
                             "decides (drop one of them)")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # the game has no sound; spares ALSA noise on machines without a card
    parser = build_parser()
    args = parser.parse_args(argv)
    refuse_ignored(parser, args)
    module_name, func_name = COMMANDS[args.command].split(":")
    try:
        func = getattr(importlib.import_module(module_name), func_name)
        return int(func(args) or 0)
    except GarpError as err:
        print(f"garp: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
