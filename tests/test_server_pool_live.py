"""A headless scenario served by two real `llama_cpp.server` processes on 127.0.0.1 (issue 22 §5),
and a run whose only server is dead (issue 20 §2). Server replies are not in the recording,
so the two-server run is live: the shortest scenario (one agent), its first game minutes."""

import threading
import time

import pytest

from garp.cli import build_parser, main
from garp.engine.backends import make_backend
from garp.engine.local_server import free_port, start_servers
from garp.eventlog import EventLog
from garp.sim.runner import run_headless

SCENARIO, HOURS = "solitary_evening", 0.05  # three game minutes: plan, decomposition, first steps
KILL_WAIT_S = 0.5      # how long a request has been on server A when A is killed
RUN_TIMEOUT_S = 900.0  # the whole live run, wall seconds (a loaded 2-core machine)


@pytest.fixture
def two_servers(bundled_model_spec, tmp_path):
    servers = start_servers(bundled_model_spec.path, tmp_path, 2, threads=1)
    yield servers
    for s in servers:
        s.stop()


def _kill_a_mid_request(pool, server_a, done: threading.Event, killed: dict) -> None:
    """Once A has answered a call, kill it while it works on the next one."""
    a = pool.endpoints[0]
    while not done.is_set():
        if a.calls >= 1 and a.in_flight == 1:
            time.sleep(KILL_WAIT_S)
            killed["calls_before"] = a.calls
            server_a.kill()
            killed["at"] = time.monotonic()
            return
        time.sleep(0.05)


@pytest.mark.model
def test_two_servers_serve_a_scenario_and_one_dies_mid_run(two_servers, embedder, tmp_path):
    a, b = two_servers
    args = build_parser().parse_args(["run", SCENARIO, "--headless", "--live", "--server", a.url, "--server", b.url,
                                      "--model", "smollm2-135m-instruct-q4_0", "--out", str(tmp_path / "run")])
    assert args.server == [a.url, b.url]
    pool = make_backend(args.model, args.server)
    done, killed = threading.Event(), {}
    watcher = threading.Thread(target=_kill_a_mid_request, args=(pool, a, done, killed), daemon=True)
    watcher.start()
    t0 = time.monotonic()
    try:
        sim = run_headless(SCENARIO, args, hours=HOURS, backend=pool, embedder=embedder)
    finally:
        done.set()
        stats = pool.stats()
        pool.close()
    assert time.monotonic() - t0 < RUN_TIMEOUT_S
    assert killed, f"server A never had a request in flight after its first answer: {stats}"
    events = EventLog.read(sim.log.path)
    calls = [e for e in events if e["kind"] == "llm_call"]
    served = {e.get("endpoint") for e in calls}
    assert {stats[0]["name"], stats[1]["name"]} <= served
    assert not stats[0]["up"] and stats[0]["failures"] == 1 and stats[1]["up"]
    assert stats[0]["calls"] == killed["calls_before"]  # A answered nothing after the kill
    assert stats[1]["calls"] >= 2  # B took A's interrupted request and went on
    assert not [e for e in calls if e.get("unreachable")] and not [e for e in events if e["kind"] == "error"]


def test_a_run_whose_server_is_dead_logs_errors_and_exits_non_zero(tmp_path, capsys):
    dead = f"http://127.0.0.1:{free_port()}/v1"
    out = tmp_path / "run"
    rc = main(["run", SCENARIO, "--headless", "--live", "--server", dead, "--hours", "0.25", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "unreachable" in err and "could not reach the model" in err and "over the 10% allowed" in err
    events = EventLog.read(out / "events.jsonl")
    calls = [e for e in events if e["kind"] == "llm_call"]
    errors = [e for e in events if e["kind"] == "error"]
    assert calls and all(e.get("unreachable") and e["fallback_used"] for e in calls)
    assert len(errors) == len(calls) and "no model server reachable" in errors[0]["message"]
