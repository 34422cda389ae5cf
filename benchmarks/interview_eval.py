"""Interview answers on labelled characters: does the answer come from the memory that answers,
state its fact, and say "I don't recall" only when nothing answers?

benchmarks/data/interview_eval.json holds characters (persona, memories, questions, and "at": the
time of day they are asked, 18:00 unless given; "doings": a played character's logged uses of objects
and arrivals that day), each question labelled with the memory index or persona field that answers it,
"day" when what it did today answers (null: absent; the remembered day plan is the plan source's).
Characters are split into a tuning part and a held-out part; benchmarks/data/interview_dev.json
(`--data`) holds development characters, whose misses are read instead of the held-out part's. Each question goes through the
game's own `interview()` with the bundled model (live, no reply cache). Reported per split:
- retrieval_top1: the first source the interview lists is the labelled one;
- answer_source: the answer was built from the labelled source;
- states_fact: the answer contains every labelled fact word;
- recall_absent: "I don't recall" on questions nothing answers;
- recall_answerable: "I don't recall" on questions something answers (lower is better);
- fallback: share of answers code gave because the model failed.
`--tune` grid-searches the rank-mode constants (RECALL_FLOOR, MODEL_WEIGHT) on the tuning part
only, from the model's recorded scores, and prints what it would choose; the code's constants
are what the held-out figures use. `--tune-only` / `--heldout-only` ask one part. `--dump FILE`
writes the rows of every part but the held-out one (answers, sources, the model's scores) for analysis outside the run.

Last line: {"heldout": {...}, "tune": {...}, "questions": N, ...}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from garp.engine.backends import LlamaCppBackend  # noqa: E402
from garp.engine.embedder import Embedder  # noqa: E402
from garp.engine.memory_store import MemoryStore  # noqa: E402
from garp.engine.models import resolve_model  # noqa: E402
from garp.engine.scheduler import InferenceScheduler  # noqa: E402
from garp.mind import interview as iv  # noqa: E402
from garp.mind.day_record import day_so_far  # noqa: E402
from garp.mind.factory import make_mind  # noqa: E402
from garp.mind.persona import Persona  # noqa: E402
from garp.mind.planning import plan_memory_prefix  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "interview_eval.json"
DAY_T = 3 * 86400.0  # the interviews are on day 4, at 18:00 unless a character's "at" says when


def now_of(entry: dict) -> float:
    """Game time of a character's interview: a played town's characters are asked when their save was."""
    hours, minutes = entry.get("at", "18:00").split(":")
    return DAY_T + 3600.0 * int(hours) + 60.0 * int(minutes)


def load_character(entry: dict, store: MemoryStore, embedder: Embedder):
    persona = Persona.model_validate(entry["persona"])
    happened = [m["text"] for m in entry["memories"] if m.get("type", "event") in ("event", "chat")]
    if happened and not any(t.startswith((f"{persona.name} ", f"{persona.name}'")) for t in happened):
        # the game writes memories with the persona's name; a set naming the character otherwise measures
        # answers told in the third person ("Ruth ate...") that no played character would give
        raise SystemExit(f"interview data: character {persona.name!r}: none of its {len(happened)} events and chats "
                         "begins with its persona name (a first name, as the memories call it)")
    now = now_of(entry)
    mind = make_mind(persona, store=store, embedder=embedder, scheduler=None, t=now - 7 * 86400.0)
    for m in entry["memories"]:
        asyncio.run(mind.memory.remember(m["text"], t=now - 3600.0 * float(m.get("hours_ago", 1.0)),
                                         type=m.get("type", "event"), poignancy=int(m.get("poignancy", 3))))
    return mind


FIELD_SOURCES = {"workplace": "occupation"}  # the interview states the workplace in its occupation fact
TAGGED = ("persona:", "state:", "day")  # labels naming a source by its tag, not by a memory's text


def label_of(entry: dict, answer) -> str | None:
    """The labelled source's text as the interview lists it (a memory) or its source tag (a field; the
    remembered day plan, which the interview answers from as the plan source)."""
    if answer is None:
        return None
    if isinstance(answer, str):  # a persona field, or "day": what the character did today (its doings)
        return answer if answer == "day" else f"persona:{FIELD_SOURCES.get(answer, answer)}"
    text = entry["memories"][answer]["text"]
    return "state:plan" if text.startswith(plan_memory_prefix(entry["persona"]["name"])) else text


def source_matches(label: str | None, description: str, source: str) -> bool:
    if label is None:
        return False
    return source == label if label.startswith(TAGGED) else (source == "memory" and description == label)


def doings_of(entry: dict) -> tuple:
    """What a played character did that day (the run's logged uses and arrivals, "t" in seconds of the day)."""
    events = [dict(e, t=DAY_T + float(e["t"])) for e in entry.get("doings", [])]
    return day_so_far(events, entry["persona"]["name"], now_of(entry))


def ask_all(entry: dict, scheduler, store: MemoryStore, embedder: Embedder) -> list[dict]:
    mind = load_character(entry, store, embedder)
    rows = []
    for q in entry["questions"]:
        label = label_of(entry, q["answer"])
        res = asyncio.run(iv.interview(mind, q["q"], scheduler, now_of(entry), done=doings_of(entry)))
        top = res.memories[0] if res.memories else None
        targets = [iv.as_answer(u.description) for u in res.memories if u.source == label] if label and label.startswith(TAGGED) \
            else [iv.as_answer(iv.spoken_memory(label, mind.persona.name, iv.own_pronoun(mind.persona)))] if label else []
        rows.append({"q": q["q"], "label": label, "answer": res.answer, "facts": q["facts"], "targets": targets,
                     "top_ok": top is not None and source_matches(label, top.description, top.source),
                     "source_ok": res.answer in targets,
                     "fact_ok": label is not None and all(f.lower() in res.answer.lower() for f in q["facts"]),
                     "dont_recall": res.answer == iv.FALLBACK_ANSWER, "fallback": res.call.fallback_used,
                     "raw": res.call.raw, "latency_s": res.call.latency_s})
    return rows


def figures(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["label"] is not None]
    absent = [r for r in rows if r["label"] is None]

    def share(xs, key):
        return round(sum(bool(x[key]) for x in xs) / len(xs), 3) if xs else None

    return {"questions": len(rows), "retrieval_top1": share(answerable, "top_ok"),
            "answer_source": share(answerable, "source_ok"), "states_fact": share(answerable, "fact_ok"),
            "recall_absent": share(absent, "dont_recall"), "recall_answerable": share(answerable, "dont_recall"),
            "fallback": share(rows, "fallback"),
            "ms_per_answer": round(1000 * sum(r["latency_s"] for r in rows) / max(1, len(rows)))}


def regrade(rows: list[dict], floor: float, weight: float) -> dict:
    """The figures had the constants been (floor, weight), recomputed from the recorded scores."""
    hits = {"answer_source": 0, "recall_absent": 0, "recall_answerable": 0}
    for r in rows:
        raw = json.loads(r["raw"]) if r["raw"].startswith("{") else {}
        if "prior" not in raw:
            continue
        util = [floor if s == "none" else u for s, u in zip(raw["sources"], raw["utility"])]
        score = [u + weight * (a - b) for u, a, b in zip(util, raw["loglik"], raw["prior"])]
        best = max(range(len(score)), key=lambda i: score[i])
        declined = raw["sources"][best] == "none"
        if r["label"] is None:
            hits["recall_absent"] += declined
        else:
            hits["recall_answerable"] += declined
            hits["answer_source"] += raw["options"][best] in r["targets"]
    n_abs = sum(r["label"] is None for r in rows)
    n_ans = len(rows) - n_abs
    return {"floor": floor, "weight": weight, "answer_source": round(hits["answer_source"] / max(1, n_ans), 3),
            "recall_absent": round(hits["recall_absent"] / max(1, n_abs), 3),
            "recall_answerable": round(hits["recall_answerable"] / max(1, n_ans), 3)}


def tune(rows: list[dict]) -> dict:
    """Best (floor, weight) on the tuning part: right answers plus right refusals, minus wrong refusals."""
    grid = [regrade(rows, f / 100, w / 100) for f in range(20, 56, 2) for w in (0, 1, 2, 3, 5, 8, 12, 20)]
    return max(grid, key=lambda g: g["answer_source"] + g["recall_absent"] - g["recall_answerable"])


def wanted(split: str, opts: argparse.Namespace) -> bool:
    """Whether a character of this part is asked: --tune-only leaves out the held-out part, --heldout-only the rest."""
    return not (opts.tune_only and split == "heldout") and not (opts.heldout_only and split != "heldout")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tune", action="store_true", help="also grid-search the rank constants on the tuning part")
    ap.add_argument("--show", action="store_true", help="print the tuning part's questions, answers and verdicts")
    ap.add_argument("--data", type=Path, default=DATA, help="the labelled characters (default: %(default)s)")
    ap.add_argument("--tune-only", action="store_true",
                    help="ask the tuning part only, so working on the code never shows the held-out figures")
    ap.add_argument("--heldout-only", action="store_true",
                    help="ask the held-out part only (its figures, once the code is settled on the tuning part)")
    ap.add_argument("--dump", type=Path, default=None,
                    help="write the tuning part's rows (answers, sources, the model's scores) to this JSON file")
    opts = ap.parse_args()
    data = json.loads(opts.data.read_text())
    backend, embedder = LlamaCppBackend(resolve_model(None)), Embedder()
    scheduler = InferenceScheduler(backend).start()
    rows: dict[str, list[dict]] = {split: [] for split in dict.fromkeys(e["split"] for e in data["personas"])}
    t0 = time.monotonic()
    try:
        for entry in [e for e in data["personas"] if wanted(e["split"], opts)]:
            with tempfile.TemporaryDirectory() as tmp, MemoryStore(Path(tmp) / "memory") as store:
                rows[entry["split"]] += ask_all(entry, scheduler, store, embedder)
    finally:
        scheduler.stop(), embedder.close(), backend.close()
    looked_at = [r for split, rs in rows.items() if split != "heldout" for r in rs]
    if opts.show:  # the tuning and development parts only: looking at held-out failures would be tuning on them
        for r in looked_at:
            verdict = "ok" if (r["source_ok"] if r["label"] else r["dont_recall"]) else "WRONG"
            print(f"{verdict:5} Q: {r['q']}\n      A: {r['answer']}\n      want: {r['label']}")
    if opts.dump:  # as --show
        opts.dump.write_text(json.dumps(looked_at, indent=1))
    out = {split: figures(rs) for split, rs in rows.items() if rs}
    out.update({"text_mode": backend.profile.text_mode, "recall_floor": iv.RECALL_FLOOR,
                "model_weight": iv.MODEL_WEIGHT, "wall_s": round(time.monotonic() - t0, 1)})
    if opts.tune and rows.get("tune"):
        out["tuned_on_tune_split"] = tune(rows["tune"])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
