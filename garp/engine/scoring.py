"""Option scoring in one batch: every option decoded at once on top of one shared prompt.

Rank mode (issue 18) and score-mode choices ask the model how likely each of a few short
texts is as the reply to one prompt. The prompt is decoded once on sequence 0 (keeping the
longest head it shares with the previous prompt); each option then gets a sequence of its
own whose cells start as a copy of the prompt's (a copy only tags the cells), and all the
options are decoded together in one `llama_decode`, so the model's weights are read once
for all of them instead of once per option.
"""

from __future__ import annotations

import numpy as np

from garp.engine.batch_engine import common_prefix
from garp.errors import GarpError

# Tunables
MAX_OPTIONS = 16          # options scored in one pass (sequences 1..MAX_OPTIONS)
BATCH_TOKENS = 512        # tokens one decode carries (prompt chunks, or all options together)
OPTION_ROOM_TOKENS = 1024  # context kept beyond the prompt for the options' cells


class OptionScorer:
    """Owns a llama.cpp context with MAX_OPTIONS + 1 sequences in a unified KV cache. Not thread-safe:
    the backend calls it under its own lock."""

    def __init__(self, llm, n_ctx: int, n_threads: int):
        import llama_cpp

        self._lc, self._llm = llama_cpp, llm
        self.n_ctx = n_ctx + OPTION_ROOM_TOKENS
        params = llama_cpp.llama_context_default_params()
        params.n_ctx, params.n_batch, params.n_ubatch = self.n_ctx, BATCH_TOKENS, BATCH_TOKENS
        params.n_seq_max, params.kv_unified = MAX_OPTIONS + 1, True
        params.n_threads = params.n_threads_batch = n_threads
        self.ctx = llama_cpp.llama_init_from_model(llm._model.model, params)
        if not self.ctx:
            raise GarpError(f"llama.cpp could not create the scoring context ({self.n_ctx} tokens)")
        self._mem = llama_cpp.llama_get_memory(self.ctx)
        self._batch = llama_cpp.llama_batch_init(BATCH_TOKENS, 0, 1)
        self._n_vocab = llm.n_vocab()
        self.cached: list[int] = []  # the prompt head held on sequence 0
        self.prompt_tokens = self.reused_tokens = 0

    def score(self, prompt: list[int], options: list[list[int]]) -> list[float]:
        """Mean log-likelihood per token of each option's tokens as the continuation of `prompt`."""
        if not options:
            return []
        if len(options) > MAX_OPTIONS:
            return [s for k in range(0, len(options), MAX_OPTIONS)
                    for s in self.score(prompt, options[k:k + MAX_OPTIONS])]
        head, last = prompt[:-1], prompt[-1]
        if len(head) + sum(len(o) + 1 for o in options) > self.n_ctx:
            raise GarpError(f"score_options: {len(head)} prompt tokens and {len(options)} options do not fit "
                            f"the scoring context of {self.n_ctx}")
        self._hold_prompt(head)
        rows = [[last] + opt for opt in options]
        scores: list[float] = [0.0] * len(options)
        for group in self._groups(rows):
            self._decode_options(group, rows, options, len(head), scores)
        for k in range(1, len(options) + 1):
            self._lc.llama_memory_seq_rm(self._mem, k, -1, -1)
        return scores

    def _hold_prompt(self, head: list[int]) -> None:
        """Sequence 0 holds `head`, reusing what it shares with the previous prompt."""
        keep = common_prefix(self.cached, head)
        self.prompt_tokens, self.reused_tokens = self.prompt_tokens + len(head), self.reused_tokens + keep
        self._lc.llama_memory_seq_rm(self._mem, 0, keep, -1)
        self.cached = head[:keep]
        for k in range(keep, len(head), BATCH_TOKENS):
            chunk = head[k:k + BATCH_TOKENS]
            self._fill([(0, k, chunk, False)])
            self._decode()
            self.cached = self.cached + chunk

    def _groups(self, rows: list[list[int]]) -> list[list[int]]:
        """Option indexes in groups whose tokens fit one decode."""
        groups, current, size = [], [], 0
        for i, row in enumerate(rows):
            if current and size + len(row) > BATCH_TOKENS:
                groups.append(current)
                current, size = [], 0
            current.append(i)
            size += len(row)
        return groups + [current]

    def _decode_options(self, group: list[int], rows: list[list[int]], options: list[list[int]], base: int,
                        scores: list[float]) -> None:
        for i in group:
            self._lc.llama_memory_seq_rm(self._mem, i + 1, -1, -1)
            self._lc.llama_memory_seq_cp(self._mem, 0, i + 1, 0, base)
        self._fill([(i + 1, base, rows[i], True) for i in group])
        self._decode()
        n_out = sum(len(rows[i]) for i in group)
        logits = np.ctypeslib.as_array(self._lc.llama_get_logits(self.ctx), shape=(n_out, self._n_vocab))
        at = 0
        for i in group:
            block = logits[at:at + len(options[i])].astype(np.float64)  # row j predicts option token j
            at += len(rows[i])
            m = block.max(axis=1, keepdims=True)
            logz = (m + np.log(np.exp(block - m).sum(axis=1, keepdims=True)))[:, 0]
            scores[i] = float((block[np.arange(len(options[i])), options[i]] - logz).mean())

    def _fill(self, parts: list[tuple[int, int, list[int], bool]]) -> None:
        """(sequence, first position, tokens, logits for every token) into the batch."""
        b, n = self._batch, 0
        for seq, pos, tokens, logits in parts:
            for j, tok in enumerate(tokens):
                b.token[n], b.pos[n], b.n_seq_id[n], b.logits[n] = tok, pos + j, 1, logits
                b.seq_id[n][0] = seq
                n += 1
        b.n_tokens = n

    def _decode(self) -> None:
        rc = self._lc.llama_decode(self.ctx, self._batch)
        if rc != 0:
            self._lc.llama_memory_clear(self._mem, True)
            self.cached = []
            raise GarpError(f"llama_decode returned {rc} while scoring options")

    def close(self) -> None:
        if self.ctx:
            self._lc.llama_batch_free(self._batch)
            self._lc.llama_free(self.ctx)
            self.ctx = None
