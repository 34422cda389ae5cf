"""OpenAI-compatible inference servers: one `Endpoint` per server, a `ServerPool` over them (issue 22).

The pool is a `Backend`. Each model call takes a `Lease` on the least-loaded healthy endpoint
(in-flight / weight) and keeps it for the whole call, so a choice that cannot be scored on
its endpoint is generated on that same endpoint. An endpoint that fails (transport error,
5xx, 429) is taken out at once and the request moves to another endpoint; a prober thread
brings it back with exponential backoff. No request sleeps: when no endpoint is up, calls
fail at once (their fallbacks answer), so one dead server never holds other agents' workers.

Structured output: the OpenAI `json_schema` response format first; a one-time probe per
endpoint falls back to llama.cpp's `json_object` + schema form when only that is enforced.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from garp.engine.models import ModelProfile, named_formatters
from garp.errors import GarpError, describe_validation_error

# Tunables
HTTP_TIMEOUT_S = 120.0      # one request, seconds (a 3B model on CPU can take 10-15 s per call, Sec. IV)
HTTP_RETRIES = 3            # other endpoints tried after a failed attempt, per request
HTTP_MAX_IN_FLIGHT = 4      # concurrent requests to one server (Sec. IV-E: several agents in flight)
PROBE_TIMEOUT_S = 5.0       # health probe (GET /models), seconds
PROBE_BACKOFF_S = 0.5       # first re-probe of a failed endpoint, doubled after each failed probe
PROBE_BACKOFF_MAX_S = 15.0  # longest wait between probes of one endpoint
API_KEY_ENVS = ("GARP_API_KEY", "OPENAI_API_KEY")
FORMS = ("json_schema", "json_object")  # OpenAI standard first, llama.cpp's form as the fallback

# The capability probe: a value no model writes unless the schema is enforced.
PROBE_VALUE = "garp-probe-7f3a"
PROBE_SCHEMA = {"title": "probe", "type": "object", "additionalProperties": False,
                "properties": {"probe": {"type": "string", "enum": [PROBE_VALUE]}}, "required": ["probe"]}
PROBE_MESSAGES = [{"role": "user", "content": "Reply with a JSON object."}]


class ServerUnreachable(GarpError):
    """No answer from a server (transport error, 5xx, 429) or no endpoint up."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status  # the HTTP status when the server did answer


class ScoreUnsupported(GarpError):
    """The endpoint cannot return prompt logprobs (/v1/completions with echo + logprobs)."""


@dataclass
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int


# ---------------------------------------------------------------- configuration

class EndpointConfig(BaseModel):
    """One server in a `--server` endpoints file (schemas/servers.schema.json)."""

    model_config = ConfigDict(extra="forbid")
    url: str = Field(pattern=r"^https?://", description="base URL, e.g. http://10.0.0.5:8000/v1")
    model: str = Field("default", min_length=1, description="model name the server expects")
    weight: float = Field(1.0, gt=0, description="share of requests relative to the others")
    max_in_flight: int = Field(HTTP_MAX_IN_FLIGHT, ge=1, le=1024, description="concurrent requests")
    api_key_env: str | None = Field(None, description="environment variable holding this server's API key")


class ServersFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoints: list[EndpointConfig] = Field(min_length=1)


def write_schema(out: Path | None = None) -> Path:
    from garp import paths
    from garp.datafile import write_json_schema
    return write_json_schema(ServersFile.model_json_schema(), out or paths.SCHEMAS / "servers.schema.json")


def load_servers_file(path: Path) -> list[EndpointConfig]:
    """A JSON or TOML file listing endpoints (`[[endpoints]]` with url, model, weight, ...)."""
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except OSError as e:
        raise GarpError(f"--server {path}: cannot read the endpoints file ({e.strerror or e})") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise GarpError(f"--server {path}: not valid {path.suffix[1:].upper()}: {e}") from None
    try:
        return ServersFile.model_validate(data).endpoints
    except ValidationError as e:
        raise GarpError(describe_validation_error(path, e)) from None


def endpoint_configs(servers: list[str], model: str | None) -> list[EndpointConfig]:
    """`--server` values: URLs, or .json/.toml files listing endpoints."""
    out: list[EndpointConfig] = []
    for item in servers:
        if item.endswith((".json", ".toml")):
            out.extend(load_servers_file(Path(item)))
        elif not item.startswith(("http://", "https://")):
            raise GarpError(f"--server {item!r}: not an http(s) URL nor a .json/.toml endpoints file; "
                            "e.g. http://127.0.0.1:8080/v1")
        else:
            out.append(EndpointConfig(url=item, model=model or "default"))
    return out


def api_key_for(cfg: EndpointConfig, default: str | None) -> str | None:
    if cfg.api_key_env is None:
        return default or next((os.environ[k] for k in API_KEY_ENVS if os.environ.get(k)), None)
    key = os.environ.get(cfg.api_key_env)
    if not key:
        raise GarpError(f"endpoint {cfg.url}: field 'api_key_env' names {cfg.api_key_env!r}, "
                        "which is not set in the environment")
    return key


def normalise_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


def response_format(form: str, schema: dict) -> dict:
    """The request's structured-output field in the endpoint's form."""
    if form == "json_object":  # llama.cpp server
        return {"type": "json_object", "schema": schema}
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "reply"))[:64]
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def chat_text(out: dict, url: str) -> Completion:
    """An OpenAI chat completion reply -> Completion; GarpError when it is not one."""
    try:
        text = out["choices"][0]["message"].get("content") or ""
    except (KeyError, IndexError, TypeError, AttributeError):
        raise GarpError(f"server {url}: reply is not an OpenAI chat completion: {str(out)[:200]}") from None
    usage = out.get("usage") or {}
    return Completion(text, int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))


# ---------------------------------------------------------------- one server

class Endpoint:
    """One OpenAI-compatible server. Thread-safe; its state and counters change under the pool's lock."""

    def __init__(self, cfg: EndpointConfig, api_key: str | None, timeout_s: float):
        import httpx

        self.url, self.model = normalise_url(cfg.url), cfg.model
        self.name = re.sub(r"^https?://", "", self.url).removesuffix("/v1")
        self.weight, self.limit = cfg.weight, cfg.max_in_flight
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout_s, headers=headers,
                                    limits=httpx.Limits(max_connections=cfg.max_in_flight + 1))
        self.form: str | None = None         # structured-output form, chosen by the probe
        self.enforced = False                # whether the probe saw the schema enforced
        self.can_score: bool | None = None   # None until the first scoring attempt
        self.up, self.down_since, self.error = True, 0.0, ""
        self.next_probe, self.backoff = 0.0, PROBE_BACKOFF_S
        self.in_flight = self.calls = self.failures = self.tokens = 0

    def post(self, path: str, body: dict) -> dict:
        """One attempt: ServerUnreachable for transport errors, 5xx and 429; GarpError for 4xx."""
        import httpx

        try:
            r = self._client.post(self.url + path, json=body)
            if r.status_code >= 500 or r.status_code == 429:
                raise ServerUnreachable(f"server {self.url}: HTTP {r.status_code}: {r.text[:200]}", r.status_code)
            if r.status_code >= 400:
                raise GarpError(f"server {self.url} rejected {path} ({r.status_code}): {r.text[:300]}")
            out = r.json()
        except httpx.TransportError as e:
            raise ServerUnreachable(f"cannot reach server at {self.url}: {type(e).__name__}: {e}") from None
        except json.JSONDecodeError as e:
            raise ServerUnreachable(f"server {self.url}: reply is not JSON ({e.msg})") from None
        return out

    def ping(self) -> None:
        import httpx

        try:
            r = self._client.get(self.url + "/models", timeout=PROBE_TIMEOUT_S)
        except httpx.TransportError as e:
            raise ServerUnreachable(f"cannot reach server at {self.url}: {type(e).__name__}: {e}") from None
        if r.status_code >= 400:
            raise ServerUnreachable(f"server {self.url}: GET /models answered HTTP {r.status_code}")

    def probe_form(self) -> None:
        """Once: the first form whose schema the server enforces; json_schema when neither is."""
        for form in FORMS:
            try:
                text = self._chat(PROBE_MESSAGES, PROBE_SCHEMA, form, max_tokens=24, temperature=0.0, seed=0).text
            except ServerUnreachable as e:
                if e.status is None or e.status == 429:
                    raise
                continue  # llama.cpp's server answers an unknown form with HTTP 500
            except GarpError:
                continue  # this form is refused (e.g. 400/422): try the next
            if _probe_ok(text):
                self.form, self.enforced = form, True
                return
        self.form, self.enforced = FORMS[0], False

    def _chat(self, messages: list[dict], schema: dict | None, form: str, **sampling: Any) -> Completion:
        body: dict[str, Any] = {"model": self.model, "messages": messages, **sampling}
        if schema is not None:
            body["response_format"] = response_format(form, schema)
        return chat_text(self.post("/chat/completions", body), self.url)

    def complete(self, messages: list[dict], *, schema: dict | None, temperature: float, max_tokens: int,
                 seed: int) -> Completion:
        return self._chat(messages, schema, self.form or FORMS[0], temperature=temperature, max_tokens=max_tokens,
                          seed=seed)

    def score_options(self, prompt: str, options: list[str], prefix: str) -> list[float]:
        """Mean log-likelihood of each option after `prompt + prefix`, from echoed prompt logprobs."""
        if self.can_score is False:
            raise ScoreUnsupported(f"server {self.url} cannot score options (no prompt logprobs)")
        sep = " " if prefix and not prefix.endswith((" ", "\n")) else ""
        scores = [self._score_one(prompt + prefix, sep + text) for text in options]
        self.can_score = True
        return scores

    def _score_one(self, head: str, text: str) -> float:
        body = {"model": self.model, "prompt": head + text, "max_tokens": 1, "echo": True, "logprobs": 1,
                "temperature": 0.0}
        try:
            lp = self.post("/completions", body)["choices"][0]["logprobs"]
            tokens, offsets, values = lp["tokens"], lp["text_offset"], lp["token_logprobs"]
        except ServerUnreachable:
            raise
        except (GarpError, KeyError, IndexError, TypeError) as e:
            self.can_score = False
            raise ScoreUnsupported(f"server {self.url} cannot score options (needs /v1/completions with echo "
                                   f"and logprobs: {e})") from None
        # Offsets index the echoed text in which special tokens render empty, so locate the
        # option from the end: it sits just before the one generated token.
        end = len("".join(tokens)) - len(tokens[-1])
        picked = [v for o, v in zip(offsets[:-1], values[:-1]) if end - len(text) <= o < end and v is not None]
        return sum(picked) / len(picked) if picked else -math.inf

    def stats(self, now: float) -> dict:
        return {"name": self.name, "url": self.url, "model": self.model, "up": self.up, "form": self.form,
                "enforced": self.enforced, "can_score": self.can_score, "in_flight": self.in_flight,
                "limit": self.limit, "calls": self.calls, "failures": self.failures, "tokens": self.tokens,
                "down_s": round(now - self.down_since, 1) if not self.up else 0.0, "error": self.error}

    def close(self) -> None:
        self._client.close()


def _probe_ok(text: str) -> bool:
    try:
        return json.loads(text).get("probe") == PROBE_VALUE
    except (json.JSONDecodeError, AttributeError):
        return False


# ---------------------------------------------------------------- the pool

def _stderr_line(text: str) -> None:
    print(f"\ngarp: {text}", file=sys.stderr, flush=True)


class ServerPool:
    """A `Backend` over one or more endpoints: least-loaded routing, failover, probing back in."""

    def __init__(self, configs: list[EndpointConfig], *, api_key: str | None = None,
                 profile: ModelProfile | None = None, timeout_s: float = HTTP_TIMEOUT_S,
                 retries: int = HTTP_RETRIES, notify: Callable[[str], None] | None = _stderr_line,
                 probe: bool = True):
        if not configs:
            raise GarpError("--server: no endpoint given")
        self.endpoints = [Endpoint(c, api_key_for(c, api_key), timeout_s) for c in configs]
        self.profile = profile or ModelProfile()
        self.retries, self.notify = retries, notify or (lambda text: None)
        self.max_in_flight = sum(e.limit for e in self.endpoints)
        self.model_id = "server:" + "|".join(sorted(f"{e.url}:{e.model}" for e in self.endpoints))
        self._cv = threading.Condition()
        self._closed = False
        self._prober: threading.Thread | None = None
        if probe:
            for ep in self.endpoints:
                self._probe_at_start(ep)

    def _probe_at_start(self, ep: Endpoint) -> None:
        try:
            ep.ping()
            ep.probe_form()
        except ServerUnreachable as e:
            self.mark_down(ep, str(e))
            return
        kind = "enforced" if ep.enforced else "NOT enforced by the server (replies are validated here)"
        self.notify(f"model server {ep.name}: structured output as {ep.form}, {kind}")

    # -- routing
    def acquire(self, exclude: tuple[Endpoint, ...] = ()) -> Endpoint:
        """The least-loaded healthy endpoint with a free slot; waits for a slot, never for a dead server."""
        with self._cv:
            while True:
                live = [e for e in self.endpoints if e.up and e not in exclude]
                if not live or self._closed:
                    down = "; ".join(f"{e.name}: {e.error}" for e in self.endpoints if not e.up)
                    raise ServerUnreachable(f"no model server reachable ({down or 'pool closed'}); "
                                            "start one with `python -m llama_cpp.server --model PATH --host "
                                            "127.0.0.1 --port PORT` or fix --server")
                free = [e for e in live if e.in_flight < e.limit]
                if free:
                    ep = min(free, key=lambda e: (e.in_flight / e.weight, e.calls / e.weight))
                    ep.in_flight += 1
                    return ep
                self._cv.wait(1.0)

    def release(self, ep: Endpoint, ok: bool | None, tokens: int = 0) -> None:
        with self._cv:
            ep.in_flight -= 1
            ep.tokens += tokens
            if ok is True:
                ep.calls += 1
            elif ok is False:
                ep.failures += 1
            self._cv.notify_all()

    def mark_down(self, ep: Endpoint, error: str) -> None:
        with self._cv:
            if not ep.up:
                return
            ep.up, ep.down_since, ep.error = False, time.monotonic(), error
            ep.backoff, ep.next_probe = PROBE_BACKOFF_S, time.monotonic() + PROBE_BACKOFF_S
            others = any(e.up for e in self.endpoints)
            if self._prober is None or not self._prober.is_alive():
                self._prober = threading.Thread(target=self._probe_loop, name="garp-server-probe", daemon=True)
                self._prober.start()
            self._cv.notify_all()
        where = "its requests go to the other servers" if others else "agents act on their fallbacks (code)"
        self.notify(f"model server {ep.name} unreachable ({error}); {where}; probing it again")

    def _mark_up(self, ep: Endpoint) -> None:
        with self._cv:
            ep.up, ep.error = True, ""
            self._cv.notify_all()
        self.notify(f"model server {ep.name} is back after {time.monotonic() - ep.down_since:.1f} s")

    def _probe_loop(self) -> None:
        """Bring failed endpoints back: GET /models (and the form probe if never done), with backoff."""
        while True:
            with self._cv:
                down = [e for e in self.endpoints if not e.up]
                if self._closed or not down:
                    self._prober = None
                    return
                due = [e for e in down if e.next_probe <= time.monotonic()]
                if not due:
                    self._cv.wait(min(e.next_probe for e in down) - time.monotonic())
                    continue
            for ep in due:
                self._probe_once(ep)

    def _probe_once(self, ep: Endpoint) -> None:
        try:
            ep.ping()
            if ep.form is None:
                ep.probe_form()
        except GarpError as e:
            with self._cv:
                ep.error = str(e)
                ep.backoff = min(ep.backoff * 2, PROBE_BACKOFF_MAX_S)
                ep.next_probe = time.monotonic() + ep.backoff
            return
        self._mark_up(ep)

    # -- Backend interface
    def lease(self) -> "Lease":
        return Lease(self)

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1  # the server's tokenizer is remote: ~4 characters per token

    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion:
        with self.lease() as lease:
            return lease.complete(messages, schema=schema, temperature=temperature, max_tokens=max_tokens,
                                  seed=seed)

    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        with self.lease() as lease:
            return lease.score_options(messages, options, prefix)

    def stats(self) -> list[dict]:
        now = time.monotonic()
        with self._cv:
            return [e.stats(now) for e in self.endpoints]

    def close(self) -> None:
        with self._cv:
            self._closed = True
            self._cv.notify_all()
        for ep in self.endpoints:
            ep.close()


class Lease:
    """One model call's hold on one endpoint (a Backend view). On a transport failure the call
    moves to another endpoint; `endpoint_name`, `unreachable` and `can_score` say what happened."""

    def __init__(self, pool: ServerPool):
        self.pool, self.profile, self.model_id = pool, pool.profile, pool.model_id
        self.count_tokens = pool.count_tokens
        self.ep: Endpoint | None = None
        self.ok: bool | None = None
        self.tokens = 0  # completion tokens this call got from its endpoint
        self.unreachable = False
        self.endpoint_name = ""

    def __enter__(self) -> "Lease":
        return self

    def __exit__(self, *exc) -> None:
        if self.ep is not None:
            self.pool.release(self.ep, self.ok, self.tokens)
            self.ep = None

    @property
    def can_score(self) -> bool:
        return self.ep is None or self.ep.can_score is not False

    def _run(self, request: Callable[[Endpoint], Any]) -> Any:
        tried: tuple[Endpoint, ...] = ()
        for _ in range(self.pool.retries + 1):
            if self.ep is None:
                try:
                    self.ep = self.pool.acquire(exclude=tried)
                except ServerUnreachable:
                    self.unreachable = True
                    raise
                self.endpoint_name = self.ep.name
            try:
                out = request(self.ep)
            except ServerUnreachable as e:
                self.pool.mark_down(self.ep, str(e))
                self.pool.release(self.ep, False)
                tried, self.ep = tried + (self.ep,), None
                last = e
                continue
            self.ok = True
            return out
        self.unreachable = True
        raise ServerUnreachable(f"{last} (after {self.pool.retries + 1} attempts)")

    def complete(self, messages: list[dict], *, schema: dict | None = None, temperature: float = 0.0,
                 max_tokens: int = 128, seed: int = 0) -> Completion:
        c = self._run(lambda ep: ep.complete(messages, schema=schema, temperature=temperature,
                                             max_tokens=max_tokens, seed=seed))
        self.tokens += c.completion_tokens
        return c

    def score_options(self, messages: list[dict], options: list[str], prefix: str = "") -> list[float]:
        prompt = score_prompt(self.profile, messages)
        return self._run(lambda ep: ep.score_options(prompt, options, prefix))


def score_prompt(profile: ModelProfile, messages: list[dict]) -> str:
    """The chat prompt as text, for /v1/completions scoring (the server's template is not exposed)."""
    from llama_cpp import llama_chat_format

    formatter = named_formatters(llama_chat_format).get(profile.chat_format or "chatml")
    if formatter is None:
        raise ScoreUnsupported(f"cannot build a {profile.chat_format!r} prompt for scoring on a server")
    return formatter(messages=messages).prompt
