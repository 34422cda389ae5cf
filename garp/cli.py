"""`garp` command line: play, run, check, interview, models.

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
}


def _add_model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model name from models/registry.json or a path to a .gguf file")
    p.add_argument("--server", help="base URL of an OpenAI-compatible server (e.g. http://127.0.0.1:8080/v1)")
    p.add_argument("--threads", type=int, help="CPU threads for the embedded model")
    p.add_argument("--gpu-layers", type=int, default=None, help="layers to offload to the GPU (embedded model)")
    p.add_argument("--seed", type=int, default=None, help="random seed for the run")


def _add_switches(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-minute-plans", action="store_true", help="turn off minute-level planning")
    p.add_argument("--no-emotions", action="store_true", help="turn off the emotion system")
    p.add_argument("--no-needs", action="store_true", help="turn off the needs system")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="garp", description="A town of generative agents on local hardware.")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play_and_run(sub)
    _add_check(sub)
    _add_interview_and_models(sub)
    return parser


def _add_play_and_run(sub: Any) -> None:
    play = sub.add_parser("play", help="open the game window")
    play.add_argument("--scenario", default="town", help="scenario name (file in scenarios/ without .json)")
    play.add_argument("--speed", type=float, help="clock multiplier (default: the scenario's)")
    play.add_argument("--trait", help="for personality scenarios: which temperament runs (e.g. 'very introverted')")
    _add_model_options(play)
    _add_switches(play)

    run = sub.add_parser("run", help="run a scenario without a window (lockstep clock)")
    run.add_argument("scenario", help="scenario name or path")
    run.add_argument("--headless", action="store_true", help="no window (the only mode of `run`; accepted for clarity)")
    run.add_argument("--out", help="directory for the event log and save data (default runs/NAME-TIMESTAMP)")
    run.add_argument("--hours", type=float, help="game hours to simulate (default: the scenario's duration)")
    run.add_argument("--live", action="store_true", help="ignore the reply cache")
    run.add_argument("--record", action="store_true", help="refresh the reply cache")
    run.add_argument("--trait", help="for personality scenarios: which temperament runs (e.g. 'very introverted')")
    _add_model_options(run)
    _add_switches(run)


def _add_check(sub: Any) -> None:
    check = sub.add_parser("check", help="run scenarios headless and check their goals")
    check.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    check.add_argument("--runs", type=int, default=1, help="runs per scenario")
    check.add_argument("--hours", type=float, help="check only the first game hours of each scenario (default: all)")
    check.add_argument("--live", action="store_true", help="ignore the reply cache (call the model)")
    check.add_argument("--record", action="store_true", help="call the model and refresh the reply cache")
    check.add_argument("--out", default="runs/check", help="directory for logs, JSON and JUnit XML")
    _add_model_options(check)


def _add_interview_and_models(sub: Any) -> None:
    interview = sub.add_parser("interview", help="interview an agent in the terminal")
    interview.add_argument("persona", help="persona name (file in personas/)")
    interview.add_argument("--save", help="a run's save directory to load memories from")
    _add_model_options(interview)

    models = sub.add_parser("models", help="list or download models")
    msub = models.add_subparsers(dest="models_command", required=True)
    msub.add_parser("list", help="show installed models and the default")
    pull = msub.add_parser("pull", help="download a registered model into models/ and check its sha256")
    pull.add_argument("name")
    pull.add_argument("--url", help="download from this URL instead of the registry's")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # the game has no sound; spares ALSA noise on machines without a card
    args = build_parser().parse_args(argv)
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
