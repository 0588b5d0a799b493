"""`python -m launcher.devserver` (what `make run` starts), end to end.

Every test uses private ports and a scratch var dir (``TABULA_*`` variables),
so it never touches a `make run` of the developer nor the Redis on 6379.
The chaos tests (a program killed, restarted) are in test_chaos.py.
"""

import fcntl
import os
import select
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest
import requests

from launcher import devserver, preflight, shim, supervision
from launcher.redis_process import RedisProcess, free_port

from .stack import ROOT, alive, cmdlines, wait_gone

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032  # Linux


def _start_and_check_stack(launch, **overrides):
    launcher = launch(**overrides)
    launcher.wait_ready()
    try:
        health = requests.get(launcher.url + "/healthz", timeout=5)
    except requests.ConnectionError as exc:
        pytest.fail(f"{exc}\n{launcher.log()}")
    assert health.status_code == 200, launcher.log()
    children = launcher.descendants()
    lines = cmdlines(children)
    assert any("-m service.worker" in c for c in lines), lines
    assert any("gunicorn" in c and "deploy/gunicorn.conf.py" in c for c in lines), lines
    return launcher, children, lines


def _create_match(url):
    body = {
        "game": "anno1503",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        "seed": 5,
    }
    response = requests.post(url + "/v1/matches", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["match"]["id"]


def _wait_ready_probe(url, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        response = requests.get(url + "/readyz", timeout=5)
        if response.status_code == 200 or time.monotonic() > deadline:
            return response
        time.sleep(0.2)


def test_starts_redis_workers_gunicorn_and_stops_all_on_sigint(launch):
    launcher, children, lines = _start_and_check_stack(launch, TABULA_RQ_WORKERS="2")
    assert any("redis-server" in c and str(launcher.redis_port) in c for c in lines), lines
    workers = launcher.workers()
    assert len(workers) == 2, lines
    hooks = launcher.webhook_workers()  # each with its RQ scheduler process
    assert len([w for w in hooks if w.ppid() not in {h.pid for h in hooks}]) == 1, lines
    # /readyz wants as many live workers as `make run` starts.
    assert {w.environ().get("READY_MIN_WORKERS") for w in workers} == {"2"}
    ready = _wait_ready_probe(launcher.url)
    assert ready.status_code == 200, ready.text
    assert ready.json()["workers_alive"] == 2
    match_id = _create_match(launcher.url)
    # The metrics answer on their loopback port only, with the API's traffic.
    metrics_url = f"http://127.0.0.1:{launcher.env['METRICS_PORT']}"
    scraped = requests.get(metrics_url + "/metrics", timeout=10)
    assert scraped.status_code == 200 and 'route="/v1/matches"' in scraped.text
    assert requests.get(launcher.url + "/metrics", timeout=10).status_code == 404
    assert requests.get(metrics_url + "/v1/games", timeout=10).status_code == 404
    assert f"metrics {metrics_url}/metrics" in launcher.log()

    assert launcher.interrupt() == 0, launcher.log()
    assert wait_gone(children) == [], launcher.log()
    log = launcher.log()
    assert "[tabula] stopped" in log and "Traceback" not in log, log

    # The match comes back from the append-only file on the next start.
    again, _, _ = _start_and_check_stack(
        launch, TABULA_REDIS_PORT=str(launcher.redis_port), TABULA_PORT=str(launcher.port)
    )
    response = requests.get(f"{again.url}/v1/matches/{match_id}", timeout=10)
    assert response.status_code == 200, response.text
    assert again.interrupt() == 0, again.log()


def test_uses_redis_url_without_starting_redis(launch):
    with RedisProcess() as external:
        launcher, children, lines = _start_and_check_stack(launch, REDIS_URL=external.url)
        assert not any("redis-server" in c for c in lines), lines
        assert f"REDIS_URL={external.url}" in launcher.log()
        assert launcher.interrupt() == 0, launcher.log()
        assert wait_gone(children) == []
        assert external.proc.poll() is None  # the external Redis is left alone


def test_explains_a_redis_left_over_on_its_port(launch):
    with RedisProcess() as leftover:
        launcher = launch(TABULA_REDIS_PORT=str(leftover.port))
        status = launcher.proc.wait(timeout=30)
        assert status == 1
        log = launcher.log()
        assert f"already listening on 127.0.0.1:{leftover.port}" in log, log
        assert f"redis-cli -p {leftover.port} shutdown" in log, log
        assert leftover.proc.poll() is None


def test_refuses_a_redis_url_that_does_not_answer(launch):
    dead_url = f"redis://127.0.0.1:{free_port()}/0"
    launcher = launch(REDIS_URL=dead_url)
    assert launcher.proc.wait(timeout=30) == 1
    assert f"REDIS_URL={dead_url} does not answer" in launcher.log()


def test_names_the_launcher_already_running(launch):
    first = launch()
    first.wait_ready()
    second = launch(TABULA_VAR_DIR=first.env["TABULA_VAR_DIR"])
    assert second.proc.wait(timeout=30) == 1
    assert f"another `make run` (pid {first.proc.pid}) is still running" in second.log()
    assert first.proc.poll() is None


def test_a_program_that_cannot_start_stops_everything(launch):
    launcher = launch(TABULA_WORKER_MODULE="service.no_such_worker_module")
    deadline = time.monotonic() + 30
    while launcher.proc.poll() is None and time.monotonic() < deadline:
        try:
            launcher.descendants()
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    assert launcher.proc.wait(timeout=60) == 1, launcher.log()
    log = launcher.log()
    assert "exited: rq-worker-1 (exit status 1; not expected)" in log, log
    assert "[tabula] error: rq-worker-1 exited during startup" in log, log
    assert wait_gone(launcher.seen) == [], log


FLAKY_WORKER = """
import os, runpy, sys
if os.path.exists(os.environ["FLAKY_BROKEN"]):
    print("flaky worker: broken, exit 3", flush=True)
    sys.exit(3)
runpy.run_module("service.worker", run_name="__main__", alter_sys=True)
"""


def test_a_worker_that_keeps_failing_comes_back_once_it_can(launch, tmp_path):
    """After the stack was ready, a program that dies is never given up on:
    it is started again and again (the log says so each time), the rest of
    the stack keeps serving, and it is back as soon as it can run."""
    (tmp_path / "flaky_worker.py").write_text(FLAKY_WORKER)
    broken = tmp_path / "broken"
    launcher = launch(
        TABULA_WORKER_MODULE="flaky_worker",
        FLAKY_BROKEN=str(broken),
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
        TABULA_RESTART_BACKOFF_S="0.01",
    )
    launcher.wait_ready()
    (worker,) = launcher.programs("-m flaky_worker")
    broken.touch()
    offset = len(launcher.log())
    worker.kill()
    deadline = time.monotonic() + 40
    while launcher.log()[offset:].count("flaky worker: broken") < 4:
        assert time.monotonic() < deadline and launcher.proc.poll() is None, launcher.log()[offset:]
        time.sleep(0.2)
    log = launcher.log()[offset:]
    assert "[tabula] restarting rq-worker-1 in 0.01 s (restart 1 " in log, log
    assert "[tabula] restarting rq-worker-1 in 0.02 s (restart 2 " in log, log  # backing off
    assert requests.get(launcher.url + "/healthz", timeout=5).status_code == 200
    broken.unlink()
    # RQ's line once the worker serves again (LOG_FORMAT=console under make run).
    launcher.wait_log("*** Listening on ai", after=offset, timeout=40)
    assert launcher.interrupt() == 0, launcher.log()


def test_sigkill_of_the_launcher_takes_everything_down(launch):
    launcher, children, _ = _start_and_check_stack(launch)
    launcher.proc.kill()
    launcher.proc.wait()
    # supervisord gets SIGTERM (parent-death signal) and stops each program.
    assert wait_gone(children, timeout=60) == [], cmdlines(alive(children))


def _read_until(fd, out, text, timeout):
    deadline = time.monotonic() + timeout
    while text not in out and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
def test_sigterm_twice_while_stdout_is_slow_stops_cleanly(tmp_path):
    """`kill -TERM -<pgid>` of `make run` gives the launcher two SIGTERMs
    (its own and the one make forwards). The second used to land while the
    launcher printed "stopping" to a slow terminal or pipe (here: one the
    test stops reading) and escaped as an uncaught `StopRequest: 15`
    traceback, exit status 1."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        TABULA_PORT=str(free_port()),
        TABULA_REDIS_PORT=str(free_port()),
        METRICS_PORT=str(free_port()),
        TABULA_VAR_DIR=str(tmp_path / "var"),
        TABULA_RQ_WORKERS="1",
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="4",
        GUNICORN_ACCESSLOG="off",
    )
    read_fd, write_fd = os.pipe()
    fcntl.fcntl(write_fd, F_SETPIPE_SZ, 4096)
    proc = subprocess.Popen(
        [sys.executable, "-m", "launcher.devserver"], cwd=ROOT, env=env, stdout=write_fd, stderr=write_fd
    )
    filler_fd = os.dup(write_fd)
    os.close(write_fd)
    out = b""
    try:
        out = _read_until(read_fd, out, b"[tabula] ready", 90)
        assert b"[tabula] ready" in out, out.decode(errors="replace")
        children = psutil.Process(proc.pid).children(recursive=True)
        # Stop reading and fill the pipe: the launcher's next line blocks.
        unread = int.from_bytes(fcntl.ioctl(read_fd, 0x541B, b"\0\0\0\0"), sys.byteorder)  # FIONREAD
        room = fcntl.fcntl(read_fd, F_GETPIPE_SZ) - unread + 1
        threading.Thread(target=os.write, args=(filler_fd, b"\0" * room), daemon=True).start()
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        deadline = time.monotonic() + 90
        while proc.poll() is None and time.monotonic() < deadline:
            out = _read_until(read_fd, out, b"\xff", 0.5)  # drain
        out += _read_until(read_fd, b"", b"\xff", 0.5)
        text = out.replace(b"\0", b"").decode(errors="replace")
        assert proc.wait(timeout=5) == 0, text
        assert "Traceback" not in text and "StopRequest" not in text, text
        assert "[tabula] SIGTERM: stopping" in text and "[tabula] stopped" in text, text
        assert wait_gone(children) == [], text
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(read_fd)
        os.close(filler_fd)


# --- the launcher's parts, without processes ---------------------------------


def test_restart_waits_back_off(tmp_path):
    state = tmp_path / "rq-worker-1"
    wait = shim._restart_wait
    assert wait(state, 0.5, now=1000.0) == (0, 0.0)  # the first start
    assert wait(state, 0.5, now=1001.0) == (1, 0.5)
    # Each restart soon after the previous one waits twice as long...
    assert wait(state, 0.5, now=1002.0) == (2, 1.0)
    assert wait(state, 0.5, now=1004.0) == (3, 2.0)
    for _ in range(10):
        count, seconds = wait(state, 0.5, now=1005.0)
    assert seconds == shim.RESTART_BACKOFF_MAX_S
    # ...and a run longer than HEALTHY_RUN_S starts over.
    later = 1005.0 + seconds + shim.HEALTHY_RUN_S + 1
    assert wait(state, 0.5, now=later) == (count + 1, 0.5)


def test_supervisord_config_restarts_and_stops_by_group(tmp_path):
    settings = preflight.Settings.from_env(
        {
            "TABULA_VAR_DIR": str(tmp_path / "var"),
            "TABULA_RQ_WORKERS": "3",
            "TABULA_RESTART_BACKOFF_S": "0.25",
        }
    )
    paths = supervision.SupervisorPaths.under(settings.var_dir)
    server = preflight.private_redis(settings)
    try:
        text = supervision.supervisord_config(settings, paths, supervision.programs(settings, server))
    finally:
        paths.cleanup()
    for line in (
        "nodaemon = true",
        "[program:redis-server]",
        "[program:rq-worker]",
        "[program:webhook-worker]",
        "[program:gunicorn]",
        "numprocs = 3",
        "process_name = rq-worker-%(process_num)d",
        "autorestart = true",
        "killasgroup = true",
        "stdout_logfile = /dev/stdout",
        "--appendfsync always",
    ):
        assert line in text, line
    assert " 0.25 -- " in text  # the shim's back-off
    # Redis starts first and stops last.
    assert text.index("[program:redis-server]") < text.index("[program:gunicorn]")
    assert "priority = 10" in text and "priority = 30" in text


class FakeSupervisord:
    def __init__(self, stop, states):
        self.stop, self.states, self.started = stop, states, []

    def exit_status(self):
        return None

    def processes(self):
        if not self.states:
            self.stop.signum = signal.SIGINT
            return []
        return [
            {
                "name": "rq-worker-1",
                "group": "rq-worker",
                "statename": self.states.pop(0),
                "spawnerr": "Exited too quickly (process log may have details)",
            }
        ]

    def start_program(self, info):
        self.started.append(f"{info['group']}:{info['name']}")


def test_supervise_starts_again_a_program_supervisord_gave_up_on(monkeypatch, capsys):
    """supervisord marks FATAL a program that exited within `startsecs` too
    often (a timing matter); once the stack has been ready, the launcher
    starts it again rather than leave it down."""
    monkeypatch.setattr(devserver.time, "sleep", lambda seconds: None)
    monotonic = iter(range(0, 10**6, 2))
    monkeypatch.setattr(devserver.time, "monotonic", lambda: next(monotonic))
    stop = devserver.StopSignal()
    fake = FakeSupervisord(stop, ["RUNNING", "FATAL", "STARTING"])
    devserver.supervise(fake, stop)
    assert fake.started == ["rq-worker:rq-worker-1"]
    assert "[tabula] rq-worker-1 keeps exiting at start-up" in capsys.readouterr().out


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        preflight.Settings.from_env({"TABULA_RESTART_BACKOFF_S": "soon"})
    with pytest.raises(ValueError):
        preflight.Settings.from_env({"TABULA_RQ_WORKERS": "0"})
