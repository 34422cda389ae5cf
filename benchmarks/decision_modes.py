"""Decision modes: generate (grammar-constrained enum) vs score (option log-likelihood).

Runs the labelled situations in benchmarks/data/decision_situations.json (or --data PATH) through
the real scheduler with the bundled model, in both modes, and reports accuracy and mean
latency. Options are shuffled with a fixed seed so the right answer's position varies.

The blend, calibration and margin were tuned on decision_situations.json, so its figures are
not an honest estimate. benchmarks/data/decision_heldout.json (30 situations, same format and
category mix, written in session 34 by a writer who had not seen the code; the earlier held-out
sets are now part of the tuning file) was never used for tuning:
    python benchmarks/decision_modes.py --heldout      # same as --data benchmarks/data/decision_heldout.json
Do not change a constant to improve a held-out figure. benchmarks/data/decision_dev.json (30 more by
the same writer) is for choosing between variants: read its misses, not the held-out file's.

Caller utilities are what the game's code knows without the model: the need deficits an
option satisfies (objects declare them), a bonus for matching the current plan item and
one for keeping a commitment. They do not know about grief, rivals or politeness, so for
social and emotional situations they are often flat or point the wrong way.

The game skips the model when the best utility leads the next by UTILITY_MARGIN (call
reduction, IV-B): "margin_acc" is the default variant under that rule and "margin_model_share"
the share of situations that still ask the model.

Usage: decision_modes.py [MODEL] [--data PATH | --heldout]
Last line: {"generate_acc", "score_acc", "default_mode", "default_acc", "ms_per_decision", ..., "data", "split"};
"split" is "heldout" for the held-out file (or a file whose top-level "split" says so), else "tuning",
and a held-out run adds a "heldout" object repeating the headline figures under that label.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from garp.engine.backends import LlamaCppBackend  # noqa: E402
from garp.engine.models import resolve_model  # noqa: E402
from garp.engine.embedder import Embedder  # noqa: E402
from garp.engine.lmfunction import blend_scores  # noqa: E402
from garp.mind.action import UTILITY_MARGIN  # noqa: E402
from garp.engine.scheduler import (DEFAULT_BLEND, DEFAULT_CALIBRATE, DEFAULT_CHOICE_MODE,  # noqa: E402
                                   InferenceScheduler)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "decision_situations.json"
# Written after the constants were tuned on DATA and never used for tuning (--heldout).
HELDOUT = ROOT / "benchmarks" / "data" / "decision_heldout.json"
PLAN_BONUS = 1.0        # utility for an option matching the current plan item
COMMITMENT_BONUS = 1.5  # utility for an option keeping a commitment
SEED = 7
# The variant the game uses by default: the scheduler's mode and calibration, with utilities and the
# options' relevance blended (the game passes Eq. 3's goal similarity; here the situation's).
DEFAULT_KEY = ("generate" if DEFAULT_CHOICE_MODE == "generate"
               else "score_pmi_rel_blend" if DEFAULT_CALIBRATE else "score_rel_blend")
NAMES = ["generate", "score", "score_pmi", "score_blend", "score_pmi_blend", "score_rel_blend", "score_pmi_rel_blend",
         "relevance_only", "utility_only", "margin", "margin_without_relevance"]


def utilities(sit: dict, options: list[dict]) -> list[float]:
    needs = sit.get("needs", {})
    return [sum(1.0 - needs.get(n, 1.0) for n in o.get("needs", []))
            + (PLAN_BONUS if o.get("plan") else 0.0) + (COMMITMENT_BONUS if o.get("commitment") else 0.0)
            for o in options]


def messages(sit: dict) -> list[dict]:
    return [{"role": "system", "content": f"You are {sit['agent']}, a person living in a small town. "
                                          "You decide what to do next, sensibly and kindly."},
            {"role": "user", "content": f"{sit['state']}\nWhat do you do next?"}]


def _argmax(xs: list[float]) -> int:
    return max(range(len(xs)), key=lambda i: xs[i])


def decisive(utils: list[float]) -> bool:
    """The game's rule (garp.mind.action): the best utility leads the next by the margin."""
    top = sorted(utils, reverse=True)
    return len(top) == 1 or top[0] - top[1] >= UTILITY_MARGIN


def relevance(embedder: Embedder, sit: dict, texts: list[str]) -> list[float]:
    """Each option's cosine with the situation's text (the game's Eq. 3 goal similarity)."""
    state, *options = embedder.embed([sit["state"], *texts])
    return [float(state @ o) for o in options]


def score_variants(raw: str, utils: list[float], rel: list[float]) -> dict[str, int]:
    """All score-mode variants from one scoring call's recorded log-likelihoods."""
    d = json.loads(raw)
    ll, prior = d["loglik"], d["prior"]
    pmi = [a - b for a, b in zip(ll, prior)]
    return {"score": _argmax(ll), "score_pmi": _argmax(pmi),
            "score_blend": _argmax(blend_scores(ll, utils, DEFAULT_BLEND)),
            "score_pmi_blend": _argmax(blend_scores(pmi, utils, DEFAULT_BLEND)),
            "score_rel_blend": _argmax(blend_scores(ll, utils, DEFAULT_BLEND, rel)),
            "score_pmi_rel_blend": _argmax(blend_scores(pmi, utils, DEFAULT_BLEND, rel)),
            "relevance_only": _argmax(rel)}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", default=None, help="model name or path (default: the bundled model)")
    ap.add_argument("--data", type=Path, default=DATA, help=f"situations file (default: {_rel(DATA)})")
    ap.add_argument("--heldout", action="store_true", help=f"shorthand for --data {_rel(HELDOUT)}")
    args = ap.parse_args(argv)
    if args.heldout:
        args.data = HELDOUT
    return args


def _rel(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def load(path: Path) -> tuple[list[dict], str]:
    """The situations and the split: "heldout" for a file marked so or the held-out file, else "tuning"."""
    doc = json.loads(path.read_text())
    split = doc.get("split") or ("heldout" if path.resolve() == HELDOUT.resolve() else "tuning")
    return doc["situations"], split


def run_one(sched: InferenceScheduler, embedder: Embedder, sit: dict, rng: random.Random,
            ms: dict[str, float]) -> tuple[dict, set, list, bool]:
    """One situation, options shuffled: every variant's pick, the acceptable indices, the texts, model asked."""
    order = list(range(len(sit["options"])))
    rng.shuffle(order)
    opts = [sit["options"][i] for i in order]
    texts = [o["text"] for o in opts]
    ok = {order.index(i) for i in sit["acceptable"]}
    utils = utilities(sit, opts)
    rel = relevance(embedder, sit, texts)
    t0 = time.perf_counter()
    gen, _ = sched.choose_sync(messages(sit), texts, agent=sit["agent"], utilities=utils, mode="generate")
    t1 = time.perf_counter()
    _, rec = sched.choose_sync(messages(sit), texts, agent=sit["agent"], utilities=utils, mode="score",
                               calibrate=True, blend=DEFAULT_BLEND, relevance=rel)
    t2 = time.perf_counter()
    ms["generate"] += (t1 - t0) * 1000
    ms["score"] += (t2 - t1) * 1000
    picks = {"generate": gen, "utility_only": _argmax(utils), **score_variants(rec.raw, utils, rel)}
    for rule, variant in (("margin", DEFAULT_KEY), ("margin_without_relevance", "score_pmi_blend")):
        picks[rule] = picks["utility_only"] if decisive(utils) else picks[variant]
    return picks, ok, texts, not decisive(utils)


def run_all(sched: InferenceScheduler, embedder: Embedder, sits: list[dict],
            show: bool = True) -> tuple[dict, dict, dict, int]:
    """Every situation; `show` prints each one's picks (not for the held-out part: reading its misses is tuning)."""
    rng = random.Random(SEED)
    correct = dict.fromkeys(NAMES, 0)
    ms = {"generate": 0.0, "score": 0.0}
    per_cat: dict[str, dict[str, int]] = {}
    asked = 0
    for sit in sits:
        picks, ok, texts, model_asked = run_one(sched, embedder, sit, rng, ms)
        asked += model_asked
        cat = per_cat.setdefault(sit["category"], dict.fromkeys(NAMES, 0) | {"n": 0})
        cat["n"] += 1
        for k, idx in picks.items():
            correct[k] += idx in ok
            cat[k] += idx in ok
        if show:
            print(sit["id"], {k: texts[v][:28] for k, v in picks.items()},
                  "ok" if picks[DEFAULT_KEY] in ok else "MISS", file=sys.stderr)
    return correct, per_cat, ms, asked


def summary(correct: dict, ms: dict, asked: int, n: int, model: str, data: Path, split: str) -> dict:
    acc = {k: round(v / n, 3) for k, v in correct.items()}
    out = {"generate_acc": acc["generate"], "score_acc": acc["score"], "score_pmi_acc": acc["score_pmi"],
           "score_blend_acc": acc["score_blend"], "score_pmi_blend_acc": acc["score_pmi_blend"],
           "score_rel_blend_acc": acc["score_rel_blend"], "score_pmi_rel_blend_acc": acc["score_pmi_rel_blend"],
           "relevance_only_acc": acc["relevance_only"], "utility_only_acc": acc["utility_only"], "margin_acc": acc["margin"],
           "margin_without_relevance_acc": acc["margin_without_relevance"], "utility_margin": UTILITY_MARGIN,
           "margin_model_share": round(asked / n, 3),
           "default_mode": DEFAULT_CHOICE_MODE, "default_variant": DEFAULT_KEY,
           "utility_blend": DEFAULT_BLEND, "default_acc": acc[DEFAULT_KEY],
           "ms_per_decision": round(ms["generate" if DEFAULT_CHOICE_MODE == "generate" else "score"] / n, 1),
           "ms_per_decision_generate": round(ms["generate"] / n, 1),
           "ms_per_decision_score": round(ms["score"] / n, 1),
           "situations": n, "model": model, "data": _rel(data), "split": split}
    if split == "heldout":
        out["heldout"] = {"default_acc": acc[DEFAULT_KEY], "utility_only_acc": acc["utility_only"],
                          "relevance_only_acc": acc["relevance_only"], "without_relevance_acc": acc["score_pmi_blend"],
                          "margin_acc": acc["margin"], "utility_only_wrong": n - correct["utility_only"],
                          "note": "held-out situations, never used to tune the blend, calibration or margin"}
    return out


def main() -> None:
    args = parse_args()
    sits, split = load(args.data)
    backend = LlamaCppBackend(resolve_model(args.model), n_threads=2, seed=0)
    sched = InferenceScheduler(backend).start()
    try:
        correct, per_cat, ms, asked = run_all(sched, Embedder(), sits, show=split != "heldout")
    finally:
        sched.stop()
        backend.close()
    if split != "heldout":  # per category only for the tuning part, as the per-situation lines
        for c, v in per_cat.items():
            print(c, {k: f"{v[k]}/{v['n']}" for k in NAMES})
    print(json.dumps(summary(correct, ms, asked, len(sits), backend.spec.name, args.data, split)))


if __name__ == "__main__":
    main()
