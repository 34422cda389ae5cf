"""Language-model backends behind one interface (paper Sec. III: embedded and proxy engines).

`LlamaCppBackend` runs a GGUF in-process; it is not thread-safe, so exactly one thread
(the scheduler's inference thread) may call it. `OpenAIHTTPBackend` talks to any
OpenAI-compatible server and may have several requests in flight.
"""

from __future__ import annotations

import functools
import json
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from garp.engine import native_probe
from garp.engine.models import ModelProfile, ModelSpec, resolve_model
from garp.errors import GarpError

# Tunables
HTTP_TIMEOUT_S = 120.0     # one request, seconds (a 3B model on CPU can take 10-15 s per call, Sec. IV)
HTTP_RETRIES = 3           # attempts after the first failure
HTTP_BACKOFF_S = 0.5       # first retry delay, doubled each time
HTTP_MAX_IN_FLIGHT = 4     # concurrent requests to one server (Sec. IV-E: several agents in flight)


@dataclass
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int


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

def _exclusive(method):
    """Serialise calls on one llama.cpp context: a `Llama` is not thread-safe, and two
    simulations (or a test and a simulation) sharing one backend must never decode at once."""

    @functools.wraps(method)
    def locked(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


class LlamaCppBackend:
    """In-process llama.cpp. Grammar-constrained generation and option scoring by log-likelihood."""

    def __init__(self, spec: ModelSpec, n_threads: int | None = None, n_gpu_layers: int = 0, seed: int = 0):
        import llama_cpp
        from llama_cpp import llama_chat_format

        self.spec, self.profile, self.seed = spec, spec.profile, seed
        self._lock = threading.RLock()
        threads = n_threads or spec.profile.n_threads or os.cpu_count() or 1
        native_probe.ensure_runs(spec.path, threads)  # a build this CPU cannot run fails here, with the fix
        try:
            self.llm = llama_cpp.Llama(model_path=str(spec.path), n_ctx=spec.profile.n_ctx, n_threads=threads,
                                       n_threads_batch=threads, n_gpu_layers=n_gpu_layers, seed=seed,
                                       chat_format=spec.profile.chat_format, verbose=False)
        except (ValueError, RuntimeError) as e:
            raise GarpError(f"model {spec.name!r} ({spec.path}): llama.cpp cannot load it ({e}); the file may be "
                            "corrupt or need a newer llama-cpp-python — re-download it with `garp models pull`") from None
        self._formatter = self._make_formatter(llama_chat_format)
        # Generation and scoring share one formatter so both see the same prompt text.
        self.llm.chat_handler = llama_chat_format.chat_formatter_to_chat_completion_handler(self._formatter)
        self._grammars: dict[str, Any] = {}
        self._eot = self._end_of_turn_tokens()

    @property
    def model_id(self) -> str:
        return self.spec.sha256

    def _make_formatter(self, llama_chat_format):
        fmt = self.profile.chat_format
        formatters = _named_formatters(llama_chat_format)
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
        g = self._grammars.get(key)
        if g is None:
            g = self._grammars[key] = compile_grammar(schema, self.llm)
        return g

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode(), add_bos=False, special=False))

    def prompt_text(self, messages: list[dict]) -> str:
        return self._formatter(messages=messages).prompt

    @_exclusive
    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion:
        grammar = self.grammar(schema) if schema is not None else None
        out = self.llm.create_chat_completion(messages=messages, grammar=grammar, temperature=temperature,
                                              max_tokens=max_tokens, seed=seed, top_k=40, top_p=0.95,
                                              min_p=0.05, repeat_penalty=1.0)
        usage = out.get("usage") or {}
        return Completion(out["choices"][0]["message"].get("content") or "",
                          int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))

    # -- scoring
    @_exclusive
    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        """Mean per-token log-likelihood of each option as the assistant's reply (after `prefix`).

        The shared prompt is decoded once (llama.cpp reuses the longest cached prefix);
        each option is then decoded on top of it in one batch with logits for every
        option position only — cheaper than `logits_all`, which computes logits for the
        whole prompt as well.
        """
        import numpy as np

        llm = self.llm
        prompt = llm.tokenize((self.prompt_text(messages) + prefix).encode(), add_bos=True, special=True)
        if len(prompt) + 64 > llm.n_ctx():
            raise GarpError(f"score_options: prompt of {len(prompt)} tokens does not fit the context of {llm.n_ctx()}")
        head, last = prompt[:-1], prompt[-1]
        keep = _common_prefix(llm.input_ids[: llm.n_tokens].tolist(), head)
        llm.n_tokens = keep
        if keep < len(head):
            llm.eval(head[keep:])
        base = len(head)
        scores = []
        sep = " " if prefix and not prefix.endswith((" ", "\n")) else ""
        for text in options:
            opt = llm.tokenize((sep + text).encode(), add_bos=False, special=False) + self._eot
            batch = [last] + opt
            llm._ctx.kv_cache_seq_rm(-1, base, -1)
            llm._batch.set_batch(batch=batch, n_past=base, logits_all=True)
            llm._ctx.decode(llm._batch)
            logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(len(batch), llm.n_vocab()))
            rows = logits[:-1].astype(np.float64)
            m = rows.max(axis=1, keepdims=True)
            logz = (m + np.log(np.exp(rows - m).sum(axis=1, keepdims=True)))[:, 0]
            lp = rows[np.arange(len(opt)), opt] - logz
            scores.append(float(lp.mean()))
        llm._ctx.kv_cache_seq_rm(-1, base, -1)
        llm.n_tokens = base  # input_ids[:base] is still the prompt head: the next call reuses it
        llm._requires_eval = True
        return scores

    def close(self) -> None:
        llm, self.llm = getattr(self, "llm", None), None
        if llm is not None:
            llm.close()


def _named_formatters(llama_chat_format) -> dict:
    f = llama_chat_format
    return {"chatml": f.format_chatml, "llama-3": f.format_llama3, "llama-2": f.format_llama2,
            "mistral-instruct": f.format_mistral_instruct, "gemma": f.format_gemma, "qwen": f.format_qwen,
            "zephyr": f.format_zephyr}


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


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

class OpenAIHTTPBackend:
    """Any OpenAI-compatible server (llama.cpp server, Ollama, vLLM, LM Studio). Thread-safe."""

    def __init__(self, base_url: str, model: str = "default", timeout_s: float = HTTP_TIMEOUT_S,
                 retries: int = HTTP_RETRIES, backoff: float = HTTP_BACKOFF_S,
                 max_in_flight: int = HTTP_MAX_IN_FLIGHT, profile: ModelProfile | None = None):
        import httpx

        if not base_url.startswith(("http://", "https://")):
            raise GarpError(f"--server {base_url!r}: not an http(s) URL; e.g. http://127.0.0.1:8080/v1")
        self.base_url = base_url.rstrip("/")
        if not self.base_url.endswith("/v1"):
            self.base_url += "/v1"
        self.model, self.retries, self.backoff = model, retries, backoff
        self.max_in_flight = max_in_flight
        self.profile = profile or ModelProfile()
        self.model_id = f"server:{self.base_url}:{model}"
        self._client = httpx.Client(timeout=timeout_s, limits=httpx.Limits(max_connections=max_in_flight))
        self._slots = threading.BoundedSemaphore(max_in_flight)
        self._echo_ok: bool | None = None

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1  # the server's tokenizer is remote: ~4 characters per token

    def _post(self, path: str, body: dict) -> dict:
        import httpx

        url = self.base_url + path
        delay, last_err = self.backoff, ""
        for attempt in range(self.retries + 1):
            try:
                with self._slots:
                    r = self._client.post(url, json=body)
                if r.status_code < 500 and r.status_code != 429:
                    if r.status_code >= 400:
                        raise GarpError(f"server {self.base_url} rejected {path} ({r.status_code}): {r.text[:300]}")
                    return r.json()
                last_err = f"HTTP {r.status_code}: {r.text[:200]}"
            except (httpx.TransportError, json.JSONDecodeError) as e:
                last_err = f"{type(e).__name__}: {e}"
            if attempt < self.retries:
                time.sleep(delay)
                delay *= 2
        raise GarpError(f"cannot reach server at {self.base_url}: {last_err} (after {self.retries + 1} attempts); "
                        "start it with `python -m llama_cpp.server --model PATH --host 127.0.0.1 --port PORT` "
                        "or fix --server")

    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature,
                                "max_tokens": max_tokens, "seed": seed}
        if schema is not None:
            body["response_format"] = {"type": "json_object", "schema": schema}
        out = self._post("/chat/completions", body)
        try:
            text = out["choices"][0]["message"].get("content") or ""
        except (KeyError, IndexError, TypeError):
            raise GarpError(f"server {self.base_url}: reply is not an OpenAI chat completion: {str(out)[:200]}") from None
        usage = out.get("usage") or {}
        return Completion(text, int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))

    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        """Needs /v1/completions with echo + logprobs (llama.cpp's server); else a clear GarpError."""
        from llama_cpp import llama_chat_format

        formatter = _named_formatters(llama_chat_format).get(self.profile.chat_format or "chatml")
        if formatter is None:
            raise GarpError(f"server {self.base_url}: cannot build a {self.profile.chat_format!r} prompt for "
                            "scoring; use choice mode 'generate'")
        prompt = formatter(messages=messages).prompt + prefix
        sep = " " if prefix and not prefix.endswith((" ", "\n")) else ""
        scores = []
        for text in options:
            text = sep + text
            body = {"model": self.model, "prompt": prompt + text, "max_tokens": 1, "echo": True,
                    "logprobs": 1, "temperature": 0.0}
            try:
                lp = self._post("/completions", body)["choices"][0]["logprobs"]
                tokens, offsets, values = lp["tokens"], lp["text_offset"], lp["token_logprobs"]
            except (GarpError, KeyError, IndexError, TypeError) as e:
                raise GarpError(f"server {self.base_url} cannot score options (needs /v1/completions with echo "
                                f"and logprobs: {e}); use choice mode 'generate'") from None
            # Offsets index the echoed text in which special tokens render empty, so locate the
            # option from the end: it sits just before the one generated token.
            end = len("".join(tokens)) - len(tokens[-1])
            picked = [v for o, v in zip(offsets[:-1], values[:-1]) if end - len(text) <= o < end and v is not None]
            scores.append(sum(picked) / len(picked) if picked else -math.inf)
        return scores

    def close(self) -> None:
        self._client.close()


def make_backend(model: str | None = None, server: str | None = None, threads: int | None = None,
                 gpu_layers: int | None = None, seed: int | None = None) -> Backend:
    """Build the backend the CLI options ask for: --server wins, else the embedded model."""
    if server:
        spec_profile = None
        try:
            spec_profile = resolve_model(model).profile if model else None
        except GarpError:
            spec_profile = None  # a server-side model name need not be registered here
        return OpenAIHTTPBackend(server, model=model or "default", profile=spec_profile)
    return LlamaCppBackend(resolve_model(model), n_threads=threads, n_gpu_layers=gpu_layers or 0, seed=seed or 0)
