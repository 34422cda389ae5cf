"""A fake OpenAI-compatible server on 127.0.0.1 (http.server in a thread) for pool tests.

It enforces only the OpenAI `json_schema` response format (like vLLM, Ollama, LM Studio):
a request in that form is checked for its shape and answered with a reply that fits the
schema; llama.cpp's `json_object` form is ignored (the reply is free text). `/completions`
with echo + logprobs is offered only when `scoring` is set.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def instance_of(schema: dict) -> Any:
    """The first value a schema allows (enough for the test schemas: objects, enums, strings, numbers)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {k: instance_of(v) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [instance_of(schema["items"])] * schema.get("minItems", 0)
    return {"string": "ok", "integer": 1, "number": 1.0, "boolean": True}.get(kind, None)


class FakeServer:
    def __init__(self, *, scoring: bool = False, api_key: str | None = None, reply: dict | None = None):
        self.scoring, self.api_key, self.reply = scoring, api_key, reply
        self.requests: list[tuple[str, dict]] = []
        self.problems: list[str] = []   # request-shape violations seen
        self.status = 200               # set to 503 to make the server fail
        self.delay_s = 0.0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.port = self._httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def chat_paths(self) -> list[dict]:
        return [b for p, b in self.requests if p.endswith("/chat/completions")]

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if fake.status != 200:
                    return self._send(fake.status, {"error": "down"})
                self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append((self.path, body))
                if fake.api_key and self.headers.get("Authorization") != f"Bearer {fake.api_key}":
                    return self._send(401, {"error": "bad key"})
                if fake.status != 200:
                    return self._send(fake.status, {"error": "unavailable"})
                if fake.delay_s:
                    threading.Event().wait(fake.delay_s)
                if self.path.endswith("/chat/completions"):
                    return self._send(200, fake.chat_reply(body))
                if self.path.endswith("/completions") and fake.scoring:
                    return self._send(200, score_reply(body["prompt"]))
                self._send(404, {"error": f"no route {self.path}"})

        return Handler

    def chat_reply(self, body: dict) -> dict:
        content = "Sure! Here is my answer."  # what a server that ignores the schema says
        fmt = body.get("response_format")
        if fmt and fmt.get("type") == "json_schema":
            self._check_shape(fmt)
            content = json.dumps(instance_of(fmt["json_schema"]["schema"]))
        if self.reply is not None:
            return self.reply
        return {"id": "chatcmpl-1", "object": "chat.completion", "model": body.get("model"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}}

    def _check_shape(self, fmt: dict) -> None:
        js = fmt.get("json_schema")
        if set(fmt) != {"type", "json_schema"} or not isinstance(js, dict):
            self.problems.append(f"response_format keys {sorted(fmt)}")
            return
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", str(js.get("name"))):
            self.problems.append(f"json_schema.name {js.get('name')!r}")
        if not isinstance(js.get("schema"), dict) or js["schema"].get("type") != "object":
            self.problems.append("json_schema.schema is not an object schema")
        if js.get("strict") is not True:
            self.problems.append("json_schema.strict is not true")


def score_reply(prompt: str) -> dict:
    """Echoed prompt logprobs, one character per token; a vowel is likelier than a consonant."""
    tokens = list(prompt) + ["."]
    offsets = [sum(len(t) for t in tokens[:i]) for i in range(len(tokens))]
    values = [None] + [-0.5 if t in "aeiou" else -2.0 for t in tokens[1:]]
    return {"choices": [{"text": prompt + ".", "logprobs": {"tokens": tokens, "text_offset": offsets,
                                                            "token_logprobs": values}}]}
