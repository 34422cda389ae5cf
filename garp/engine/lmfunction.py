"""LMFunction framework (paper Sec. III intro): one small class per cognitive function.

Each function declares a compact prompt (static text first so llama.cpp reuses the
prefix), a pydantic output model compiled to a grammar, a semantic `check`, and a
`fallback` that is always valid. `run_function` executes one call on a backend and
never raises: any failure (grammar, timeout, invalid JSON, failed check) yields the
fallback, and the `CallRecord` says what happened.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError, create_model

from garp.engine.reply_cache import valid_scores

I = TypeVar("I")
O = TypeVar("O", bound=BaseModel)

# Tunables
PROMPT_BUDGET_TOKENS = 4096   # compact prompts for small-model contexts, tokens (Sec. III intro: <= 4K)
REASONING_MAX_CHARS = 80      # "reasoning" scratchpad before the answer (Sec. IV-C); small keeps the grammar small
MESSAGE_OVERHEAD_TOKENS = 6   # chat-template tokens around each message

RANK_BLEND = 0.5              # rank mode's default weight of code's utility against the model
# A choice's third term when the caller gives each option's similarity to the situation (action choice:
# the Eq. 3 goal similarity): it weighs as much as the utility. Chosen on the choice tuning situations and a
# development set by a third writer (24 of 30 against 21 without it; the 135M model's likelihoods rank the
# words of a situation poorly, the embedder better); the held-out figures are in the README (Benchmarks).
RELEVANCE_BLEND = 0.5

_ids = itertools.count(1)


@dataclass(frozen=True)
class Candidate:
    """One code-built answer of a text function in rank mode."""

    out: BaseModel      # the function's output if this candidate wins
    text: str           # what the model scores
    utility: float = 0.0  # code's own estimate of fit (e.g. similarity to the question)
    source: str = ""    # where it came from (a memory, a persona field, a template), for the inspector


@dataclass
class CallRecord:
    """Everything about one model call, for the inspector and the event log."""

    id: int
    agent: str
    function: str
    game_time: float
    messages: list[dict]
    raw: str = ""
    parsed: dict | None = None
    fallback_used: bool = False
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    queue_wait_s: float = 0.0
    latency_s: float = 0.0
    cached: bool = False
    retrieved: list[dict] = field(default_factory=list)
    mode: str = "generate"  # "generate" | "score"
    endpoint: str = ""         # the server that answered (server pool only)
    note: str = ""             # e.g. why a choice was generated instead of scored
    unreachable: bool = False  # no server could be reached: the fallback answered

    def to_dict(self) -> dict:
        return asdict(self)

    def server_fields(self) -> dict:
        """What an `llm_call` event adds for a call served by a server pool (empty when embedded)."""
        extra: dict[str, Any] = {"endpoint": self.endpoint} if self.endpoint else {}
        if self.note:
            extra["note"] = self.note
        if self.unreachable:
            extra["unreachable"] = True
        return extra


def new_record(agent: str, function: str, game_time: float, messages: list[dict],
               retrieved: list | None = None, mode: str = "generate") -> CallRecord:
    return CallRecord(next(_ids), agent, function, game_time, messages,
                      retrieved=list(retrieved or []), mode=mode)


class LMFunction(Generic[I, O]):
    """Subclass, set the class attributes, implement `messages` and `fallback` (and `check`)."""

    name: ClassVar[str]
    Output: ClassVar[type[BaseModel]]
    priority: ClassVar[int] = 5        # lower runs first among equal value and deadline
    value: ClassVar[str] = "plan"      # the scheduler's value class (garp.engine.admission.VALUES)
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 128

    def messages(self, inputs: I, reasoning: bool) -> list[dict]:
        raise TypeError(f"{type(self).__name__} must define messages()")

    def fallback(self, inputs: I) -> O:
        raise TypeError(f"{type(self).__name__} must define fallback()")

    def check(self, inputs: I, out: O) -> O:
        return out

    # -- rank mode (profile text_mode "rank"): code builds candidates, the model ranks them
    rank_prefix: ClassVar[str] = ""  # scored text starts after this (as choices' "I decide to")

    def candidates(self, inputs: I) -> list["Candidate"] | None:
        """Code-built answers worth ranking; None (the default) means the function only generates, and an
        empty list that a ranking function has nothing to offer this time (code answers, counted)."""
        return None

    def rank_messages(self, inputs: I) -> list[dict]:
        """The situation the candidates are scored as replies to."""
        return self.messages(inputs, False)

    def prior_messages(self, inputs: I) -> list[dict]:
        """The same prompt without what should decide, for the context-free prior (PMI calibration)."""
        return neutral_messages(self.rank_messages(inputs))

    def combine(self, pmi: list[float], utilities: list[float]) -> list[float]:
        """One score per candidate from the model's calibrated log-likelihood and code's utility."""
        return blend_scores(pmi, utilities, RANK_BLEND)

    # -- schema
    @classmethod
    def output_model(cls, reasoning: bool) -> type[BaseModel]:
        """The output model, or a derived one with a leading short 'reasoning' field."""
        if not reasoning:
            return cls.Output
        cache = cls.__dict__.get("_reasoning_model")
        if cache is None:
            fields: dict[str, Any] = {"reasoning": (str, Field(max_length=REASONING_MAX_CHARS))}
            for fname, info in cls.Output.model_fields.items():
                fields[fname] = (info.annotation, info)
            cache = create_model(f"{cls.Output.__name__}WithReasoning", **fields)
            cache.__doc__ = cls.Output.__doc__
            setattr(cls, "_reasoning_model", cache)
        return cache

    @classmethod
    def schema(cls, reasoning: bool) -> dict:
        s = cls.output_model(reasoning).model_json_schema()
        s["title"] = f"{cls.name}.{cls.Output.__name__}"
        return s

    def parse(self, inputs: I, raw: str, reasoning: bool) -> O:
        """Raw reply -> validated output. Raises ValueError/ValidationError on any problem."""
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, got {type(data).__name__}")
        if reasoning:
            data.pop("reasoning", None)
        out = self.Output.model_validate(data)
        return self.check(inputs, out)


# ---------------------------------------------------------------- prompt budget

def chat(system: str, user: str) -> list[dict]:
    """The two-message prompt every LM function sends: static instructions first (llama.cpp
    reuses that prefix across calls), the moment-specific text last."""
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def fit_budget(messages: list[dict], count_tokens, budget: int) -> list[dict]:
    """Shorten the moment-specific tail (the last message) until the prompt fits.

    The static head (system text, earlier messages) is never touched, so llama.cpp keeps
    reusing it. In the last message the final line (the question) is kept and lines
    just before it go first — retrieved context is listed most relevant first.
    """
    def total(msgs):
        return sum(count_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in msgs)

    if not messages or total(messages) <= budget:
        return messages
    head, last = messages[:-1], dict(messages[-1])
    lines = last["content"].split("\n")
    question, body = lines[-1:], lines[:-1]
    while body and total(head + [{**last, "content": "\n".join(body + question)}]) > budget:
        body.pop()
    text = "\n".join(body + question)
    over = total(head + [{**last, "content": text}]) - budget
    if over > 0:  # one very long line: cut characters, keeping its end
        text = text[min(len(text), over * 4 + 16):]
    last["content"] = text
    return head + [last]


def count_tokens_for(backend) -> Any:
    fn = getattr(backend, "count_tokens", None)
    return fn if callable(fn) else (lambda text: len(text) // 4 + 1)


# ---------------------------------------------------------------- execution

# A reply just produced by the backend, not yet stored: (cache key, value). It is stored
# only after validation, so a live cache never keeps a reply that failed it.
Fresh = tuple[str, dict]


def run_function(fn: LMFunction, inputs: Any, backend, *, agent: str, game_time: float = 0.0,
                 cache=None, seed: int = 0, retrieved: list | None = None) -> tuple[BaseModel, CallRecord]:
    """One call: messages -> (cache | backend) -> parse -> check; the fallback on any failure.
    In rank mode a function with candidates has them ranked instead (`run_ranked`)."""
    if getattr(backend.profile, "text_mode", "generate") == "rank" and fn.candidates(inputs) is not None:
        cands = checked_candidates(fn, inputs)
        if cands:
            return run_ranked(fn, inputs, cands, backend, agent=agent, game_time=game_time, cache=cache,
                              retrieved=retrieved)
        # it ranks, but had nothing to offer that passed its checks: code's answer, counted as a failure
        return answered_by_code(fn, inputs, agent, game_time, retrieved, "no candidate passed the checks")
    reasoning = bool(getattr(backend.profile, "reasoning_field", False))
    rec = new_record(agent, fn.name, game_time, [], retrieved)
    start = time.perf_counter()
    fresh: Fresh | None = None
    try:
        # the embedded model's batch slot may be smaller than the profile's window
        n_ctx = getattr(backend, "context_tokens", None) or getattr(backend.profile, "n_ctx", PROMPT_BUDGET_TOKENS)
        budget = min(PROMPT_BUDGET_TOKENS, n_ctx - fn.max_tokens)
        rec.messages = fit_budget(fn.messages(inputs, reasoning), count_tokens_for(backend), budget)
        schema = fn.schema(reasoning)
        comp, fresh = complete_cached(backend, cache, rec.messages, schema, fn.temperature, fn.max_tokens, seed)
        rec.cached = fresh is None
        rec.raw, rec.prompt_tokens, rec.completion_tokens = comp["text"], comp["prompt_tokens"], comp["completion_tokens"]
        out = fn.parse(inputs, rec.raw, reasoning)
        rec.parsed = out.model_dump(mode="json")
    except Exception as e:  # noqa: BLE001 — by design no model failure escapes a call
        rec.error = _describe(e)
        rec.fallback_used = True
        out = fn.fallback(inputs)
        rec.parsed = out.model_dump(mode="json")
    store(cache, fresh, rec.error)
    rec.latency_s = time.perf_counter() - start
    return out, rec


def answered_by_code(fn: LMFunction, inputs: Any, agent: str, game_time: float, retrieved: list | None,
                     why: str) -> tuple[BaseModel, CallRecord]:
    """The function's fallback, with a record that says why the model did not answer."""
    rec = new_record(agent, fn.name, game_time, [], retrieved, mode="code")  # no model was asked
    out = fn.fallback(inputs)
    rec.fallback_used, rec.error, rec.parsed = True, why, out.model_dump(mode="json")
    return out, rec


def checked_candidates(fn: LMFunction, inputs: Any) -> list[Candidate]:
    """The function's candidates that pass its own check (both modes share the checks)."""
    kept = []
    for c in fn.candidates(inputs) or []:
        try:
            kept.append(Candidate(fn.check(inputs, c.out), c.text, c.utility, c.source))
        except (ValueError, ValidationError):
            continue
    return kept


def run_ranked(fn: LMFunction, inputs: Any, cands: list[Candidate], backend, *, agent: str, game_time: float = 0.0,
               cache=None, retrieved: list | None = None) -> tuple[BaseModel, CallRecord]:
    """Rank code-built candidates by the model's likelihood, calibrated against the prior without
    the deciding context and combined with code's utility. On failure code's best candidate
    answers, counted as a fallback."""
    rec = new_record(agent, fn.name, game_time, fn.rank_messages(inputs), retrieved, mode="score")
    start, texts = time.perf_counter(), [c.text for c in cands]
    utilities = [c.utility for c in cands]
    if len(cands) == 1:  # nothing to choose between: code's only answer, no model time spent
        rec.mode, rec.note = "code", "one candidate"
        rec.parsed = {**cands[0].out.model_dump(mode="json"), "source": cands[0].source}
        return cands[0].out, rec
    try:
        ll, cached = scores_cached(backend, cache, rec.messages, texts, fn.rank_prefix)
        prior, prior_cached = scores_cached(backend, cache, fn.prior_messages(inputs), texts, fn.rank_prefix)
        pmi = [a - b for a, b in zip(ll, prior)]
        combined = fn.combine(pmi, utilities)
        index = max(range(len(cands)), key=lambda i: combined[i])
        rec.cached = cached and prior_cached
        rec.raw = json.dumps({"options": texts, "sources": [c.source for c in cands],
                              "loglik": _rounded(ll), "prior": _rounded(prior), "utility": _rounded(utilities),
                              "combined": _rounded(combined)})
    except Exception as e:  # noqa: BLE001 — a failed ranking falls back to code's best candidate
        rec.error, rec.fallback_used = _describe(e), True
        index = max(range(len(cands)), key=lambda i: utilities[i])
    out = cands[index].out
    rec.parsed = {**out.model_dump(mode="json"), "source": cands[index].source}
    rec.latency_s = time.perf_counter() - start
    return out, rec


def _rounded(xs: list[float]) -> list[float]:
    return [round(float(x), 4) for x in xs]


def store(cache, fresh: Fresh | None, rejected: str | None) -> None:
    """Put a fresh reply into the cache, saying why it was rejected if it was."""
    if cache is not None and fresh is not None:
        cache.put(fresh[0], fresh[1], rejected=rejected)


def complete_cached(backend, cache, messages, schema, temperature, max_tokens, seed) -> tuple[dict, Fresh | None]:
    """The completion from the cache (fresh is None) or the backend (fresh: to store once validated)."""
    key = ""
    if cache is not None:
        key = cache.key("complete", {"messages": messages, "schema": schema, "temperature": temperature,
                                     "max_tokens": max_tokens, "seed": seed})
        hit = cache.get(key)
        if hit is not None:
            return hit, None
    c = backend.complete(messages, schema=schema, temperature=temperature, max_tokens=max_tokens, seed=seed)
    value = {"text": c.text, "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens}
    return value, (key, value)


def scores_cached(backend, cache, messages, options, prefix: str = "") -> tuple[list[float], bool]:
    """Option log-likelihoods from the cache or the backend; raises ValueError when they cannot rank."""
    key = cache.key("score", {"messages": messages, "options": options, "prefix": prefix}) if cache is not None else ""
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        scores, cached = hit["scores"], True
    else:
        scores, cached = backend.score_options(messages, options, prefix=prefix), False
        store(cache, (key, {"scores": scores}), valid_scores(scores, options))
    problem = valid_scores(scores, options)
    if problem:
        raise ValueError(problem)
    return scores, cached


def _describe(e: Exception) -> str:
    if isinstance(e, ValidationError):
        return "invalid output: " + "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()[:3])
    if isinstance(e, json.JSONDecodeError):
        return f"invalid JSON: {e.msg} at char {e.pos}"
    return f"{type(e).__name__}: {e}"


# ---------------------------------------------------------------- choosing one of N options

CHOICE_INSTRUCTION = "Choose exactly one option. Reply with the option text."
SCORE_PREFIX = "I decide to"  # score mode: options are scored as the end of this reply (benchmarks/decision_modes.py)


def choice_messages(messages: list[dict], options: list[str]) -> list[dict]:
    """Generate mode: the options are listed at the end of the last message."""
    listing = "\n".join(f"- {o}" for o in options)
    last = dict(messages[-1])
    last["content"] = f"{last['content']}\nOptions:\n{listing}\n{CHOICE_INSTRUCTION}"
    return messages[:-1] + [last]


def choice_schema(options: list[str], reasoning: bool) -> dict:
    props: dict[str, Any] = {}
    if reasoning:
        props["reasoning"] = {"type": "string", "maxLength": REASONING_MAX_CHARS}
    props["choice"] = {"type": "string", "enum": list(options)}
    return {"title": "choose.Choice", "type": "object", "properties": props, "required": list(props)}


def neutral_messages(messages: list[dict]) -> list[dict]:
    """The same prompt without the moment: the last message shrinks to its final line (the question)."""
    last = dict(messages[-1])
    last["content"] = last["content"].rsplit("\n", 1)[-1]
    return messages[:-1] + [last]


def _minmax(xs: list[float]) -> list[float]:
    lo, hi = min(xs), max(xs)
    return [0.5] * len(xs) if hi - lo < 1e-12 else [(x - lo) / (hi - lo) for x in xs]


def _softmax(xs: list[float]) -> list[float]:
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    return [v / sum(e) for v in e]


def blend_scores(loglik: list[float], utilities: list[float] | None, blend: float,
                 relevance: list[float] | None = None, relevance_blend: float = RELEVANCE_BLEND) -> list[float]:
    """(1 - blend) * softmax of the mean log-likelihoods + blend * min-max normalised utility; with the
    options' `relevance` (how near each is to the situation, by the embedder) a third min-max normalised
    term of weight `relevance_blend`, the three weights then scaled to sum to 1."""
    ll = _softmax(loglik)
    terms = [(1 - blend, ll)]
    if utilities:
        terms.append((blend, _minmax([float(u) for u in utilities])))
    if relevance:
        terms.append((relevance_blend, _minmax([float(r) for r in relevance])))
    total = sum(w for w, _ in terms)
    return [sum(w * xs[i] for w, xs in terms) / total for i in range(len(ll))]


def best_utility(options: list[str], utilities: list[float] | None) -> int:
    if not utilities:
        return 0
    return max(range(len(options)), key=lambda i: utilities[i])


def run_choice(backend, messages: list[dict], options: list[str], *, mode: str, agent: str,
               utilities: list[float] | None = None, blend: float = 0.5, relevance: list[float] | None = None,
               cache=None, seed: int = 0,
               game_time: float = 0.0, retrieved: list | None = None,
               max_tokens: int = 48, calibrate: bool = False,
               prefix: str = SCORE_PREFIX) -> tuple[int, CallRecord]:
    """Pick an option index. Never raises: invalid replies fall back to the best utility."""
    rec = new_record(agent, "choose", game_time, messages, retrieved, mode)
    start = time.perf_counter()
    try:
        if not options:
            raise ValueError("no options to choose from")
        for label, xs in (("utilities", utilities), ("relevances", relevance)):
            if xs is not None and len(xs) != len(options):
                raise ValueError(f"{len(xs)} {label} for {len(options)} options")
        if mode == "score":
            scores, rec.cached = scores_cached(backend, cache, messages, options, prefix)
            raw: dict[str, Any] = {"loglik": [round(s, 4) for s in scores]}
            if calibrate:  # PMI: subtract how likely each option is without the situation
                prior, _ = scores_cached(backend, cache, neutral_messages(messages), options, prefix)
                raw["prior"] = [round(p, 4) for p in prior]
                scores = [s - p for s, p in zip(scores, prior)]
            combined = blend_scores(scores, utilities, blend, relevance)
            if relevance:
                raw["relevance"] = [round(float(r), 4) for r in relevance]
            index = max(range(len(options)), key=lambda i: combined[i])
            raw["combined"] = [round(c, 4) for c in combined]
            rec.raw = json.dumps(raw)
        else:
            index = _generate_choice(backend, rec, messages, options, cache, seed, max_tokens)
        rec.parsed = {"index": index, "choice": options[index]}
    except Exception as e:  # noqa: BLE001 — a failed choice falls back to the best utility
        rec.error, rec.fallback_used = _describe(e), True
        index = best_utility(options, utilities) if options else -1
        rec.parsed = {"index": index, "choice": options[index] if options else None}
    rec.latency_s = time.perf_counter() - start
    return index, rec


def _generate_choice(backend, rec: CallRecord, messages, options, cache, seed, max_tokens) -> int:
    reasoning = bool(getattr(backend.profile, "reasoning_field", False))
    rec.messages = choice_messages(messages, options)
    schema = choice_schema(options, reasoning)
    longest = max(count_tokens_for(backend)(o) for o in options)
    budget = max_tokens + longest + (REASONING_MAX_CHARS // 2 if reasoning else 0)
    comp, fresh = complete_cached(backend, cache, rec.messages, schema, 0.0, budget, seed)
    rec.cached = fresh is None
    rec.raw, rec.prompt_tokens, rec.completion_tokens = comp["text"], comp["prompt_tokens"], comp["completion_tokens"]
    try:
        data = json.loads(rec.raw)
        choice = data.get("choice") if isinstance(data, dict) else None
        if choice not in options:
            raise ValueError(f"choice {choice!r} is not one of the options")
    except ValueError as e:
        store(cache, fresh, _describe(e))
        raise
    store(cache, fresh, None)
    return options.index(choice)
