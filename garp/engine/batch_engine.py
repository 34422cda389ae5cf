"""Continuous batching for the embedded model (issue #17: the town keeps up with its model).

One llama.cpp context holds `n_slots` sequences, each in a KV stream of its own (so a
token's attention reads its own sequence's cells, not every slot's). A single engine
thread steps them together: each `llama_decode` carries the next prompt chunk of newly
admitted sequences and one token of every sequence that is generating, so the model's
weights are read once per step for all of them. On a small CPU that is the difference
between one agent's line at a time and eight.

Each slot keeps the tokens it last held; a new request goes to the free slot sharing the
longest prefix with it, so an agent's next call of the same function reuses the
static head of its prompt (llama.cpp's prefix cache, per slot); a longer prefix held by
another slot is copied over.

On 2 cores the kernel itself makes about 2x the tokens/s with 8 sequences as with one
(benchmarks/batching.py, `decode_only`): the matrix products are compute-bound there.

Sampling mirrors llama-cpp-python's chat completion (top-k 40, top-p 0.95, min-p 0.05,
temperature; greedy at 0) with the JSON grammar checked the way llama.cpp's own
sampler does: the unconstrained pick is tried against the grammar first, and only
when the grammar rejects it is the whole vocabulary filtered (most steps cost one
grammar check, not 49,152).
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import queue
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from garp.engine.threads import COMPUTE
from garp.errors import GarpError

# Tunables
PROMPT_CHUNK_TOKENS = 512  # prompt tokens one step may carry, all sequences together (llama.cpp's n_batch)
TOP_K, TOP_P, MIN_P = 40, 0.95, 0.05  # the same as LlamaCppBackend.complete always used

def _gil_holding(llama_cpp):
    """The per-token calls bound through PyDLL, which keeps the GIL: each is microseconds long,
    and re-taking a released GIL from the game's render thread costs up to a switch interval
    (a step makes dozens of such calls, so releasing it turned 10 ms steps into 100 ms ones)."""
    lib = llama_cpp.llama_cpp._lib
    py = ctypes.PyDLL(lib._name, handle=lib._handle)
    calls = {}
    for name, args, res in (("llama_sampler_apply", [ctypes.c_void_p, ctypes.c_void_p], None),
                            ("llama_sampler_accept", [ctypes.c_void_p, ctypes.c_int32], None),
                            ("llama_get_logits", [ctypes.c_void_p], ctypes.POINTER(ctypes.c_float))):
        fn = getattr(py, name)
        fn.argtypes, fn.restype = args, res
        calls[name] = fn
    return calls


_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


@dataclass
class Generation:
    """One request: prompt tokens in, text out."""

    prompt: list[int]
    max_tokens: int
    temperature: float = 0.0
    seed: int = 0
    grammar: tuple[str, str] | None = None  # (GBNF text, root rule)
    future: cf.Future = field(default_factory=cf.Future)


@dataclass
class GenResult:
    text: str
    prompt_tokens: int
    completion_tokens: int


def common_prefix(a: list[int], b: list[int]) -> int:
    """How many leading tokens two token lists share (what a cache can keep)."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class _Slot:
    """One sequence of the shared context: its cached tokens and the request it serves."""

    def __init__(self, seq_id: int):
        self.seq_id = seq_id
        self.cached: list[int] = []   # tokens whose KV is in the cache at positions 0..n-1
        self.job: Generation | None = None
        self.pending: list[int] = []  # prompt tokens still to decode
        self.out: list[int] = []
        self.sampler = None           # chain for temperature > 0
        self.grammar = None           # grammar sampler, checked separately
        self.logit_row = -1           # batch row whose logits this slot samples from after a step
        self.step_base = 0            # len(cached) before this step: a failed decode rolls back to it

    def common_prefix(self, tokens: list[int]) -> int:
        return common_prefix(self.cached, tokens)


class BatchEngine:
    """Owns one llama.cpp context; `submit` from any thread, results arrive on futures."""

    def __init__(self, llm, n_slots: int, slot_ctx: int, n_threads: int):
        import llama_cpp

        self._lc, self._llm = llama_cpp, llm
        self.n_slots, self.n_ctx = n_slots, slot_ctx
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = n_slots * slot_ctx
        params.n_batch = params.n_ubatch = PROMPT_CHUNK_TOKENS + n_slots  # a step never exceeds one ubatch
        # a stream per sequence: each token attends over its own sequence's cells only (a unified
        # cache runs every token over every slot's cells, masked); CPU attention is faster without FA
        params.n_seq_max, params.kv_unified = n_slots, False
        params.flash_attn_type = llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED
        params.n_threads = params.n_threads_batch = n_threads
        self.ctx = llama_cpp.llama_init_from_model(llm._model.model, params)
        if not self.ctx:
            raise GarpError(f"llama.cpp could not create a batched context ({n_slots} slots of {slot_ctx} tokens)")
        self._mem = llama_cpp.llama_get_memory(self.ctx)
        self._vocab = llm._model.vocab
        self._n_vocab = llm.n_vocab()
        self._fast = _gil_holding(llama_cpp)
        self._eog = frozenset(t for t in range(self._n_vocab) if llama_cpp.llama_vocab_is_eog(self._vocab, t))
        self._batch = llama_cpp.llama_batch_init(PROMPT_CHUNK_TOKENS + n_slots, 0, 1)
        self._slots = [_Slot(i) for i in range(n_slots)]
        self._inbox: queue.Queue[Generation | None] = queue.Queue()
        self._waiting: list[Generation] = []
        self.isolated = False  # lockstep runs: one request at a time, each slot keeps to its own cache (isolate)
        self._clear_pending = False
        self._busy_s, self._made = 0.0, 0  # wall s spent in steps, tokens generated: the engine's own rate
        self._prompt_tokens = self._reused_tokens = 0  # how much of the prompts the slots' caches saved
        self._thread = threading.Thread(target=self._loop, name="garp-batch-engine", daemon=True)
        self._thread.start()

    def submit(self, job: Generation) -> cf.Future:
        if len(job.prompt) + job.max_tokens > self.n_ctx:
            raise GarpError(f"prompt of {len(job.prompt)} tokens + {job.max_tokens} to generate does not fit "
                            f"a batch slot of {self.n_ctx} tokens (the model profile's slot_ctx)")
        self._inbox.put(job)
        return job.future

    def isolate(self, on: bool) -> None:
        """Lockstep: the cache starts empty and no slot copies another's, so the same requests in
        the same order give the same replies (play copies cached heads between slots)."""
        self.isolated, self._clear_pending = on, on

    def stats(self) -> dict:
        return {"busy_s": self._busy_s, "tokens": self._made, "slots": self.n_slots,
                "prompt_tokens": self._prompt_tokens, "reused_tokens": self._reused_tokens}

    def close(self) -> None:
        if self._thread.is_alive():
            self._inbox.put(None)
            self._thread.join()
        for slot in self._slots:
            self._free_samplers(slot)
        if self.ctx:
            self._lc.llama_batch_free(self._batch)
            self._lc.llama_free(self.ctx)
            self.ctx = None

    # ------------------------------------------------------------ the loop
    def _loop(self) -> None:
        while True:
            busy = any(s.job for s in self._slots)
            if not self._take_inbox(block=not busy and not self._waiting):
                return
            self._admit()
            if not any(s.job for s in self._slots):
                continue
            try:
                with COMPUTE:
                    began = time.perf_counter()
                    self._step()
                    self._busy_s += time.perf_counter() - began
            except Exception as e:  # noqa: BLE001 — fail the requests in flight, keep the engine alive
                self._fail_all(e)

    def _take_inbox(self, block: bool) -> bool:
        """Move new requests into the waiting list; False when the engine is closing."""
        try:
            job = self._inbox.get(block=block)
        except queue.Empty:
            return True
        while True:
            if job is None:
                self._fail_waiting(GarpError("the model was closed"))
                return False
            self._waiting.append(job)
            try:
                job = self._inbox.get_nowait()
            except queue.Empty:
                return True

    def _admit(self) -> None:
        """Give waiting requests the free slots, each the one whose cache shares most of its prompt."""
        if self._clear_pending and not any(s.job for s in self._slots):
            self._lc.llama_memory_clear(self._mem, True)
            for slot in self._slots:
                slot.cached = []
            self._clear_pending = False
        while self._waiting:
            free = [s for s in self._slots if s.job is None]
            if not free:
                return
            job = self._waiting.pop(0)
            if not job.future.set_running_or_notify_cancel():
                continue
            slot = max(free, key=lambda s: s.common_prefix(job.prompt))
            self._start(slot, job)

    def _start(self, slot: _Slot, job: Generation) -> None:
        keep = self._reuse_prefix(slot, job.prompt)
        self._prompt_tokens, self._reused_tokens = self._prompt_tokens + len(job.prompt), self._reused_tokens + keep
        slot.pending = job.prompt[keep:]
        slot.job, slot.out = job, []
        self._free_samplers(slot)
        if job.grammar is not None:
            slot.grammar = self._lc.llama_sampler_init_grammar(self._vocab, job.grammar[0].encode(),
                                                               job.grammar[1].encode())
        if job.temperature > 0:
            slot.sampler = self._chain(job.temperature, job.seed)

    def _reuse_prefix(self, slot: _Slot, prompt: list[int]) -> int:
        """Keep the slot's cached prefix of `prompt`, or take a longer one another slot holds (its
        stream is copied whole, then cut). The last prompt token is always decoded again: its
        logits start the reply. Isolated, a slot keeps to its own cache."""
        limit = len(prompt) - 1
        keep = min(slot.common_prefix(prompt), limit)
        donor = slot if self.isolated else max(self._slots, key=lambda s: s.common_prefix(prompt))
        shared = min(donor.common_prefix(prompt), limit)
        if donor is not slot and shared > keep:
            self._lc.llama_memory_seq_cp(self._mem, donor.seq_id, slot.seq_id, -1, -1)  # copied on the next decode
            keep = shared
        self._lc.llama_memory_seq_rm(self._mem, slot.seq_id, keep, -1)
        slot.cached = prompt[:keep]
        return keep

    def _chain(self, temperature: float, seed: int):
        lc = self._lc
        chain = lc.llama_sampler_chain_init(lc.llama_sampler_chain_default_params())
        for s in (lc.llama_sampler_init_top_k(TOP_K), lc.llama_sampler_init_top_p(TOP_P, 1),
                  lc.llama_sampler_init_min_p(MIN_P, 1), lc.llama_sampler_init_temp(temperature),
                  lc.llama_sampler_init_dist(seed & 0xFFFFFFFF)):
            lc.llama_sampler_chain_add(chain, s)
        return chain

    # ------------------------------------------------------------ one step
    def _step(self) -> None:
        self._fill_batch()
        rc = self._lc.llama_decode(self.ctx, self._batch)
        if rc != 0:
            self._out_of_room(rc)
            return
        logits = np.ctypeslib.as_array(self._fast["llama_get_logits"](self.ctx),
                                       shape=(self._outputs, self._n_vocab))
        for slot in self._slots:
            if slot.logit_row >= 0:  # set by _fill_batch for slots with a job only
                self._advance(slot, logits[slot.logit_row])

    def _fill_batch(self) -> None:
        """One token per generating slot, then prompt chunks up to the step's budget."""
        b, n = self._batch, 0
        budget, self._outputs = PROMPT_CHUNK_TOKENS, 0
        for slot in self._slots:
            slot.logit_row, slot.step_base = -1, len(slot.cached)
            if slot.job is None:
                continue
            if not slot.pending:  # generating: feed the last sampled token
                n = self._add(b, n, slot, [slot.out[-1]], logits_last=True)
            elif budget > 0:
                chunk = slot.pending[:budget]
                budget -= len(chunk)
                n = self._add(b, n, slot, chunk, logits_last=len(chunk) == len(slot.pending))
        b.n_tokens = n

    def _add(self, b, n: int, slot: _Slot, tokens: list[int], logits_last: bool) -> int:
        pos = len(slot.cached)
        for i, tok in enumerate(tokens):
            b.token[n + i], b.pos[n + i] = tok, pos + i
            b.n_seq_id[n + i], b.seq_id[n + i][0] = 1, slot.seq_id
            b.logits[n + i] = False
        if logits_last:
            b.logits[n + len(tokens) - 1] = True
            slot.logit_row = self._outputs  # llama_get_logits holds one row per output, in batch order
            self._outputs += 1
        slot.cached = slot.cached + tokens
        if slot.pending:
            slot.pending = slot.pending[len(tokens):]
        return n + len(tokens)

    def _advance(self, slot: _Slot, logits: np.ndarray) -> None:
        tok = self._sample(slot, logits)
        job = slot.job
        done = tok in self._eog
        if not done:
            slot.out.append(tok)
            self._made += 1
            done = len(slot.out) >= job.max_tokens
        if done:
            text = self._llm.detokenize(slot.out).decode("utf-8", errors="ignore")
            self._finish(slot, GenResult(text, len(job.prompt), len(slot.out)))

    def _finish(self, slot: _Slot, result: GenResult | Exception) -> None:
        job, slot.job = slot.job, None
        self._free_samplers(slot)
        if isinstance(result, Exception):
            job.future.set_exception(result)
        else:
            job.future.set_result(result)

    # ------------------------------------------------------------ sampling
    def _sample(self, slot: _Slot, logits: np.ndarray) -> int:
        tok = self._pick(slot, logits)
        if slot.grammar is not None and not self._grammar_allows(slot.grammar, tok):
            tok = self._constrained(slot, logits)
        if slot.grammar is not None:
            self._fast["llama_sampler_accept"](slot.grammar, tok)
        return int(tok)

    def _constrained(self, slot: _Slot, logits: np.ndarray) -> int:
        """The pick among the tokens the grammar allows. Greedy first filters the top TOP_K
        logits only: if one of them is allowed, the best of them is the best allowed overall."""
        if slot.sampler is None:
            top = self._candidates(logits, np.argpartition(logits, -TOP_K)[-TOP_K:])
            self._apply(slot.grammar, top)
            if np.isfinite(top["logit"]).any():
                return int(top["id"][np.argmax(top["logit"])])
        cands = self._candidates(logits)
        self._apply(slot.grammar, cands)
        return self._choose(slot, cands)

    def _pick(self, slot: _Slot, logits: np.ndarray) -> int:
        """The unconstrained pick: argmax, or the sampler chain at temperature > 0."""
        return int(np.argmax(logits)) if slot.sampler is None else self._choose(slot, self._candidates(logits))

    def _choose(self, slot: _Slot, cands: np.ndarray) -> int:
        if slot.sampler is None:
            return int(cands["id"][np.argmax(cands["logit"])])
        arr = self._apply(slot.sampler, cands)
        return int(cands["id"][arr.selected])

    def _candidates(self, logits: np.ndarray, ids: np.ndarray | None = None) -> np.ndarray:
        """A llama_token_data array of `ids` (every token when None) with their logits."""
        cands = np.zeros(self._n_vocab if ids is None else len(ids), dtype=_TOKEN_DATA)
        cands["id"] = np.arange(self._n_vocab, dtype=np.int32) if ids is None else ids
        cands["logit"] = logits if ids is None else logits[ids]
        return cands

    def _apply(self, sampler, cands: np.ndarray):
        lc = self._lc
        arr = lc.llama_token_data_array(data=cands.ctypes.data_as(ctypes.POINTER(lc.llama_token_data)),
                                        size=len(cands), selected=-1, sorted=False)
        # a few candidates: microseconds, keep the GIL; the whole vocabulary: let the game's thread run
        apply = self._fast["llama_sampler_apply"] if len(cands) <= TOP_K else lc.llama_sampler_apply
        apply(sampler, ctypes.byref(arr))
        if arr.size != len(cands):  # the sampler kept a sorted/truncated view: copy it back as the candidates
            view = np.ctypeslib.as_array(ctypes.cast(arr.data, ctypes.POINTER(ctypes.c_byte)),
                                         shape=(arr.size * _TOKEN_DATA.itemsize,)).view(_TOKEN_DATA)
            cands.resize(arr.size, refcheck=False)
            cands[:] = view
        return arr

    def _grammar_allows(self, grammar, tok: int) -> bool:
        one = np.zeros(1, dtype=_TOKEN_DATA)
        one["id"], one["logit"] = tok, 0.0
        self._apply(grammar, one)
        return bool(np.isfinite(one["logit"][0]))

    # ------------------------------------------------------------ faults
    def _out_of_room(self, rc: int) -> None:
        """llama_decode refused the step (a stream is full, rc 1, cannot happen for a request
        `submit` took): undo it and fail the longest request, so the others go on."""
        for slot in self._slots:  # undo this step: its tokens are not (reliably) in the cache
            if slot.job is not None:
                self._rollback(slot)
        longest = max((s for s in self._slots if s.job), key=lambda s: len(s.cached) + len(s.pending))
        self._lc.llama_memory_seq_rm(self._mem, longest.seq_id, -1, -1)
        longest.cached = []
        self._finish(longest, GarpError(f"llama_decode returned {rc} for a request of "
                                        f"{len(longest.job.prompt)} prompt tokens (each slot holds {self.n_ctx})"))

    def _rollback(self, slot: _Slot) -> None:
        undo = slot.cached[slot.step_base:]
        self._lc.llama_memory_seq_rm(self._mem, slot.seq_id, slot.step_base, -1)
        slot.cached = slot.cached[:slot.step_base]
        if undo and (slot.pending or not slot.out):  # a prompt chunk goes back to be decoded again
            slot.pending = undo + slot.pending

    def _fail_all(self, error: Exception) -> None:
        for slot in self._slots:
            if slot.job is not None:
                self._lc.llama_memory_seq_rm(self._mem, slot.seq_id, -1, -1)
                slot.cached = []
                self._finish(slot, error)

    def _fail_waiting(self, error: Exception) -> None:
        for job in self._waiting:
            if job.future.set_running_or_notify_cancel():
                job.future.set_exception(error)
        self._waiting.clear()
        self._fail_all(error)

    def _free_samplers(self, slot: _Slot) -> None:
        for name in ("sampler", "grammar"):
            smpl = getattr(slot, name)
            if smpl is not None:
                self._lc.llama_sampler_free(smpl)
                setattr(slot, name, None)
