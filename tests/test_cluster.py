"""simulate on an executor: a dask.distributed LocalCluster and a thread pool give the local
run's summaries and records byte for byte; a worker killed mid-run loses no game."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bounds import hang_guard
from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import load_preset
from zipai_rules.simulate import run_games, simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        yield c


def files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_local_cluster_equals_a_local_run(client, tmp_path):
    hunan = load_preset("hunan")
    here = simulate(hunan, 24, seed=5, out=tmp_path / "here")
    there = simulate(hunan, 24, seed=5, jobs=2, out=tmp_path / "there", chunk=5,
                     executor=client.get_executor())
    assert there == here
    assert [g.seed for g in there] == list(range(5, 29))
    assert files(tmp_path / "there") == files(tmp_path / "here")
    assert len(files(tmp_path / "here")) == 24
    # the records written by the workers (here the same disk) are the same files
    simulate(hunan, 24, seed=5, jobs=2, out=tmp_path / "workers", out_on_workers=True,
             chunk=7, executor=client.get_executor())
    assert files(tmp_path / "workers") == files(tmp_path / "here")


def test_a_killed_worker_loses_no_game(client, tmp_path):
    guilin = load_preset("guilin")
    here = simulate(guilin, 40, seed=9)
    pids = sorted(client.run(os.getpid).values())
    assert len(pids) == 2
    got = []
    for g in run_games(guilin, 40, seed=9, jobs=2, out=tmp_path, chunk=2,
                       executor=client.get_executor()):
        got.append(g)
        if len(got) == 1:
            os.kill(pids[0], signal.SIGKILL)  # the nanny starts a new worker
    assert sorted(got, key=lambda g: g.number) == here
    assert len(got) == 40 and len(files(tmp_path)) == 40
    client.wait_for_workers(2, timeout=120)  # guards a hang only
    assert pids[0] not in client.run(os.getpid).values()


def test_any_executor_and_the_chunk_check():
    hunan = load_preset("hunan")
    with ThreadPoolExecutor(3) as pool:
        assert simulate(hunan, 9, seed=2, jobs=3, executor=pool) == simulate(hunan, 9, seed=2)
        with pytest.raises(ZipaiError) as e:
            simulate(hunan, 9, executor=pool, chunk=0)
    assert e.value.code == "bad_option"


def test_cli_dask_local(capsys):
    assert main(["simulate", "--games", "10", "--seed", "3", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--games", "10", "--seed", "3", "--json", "--dask", "local",
                 "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one.pop("timing")["jobs"] == 1 and two.pop("timing")["jobs"] == 2
    assert one == two
    assert main(["simulate", "--games", "2", "--out-on-workers"]) == 2
    assert capsys.readouterr().err == "error: --out-on-workers goes with --dask and --out\n"
    assert main(["simulate", "--games", "2", "--chunk", "5"]) == 2
    assert capsys.readouterr().err == "error: --chunk goes with --dask\n"
    assert main(["simulate", "--games", "10", "--seed", "3", "--json", "--dask", "local",
                 "--jobs", "2", "--chunk", "3"]) == 0
    three = json.loads(capsys.readouterr().out)
    assert three.pop("timing")["jobs"] == 2 and three == one



@pytest.mark.parametrize("address", ["", "no-port-here"])
def test_cli_dask_address_that_cannot_be_read(address):
    """Run as a user runs it (a process of its own, bounded): a clean error, exit 2."""
    done = subprocess.run([sys.executable, "-c", "import sys; from zipai_rules.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", "simulate", "--games", "2",
                           "--dask", address], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: --dask {address!r}: not a scheduler address")


# --- --dask addresses that are not a dask scheduler (issue 24, kind 6) ---------------------------
# Tiny servers on 127.0.0.1 in a thread of the test: each stops (and closes what it accepted)
# when its block ends; the client's handshake bound is lowered to 1 s for the test.

HTTP_400 = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def dask_handshake() -> bytes:
    """What a scheduler writes first, framed as dask's TCP comm frames it."""
    import struct

    from distributed.protocol import dumps
    from distributed.protocol.utils import pack_frames

    block = pack_frames(dumps({"compression": None, "python": (3, 11, 0),
                               "pickle-protocol": 5}))
    return struct.pack("Q", len(block)) + block


@contextlib.contextmanager
def local_server(answer):
    """A server on 127.0.0.1 that calls ``answer(connection)`` for each connection it
    accepts; yields its ``tcp://`` address. Bounded: the thread polls a stop flag every
    0.05 s, and every connection is closed when the block ends."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.05)
    stop, held = threading.Event(), []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):
                answer(conn)
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        listener.close()


def trickle(conn):
    conn.sendall((100).to_bytes(8, "little"))  # a size that fits, then its bytes slowly:
    for _ in range(40):                         # a byte every 0.1 s, longer than the bound
        conn.sendall(b"\0")
        time.sleep(0.1)


SERVERS = {
    "http_400": (lambda c: c.sendall(HTTP_400), "it answered b'HTTP/1.1', not a dask handshake"),
    "silent": (lambda c: None, "no handshake within 1 s"),
    "closes_at_once": (lambda c: c.close(), "it closed the connection without a handshake"),
    "trickles": (trickle, "no handshake within 1 s"),
    "huge_frame": (lambda c: c.sendall((2 ** 30).to_bytes(8, "little")),
                   "it answered b'\\x00\\x00\\x00@\\x00\\x00\\x00\\x00', not a dask handshake"),
    "bad_frames": (lambda c: c.sendall((24).to_bytes(8, "little") + b"\xff" * 24),
                   "not a dask handshake"),
    "html_page": (lambda c: c.sendall(b"<!DOCTYPE html>" + b"x" * 100), "not a dask handshake"),
    "handshake_then_garbage": (lambda c: c.sendall(dask_handshake() + b"\x01" * 64),
                               "not a dask scheduler: MemoryError"),
    "handshake_then_silence": (lambda c: c.sendall(dask_handshake()),
                               "cannot reach the scheduler"),
}


#: cases run as a user runs the command, in a fresh interpreter: a dask client that got the
#: handshake and then timed out is closed when collected, and in a process whose other tests
#: left dask's shared loop running that close waits on the loop's lock (up to the hang guard)
IN_A_FRESH_PROCESS = {"handshake_then_silence"}


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_cli_dask_address_that_is_no_scheduler(name, capsys, monkeypatch):
    from zipai_rules.cli import scheduler

    monkeypatch.setattr(scheduler, "HANDSHAKE_SECONDS", 1.0)
    answer, message = SERVERS[name]
    with local_server(answer) as address, hang_guard(120):
        if name in IN_A_FRESH_PROCESS:
            done = subprocess.run([sys.executable, "-m", "zipai_rules.cli", "simulate", "--games",
                                   "2", "--dask", address], capture_output=True, text=True,
                                  timeout=120, check=False)
            code, out, err = done.returncode, done.stdout, done.stderr
        else:
            code = main(["simulate", "--games", "2", "--dask", address])
            out, err = capsys.readouterr()
    assert code == 2 and out == "", (out, err)
    assert err.startswith(f"error: --dask {address}: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_dask_on_a_real_scheduler_by_its_address(client, capsys):
    """The check lets a real scheduler through, and the games are the local run's."""
    from zipai_rules.cli.scheduler import probe_scheduler

    address = client.scheduler.address
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    probe_scheduler(address, host, int(port), 5.0)
    assert main(["simulate", "--games", "6", "--seed", "4", "--json"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--games", "6", "--seed", "4", "--json", "--dask", address]) == 0
    there = json.loads(capsys.readouterr().out)
    assert here.pop("timing")["jobs"] == 1 and there.pop("timing")["jobs"] == 2
    assert here == there


def test_shards_on_a_local_cluster_hold_the_local_records(client, tmp_path):
    import gzip

    from zipai_rules.shards import record_text
    hunan = load_preset("hunan")
    simulate(hunan, 12, seed=5, out=tmp_path / "here")
    for where, on_workers in (("shipped", False), ("workers", True)):
        simulate(hunan, 12, seed=5, jobs=2, out=tmp_path / where, chunk=5, shards=True,
                 out_on_workers=on_workers, executor=client.get_executor())
        shards = sorted(p.name for p in (tmp_path / where).iterdir())
        assert shards == ["games-00000001-00000005.jsonl.gz", "games-00000006-00000010.jsonl.gz",
                          "games-00000011-00000012.jsonl.gz"]
        lines = [x for name in shards for x in
                 gzip.decompress((tmp_path / where / name).read_bytes()).splitlines()]
        assert [record_text(x).encode() for x in lines] == \
            [(tmp_path / "here" / f"game-{n:05d}.json").read_bytes() for n in range(1, 13)]
# --- issue 29: every worker checked before any game; the watch of lost workers -------------------

def _set_version(version):
    import zipai_rules
    old, zipai_rules.__version__ = zipai_rules.__version__, version
    return old


def test_a_worker_of_another_version_is_refused(client, tmp_path):
    from zipai_rules.cli.cluster import check_workers

    hunan = load_preset("hunan")
    assert check_workers(client, hunan) == 2
    worker = sorted(client.nthreads())[0]
    client.run(_set_version, "0.0.1", workers=[worker])
    try:
        with pytest.raises(ZipaiError) as e:
            check_workers(client, hunan)
        assert e.value.code == "worker_mismatch"
        assert str(e.value) == (f"worker {worker} runs zipai_rules 0.0.1, the client "
                                f"{__import__('zipai_rules').__version__}: install the same "
                                "version on every worker")
        # a task that lands there refuses itself before any game (a worker joining late)
        with pytest.raises(ZipaiError) as e:
            list(run_games(hunan, 8, jobs=2, chunk=1, out=tmp_path,
                           executor=client.get_executor()))
        assert e.value.code == "worker_mismatch" and "runs zipai_rules 0.0.1" in str(e.value)
    finally:
        client.run(_set_version, __import__("zipai_rules").__version__, workers=[worker])
    assert check_workers(client, hunan) == 2


def test_a_worker_building_another_hash_is_refused():
    from zipai_rules.simulate import check_worker

    with pytest.raises(ZipaiError) as e:
        check_worker({"version": "1", "content_hash": "ab" * 32}, ("1", "cd" * 32), "w1")
    assert e.value.code == "worker_mismatch"
    assert str(e.value) == ("worker w1 builds the variant with content hash abababababab, the "
                            "client cdcdcdcdcdcd: the same rules must play on every worker")
    check_worker({"version": "1", "content_hash": "cd" * 32}, ("1", "cd" * 32), "w1")


class FakeClient:
    def __init__(self, looks):
        self.looks = iter(looks)

    def processing(self):
        return next(self.looks)


def test_the_watch_reports_lost_and_new_workers():
    from zipai_rules.cli.cluster import Watch

    watch = Watch(FakeClient([{"a": [1], "b": [1, 2]}, {"a": []}, {"a": [], "c": [3]}]))
    assert watch() == (2, [])
    assert watch() == (1, ["worker b lost while playing 2 chunks: the scheduler plays them "
                           "again on the other workers"])
    assert watch() == (2, ["worker c joined"])
    assert watch.lost == 1


def test_the_watch_sees_a_killed_worker(client):
    from zipai_rules.cli.cluster import Watch

    client.wait_for_workers(2, timeout=120)  # guards a hang only
    watch = Watch(client)
    assert watch()[0] == 2
    victim, pid = sorted(client.run(os.getpid).items())[0]
    os.kill(pid, signal.SIGKILL)
    events = []
    for _ in range(600):  # bounded looks (a hang guard, not a timing)
        workers, new = watch()
        events += new
        if any("lost" in e for e in events):
            break
        time.sleep(0.1)
    assert f"worker {victim} lost" in events
    client.wait_for_workers(2, timeout=120)


def _running(dask_worker):
    return sorted(name for name in ("profile", "profile-cycle", "tick")
                  if dask_worker.periodic_callbacks[name].is_running())


def test_the_profiler_and_tick_are_paused_for_the_run_and_started_again(client):
    from zipai_rules.cli.cluster import _pause_profiler, _resume, _resume_profiler

    everything = ["profile", "profile-cycle", "tick"]
    assert list(client.run(_running).values()) == [everything] * 2  # dask's default: on
    paused = client.run(_pause_profiler)
    assert list(paused.values()) == [["profile", "profile-cycle", "tick"]] * 2
    assert list(client.run(_running).values()) == [[]] * 2
    _resume(client, paused)
    assert list(client.run(_running).values()) == [everything] * 2
    client.run(_resume_profiler)  # nothing to start again
    assert list(client.run(_running).values()) == [everything] * 2


class RecordingClient:
    """A client whose scheduler knows the workers ``there``; records what it is asked to run."""

    def __init__(self, there):
        self.there = there
        self.calls = []

    def scheduler_info(self):
        return {"workers": dict.fromkeys(self.there, {})}

    def run(self, function, *args, workers=None, **kwargs):
        self.calls.append((function.__name__, args, workers))
        return {}


def test_only_the_workers_still_there_are_contacted():
    """A broadcast to a lost worker holds the client for dask's connect timeout: starting the
    profiler again and halting a run go to the workers the scheduler still knows only."""
    from zipai_rules.cli.cluster import Watch, _resume

    c = RecordingClient(["tcp://a:1", "tcp://c:1"])
    _resume(c, {"tcp://a:1": ["profile", "tick"], "tcp://b:1": ["profile", "tick"],
                "tcp://c:1": ["tick"]})
    assert sorted(c.calls) == [("_resume_profiler", (["profile", "tick"],), ["tcp://a:1"]),
                               ("_resume_profiler", (["tick"],), ["tcp://c:1"])]
    c.calls.clear()
    Watch(c).halt("run-token")
    assert c.calls == [("_halt", ("run-token",), ["tcp://a:1", "tcp://c:1"])]
    gone = RecordingClient([])
    Watch(gone).halt("run-token")
    _resume(gone, {"tcp://a:1": ["tick"]})
    assert gone.calls == []


def test_a_halted_task_stops_between_games(tmp_path):
    """A task of a halted run plays no further game: one that starts after the halt plays
    none and writes no shard; another run's task plays its whole chunk."""
    from zipai_rules.shards import iter_shard
    from zipai_rules.simulate import _run_task, _variant_spec, halt_tasks

    spec = _variant_spec(load_preset("hunan"))
    halt_tasks("stopped-run")
    assert _run_task(spec, 1, 4, 1, ["greedy"], str(tmp_path), False, True,
                     run="stopped-run") == []
    assert not list(tmp_path.iterdir())
    done = _run_task(spec, 1, 4, 1, ["greedy"], str(tmp_path), False, True, run="another")
    assert [g.number for g, _ in done] == [1, 2, 3, 4]
    [shard] = tmp_path.iterdir()
    assert shard.name == "games-00000001-00000004.jsonl.gz"
    assert [n for n, _ in iter_shard(shard)] == [1, 2, 3, 4]


def test_a_stopped_thread_pool_run_yields_what_its_shards_hold(tmp_path):
    """Stopped, a thread pool's tasks (in this process) stop after their game: each chunk
    yields a first part of its games, and the shards hold exactly the games yielded."""
    from zipai_rules.shards import iter_shard

    hunan = load_preset("hunan")
    got = []
    with ThreadPoolExecutor(2) as pool:
        for g in run_games(hunan, 200, seed=4, jobs=2, out=tmp_path, shards=True, chunk=10,
                           executor=pool, stop=lambda: len(got) > 0):
            got.append(g.number)
    held = [n for p in sorted(tmp_path.glob("games-*")) for n, _ in iter_shard(p)]
    assert sorted(got) == sorted(held) and 0 < len(got) < 200
    for a in {(n - 1) // 10 * 10 + 1 for n in got}:  # each chunk from its first game on
        mine = sorted(n for n in got if a <= n < a + 10)
        assert mine == list(range(a, a + len(mine)))
