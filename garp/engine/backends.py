"""Language-model backends behind one interface (paper Sec. III: embedded and proxy engines).

`LlamaCppBackend` runs a GGUF in-process. Generation goes through a BatchEngine: the
scheduler's workers call `complete` concurrently and their requests decode together in one
batch (garp/engine/batch_engine.py); option scoring runs between two batch steps. `ServerPool` (garp/engine/servers.py)
talks to one or more OpenAI-compatible servers and has several requests in flight.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Protocol, runtime_checkable

from garp.engine import native_probe
from garp.engine.batch_engine import BatchEngine, Generation
from garp.engine.scoring import OptionScorer
from garp.engine.models import ModelProfile, ModelSpec, named_formatters, resolve_model
from garp.engine.servers import (HTTP_MAX_IN_FLIGHT, HTTP_RETRIES, HTTP_TIMEOUT_S, Completion, EndpointConfig,
                                 ServerPool, endpoint_configs)
from garp.engine.threads import COMPUTE, TurnLock, thread_budget
from garp.errors import GarpError


@runtime_checkable
class Backend(Protocol):
    model_id: str
    profile: ModelProfile

    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion: ...

    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]: ...

    def close(self) -> None: ...


def schema_title(schema: dict) -> str:
    return str(schema.get("title") or "untitled schema")


# ---------------------------------------------------------------- embedded llama.cpp

class LlamaCppBackend:
    """In-process llama.cpp. Grammar-constrained generation and option scoring by log-likelihood."""

    def __init__(self, spec: ModelSpec, n_threads: int | None = None, n_gpu_layers: int = 0, seed: int = 0):
        import llama_cpp
        from llama_cpp import llama_chat_format

        self.spec, self.profile, self.seed = spec, spec.profile, seed
        self._lock = threading.RLock()
        self._score_turn = TurnLock()  # one scoring pass waits for the cores at a time; an interview's first
        threads = n_threads or spec.profile.n_threads or thread_budget().llama
        native_probe.ensure_runs(spec.path, threads)  # a build this CPU cannot run fails here, with the fix
        try:
            self.llm = llama_cpp.Llama(model_path=str(spec.path), n_ctx=spec.profile.n_ctx, n_threads=threads,
                                       n_threads_batch=threads, n_gpu_layers=n_gpu_layers, seed=seed,
                                       chat_format=spec.profile.chat_format, verbose=False)
        except (ValueError, RuntimeError) as e:
            raise GarpError(f"model {spec.name!r} ({spec.path}): llama.cpp cannot load it ({e}); the file may be "
                            "corrupt or need a newer llama-cpp-python — re-download it with `garp models pull`") from None
        self._formatter = self._make_formatter(llama_chat_format)
        self._grammars: dict[str, Any] = {}
        self._eot = self._end_of_turn_tokens()
        self.n_threads, self.score_s = threads, 0.0
        self.score_tokens = (0, 0)  # prompt tokens scored, of which reused from the previous scoring
        self.max_in_flight = spec.profile.parallel  # the scheduler runs this many requests at once
        # one slot more than the scheduler's workers: its express worker's interview never waits for one
        self.engine = BatchEngine(self.llm, spec.profile.parallel + 1, spec.profile.slot_ctx, threads)
        self.scorer = OptionScorer(self.llm, spec.profile.n_ctx, threads)

    @property
    def model_id(self) -> str:
        return self.spec.sha256

    @property
    def context_tokens(self) -> int:
        """Tokens one generation's prompt and reply may take: a batch slot, within the profile's window."""
        return min(self.profile.n_ctx, self.engine.n_ctx)

    def _make_formatter(self, llama_chat_format):
        fmt = self.profile.chat_format
        formatters = named_formatters(llama_chat_format)
        if fmt in formatters:
            return formatters[fmt]
        template = self.llm.metadata.get("tokenizer.chat_template")
        if fmt is None and template:
            eos = self.llm._model.token_get_text(self.llm.token_eos())
            bos = self.llm._model.token_get_text(self.llm.token_bos())
            return llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos,
                                                         stop_token_ids=[self.llm.token_eos()])
        allowed = ", ".join(sorted(formatters))
        raise GarpError(f"model {self.spec.name!r}: chat_format {fmt!r} is not supported here and the file has no "
                        f"chat template; use one of: {allowed}")

    def _end_of_turn_tokens(self) -> list[int]:
        """Tokens that close an assistant turn; scored after each option so a prefix of a longer option loses."""
        stop = self._formatter(messages=[{"role": "user", "content": "x"}]).stop
        stop = stop[0] if isinstance(stop, list) and stop else stop
        if isinstance(stop, str) and stop:
            return self.llm.tokenize(stop.encode(), add_bos=False, special=True)
        return [self.llm.token_eos()]

    # -- grammar
    def grammar(self, schema: dict):
        key = json.dumps(schema, sort_keys=True)
        with self._lock:  # several scheduler workers ask at once
            g = self._grammars.get(key)
            if g is None:
                g = self._grammars[key] = compile_grammar(schema, self.llm)
        return g

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode(), add_bos=False, special=False))

    def prompt_text(self, messages: list[dict]) -> str:
        return self._formatter(messages=messages).prompt

    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion:
        """Generate one reply; callers on several threads are decoded together (BatchEngine)."""
        grammar = self.grammar(schema) if schema is not None else None
        prompt = self.llm.tokenize(self.prompt_text(messages).encode(), add_bos=True, special=True)
        job = Generation(prompt, max_tokens, temperature, seed,
                         (grammar._grammar, grammar._root) if grammar is not None else None)
        out = self.engine.submit(job).result()
        return Completion(out.text, out.prompt_tokens, out.completion_tokens)

    # -- scoring
    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        # the model's own context, between two batch steps: the cores do one thing at a time. One
        # scorer waits for them at a time, so batch steps (an interview's among them) alternate with
        # scoring passes instead of queueing behind every worker's.
        with self._score_turn, COMPUTE:
            began = time.perf_counter()
            try:
                return self._score_options(messages, options, prefix)
            finally:
                self.score_s += time.perf_counter() - began

    def compute_stats(self) -> dict:
        """Where the model's time went: batch steps (and the tokens they made), option scoring."""
        return {**self.engine.stats(), "score_s": self.score_s, "score_prompt_tokens": self.score_tokens[0],
                "score_reused_tokens": self.score_tokens[1]}

    def _score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        """Mean per-token log-likelihood of each option as the assistant's reply (after `prefix`),
        the options decoded together on top of the shared prompt (garp/engine/scoring.py). Each
        option ends with the end-of-turn tokens, so a prefix of a longer option loses."""
        llm = self.llm
        prompt = llm.tokenize((self.prompt_text(messages) + prefix).encode(), add_bos=True, special=True)
        sep = " " if prefix and not prefix.endswith((" ", "\n")) else ""
        opts = [llm.tokenize((sep + text).encode(), add_bos=False, special=False) + self._eot for text in options]
        scores = self.scorer.score(prompt, opts)
        self.score_tokens = (self.scorer.prompt_tokens, self.scorer.reused_tokens)
        return scores

    def close(self) -> None:
        engine, self.engine = getattr(self, "engine", None), None
        if engine is not None:
            engine.close()
        scorer, self.scorer = getattr(self, "scorer", None), None
        if scorer is not None:
            scorer.close()
        llm, self.llm = getattr(self, "llm", None), None
        if llm is not None:
            llm.close()


def compile_grammar(schema: dict, llm=None):
    """JSON schema -> LlamaGrammar, raising GarpError when llama.cpp cannot compile it."""
    import llama_cpp
    from llama_cpp.llama_grammar import LlamaGrammar

    title = schema_title(schema)
    try:
        grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    except Exception as e:  # the converter raises AssertionError/KeyError/ValueError on unsupported schemas
        raise GarpError(f"output schema {title!r}: the grammar compiler rejects it ({e}); use types, enums, "
                        "maxLength/maxItems and anchored patterns only") from None
    if llm is not None:  # parse it now, not inside the first sampling call
        sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, grammar._grammar.encode(), b"root")
        if not sampler:
            raise GarpError(f"output schema {title!r}: llama.cpp cannot parse the generated grammar")
        llama_cpp.llama_sampler_free(sampler)
    return grammar


# ---------------------------------------------------------------- OpenAI-compatible HTTP

def OpenAIHTTPBackend(base_url: str, model: str = "default", *, timeout_s: float = HTTP_TIMEOUT_S,
                      retries: int = HTTP_RETRIES, max_in_flight: int = HTTP_MAX_IN_FLIGHT,
                      profile: ModelProfile | None = None, api_key: str | None = None, **pool_kw: Any) -> ServerPool:
    """One OpenAI-compatible server (llama.cpp server, Ollama, vLLM, LM Studio): a pool of one."""
    if not base_url.startswith(("http://", "https://")):
        raise GarpError(f"--server {base_url!r}: not an http(s) URL; e.g. http://127.0.0.1:8080/v1")
    cfg = EndpointConfig(url=base_url, model=model, max_in_flight=max_in_flight)
    return ServerPool([cfg], api_key=api_key, profile=profile, timeout_s=timeout_s, retries=retries, **pool_kw)


def make_backend(model: str | None = None, server: str | list[str] | None = None, threads: int | None = None,
                 gpu_layers: int | None = None, seed: int | None = None, api_key: str | None = None) -> Backend:
    """Build the backend the CLI options ask for: --server (one or more) wins, else the embedded model."""
    if server:
        profile = None
        try:
            profile = resolve_model(model).profile if model else None
        except GarpError:
            profile = None  # a server-side model name need not be registered here
        servers = [server] if isinstance(server, str) else list(server)
        return ServerPool(endpoint_configs(servers, model), api_key=api_key, profile=profile)
    return LlamaCppBackend(resolve_model(model), n_threads=threads, n_gpu_layers=gpu_layers or 0, seed=seed or 0)


def backend_from_args(args: Any, seed: int | None = None) -> Backend:
    """make_backend from parsed command-line options (play, run, check, interview)."""
    def opt(name: str) -> Any:
        return getattr(args, name, None)

    return make_backend(opt("model"), opt("server"), opt("threads"), opt("gpu_layers"),
                        opt("seed") if seed is None else seed, api_key=opt("api_key"))
