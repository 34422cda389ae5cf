"""Start `python -m llama_cpp.server` on 127.0.0.1 for a GGUF file: the tests' and the
benchmarks' stand-in for a user's inference servers (issue 22 §5)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from garp.errors import GarpError

# Tunables
START_TIMEOUT_S = 90.0  # loading the model and binding the port, seconds (a loaded 2-core machine is slow)
STOP_TIMEOUT_S = 10.0   # SIGTERM grace before SIGKILL, seconds


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    """One llama.cpp server process; `url` is its /v1 base. Use as a context manager."""

    def __init__(self, model_path: Path, log_path: Path, *, threads: int = 1, n_ctx: int = 4096,
                 chat_format: str = "chatml"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.log_path = Path(log_path)
        self._log: IO[str] = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--host", "127.0.0.1",
             "--port", str(self.port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
             "--n_threads_batch", str(threads), "--chat_format", chat_format],
            stdout=self._log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout_s: float = START_TIMEOUT_S) -> "LocalServer":
        import httpx

        deadline = time.monotonic() + timeout_s
        while True:
            if self.proc.poll() is not None:
                self.stop()
                raise GarpError(f"llama_cpp.server on port {self.port} exited with {self.proc.returncode}; "
                                f"see {self.log_path}")
            try:
                if httpx.get(self.url + "/models", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise GarpError(f"llama_cpp.server on port {self.port} did not come up within {timeout_s:.0f} s; "
                                f"see {self.log_path}")
            time.sleep(0.3)

    def kill(self) -> None:
        """SIGKILL, as a crashed server would go."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()

    def __enter__(self) -> "LocalServer":
        return self.wait_ready()

    def __exit__(self, *exc) -> None:
        self.stop()


def start_servers(model_path: Path, log_dir: Path, n: int, threads: int = 1) -> list[LocalServer]:
    """n servers started together (they load in parallel), each ready on return."""
    servers = [LocalServer(model_path, Path(log_dir) / f"server{i}.log", threads=threads) for i in range(n)]
    try:
        for s in servers:
            s.wait_ready()
    except GarpError:
        for s in servers:
            s.stop()
        raise
    return servers
