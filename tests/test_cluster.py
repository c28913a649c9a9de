"""simulate on an executor: a dask.distributed LocalCluster and a thread pool give the local
run's summaries and records byte for byte; a worker killed mid-run loses no game."""

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

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



@pytest.mark.parametrize("address", ["", "no-port-here"])
def test_cli_dask_address_that_cannot_be_read(address):
    """Run as a user runs it (a process of its own, bounded): a clean error, exit 2."""
    done = subprocess.run([sys.executable, "-c", "import sys; from zipai_rules.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", "simulate", "--games", "2",
                           "--dask", address], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: --dask {address!r}: not a scheduler address")
