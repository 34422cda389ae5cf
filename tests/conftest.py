"""Shared test fixtures. Each subsystem appends its own delimited block below."""

import os

# Headless and offline for every test: no window, no sound device, no hub downloads.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


# --- engine: embedder (issue 2 §6) -----------------------------------------------------
import pytest  # noqa: E402


@pytest.fixture(scope="session")
def embedder():
    """The bundled all-MiniLM-L6-v2, loaded once per test session."""
    from garp.engine.embedder import Embedder

    emb = Embedder()
    emb.warm()
    yield emb
    emb.close()
# --- end engine: embedder --------------------------------------------------------------


# --- engine: language model (issue 2 §2-5) ----------------------------------------------
@pytest.fixture(scope="session")
def bundled_model_spec():
    """The bundled SmolLM2-135M-Instruct as a resolved ModelSpec."""
    from garp.engine.models import resolve_model

    return resolve_model("smollm2-135m-instruct-q4_0")


@pytest.fixture(scope="session")
def llm_backend(bundled_model_spec):
    """One embedded llama.cpp backend for the session (2 threads, seed 0)."""
    from garp.engine.backends import LlamaCppBackend

    backend = LlamaCppBackend(bundled_model_spec, n_threads=2, seed=0)
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def scheduler(llm_backend):
    """A running InferenceScheduler owning `llm_backend` (no reply cache)."""
    from garp.engine.scheduler import InferenceScheduler

    sched = InferenceScheduler(llm_backend).start()
    yield sched
    sched.stop()
# --- end engine: language model ---------------------------------------------------------


# --- sim: shared model + embedder for headless simulation runs (issues 3, 5, 7) -----------
@pytest.fixture(scope="session")
def sim_engine(llm_backend, embedder):
    """The session's bundled model and embedder, reused by every headless run in the tests."""
    return llm_backend, embedder
# --- end sim ------------------------------------------------------------------------------
