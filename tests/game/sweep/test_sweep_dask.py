"""game.sweep on a Dask cluster: a LocalCluster of two worker processes, started here."""

from pathlib import Path

import pytest

from game.cli import main
from game.sweep import sweep

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

SEPARABLE = Path(__file__).resolve().parents[3] / "scenarios" / "perceptron_separable.toml"
GRID = {"adversary.margin": [0.1, 0.2]}


@pytest.fixture(scope="module")
def cluster():
    # without Dask's MALLOC_TRIM_THRESHOLD_ for its workers (see benchmarks/sweep.py)
    no_trim = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    with (
        dask.config.set(no_trim),
        distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as local,
    ):
        yield local


def test_a_dask_cluster_gives_the_serial_table(cluster):
    serial = sweep(SEPARABLE, seeds=6, grid=GRID, workers=1, lockstep=False, digests=True)
    with distributed.Client(cluster) as client:
        executor = client.get_executor()
        on_dask = sweep(
            SEPARABLE, seeds=6, grid=GRID, executor=executor, chunk_size=2, digests=True
        )
        engine = sweep(
            SEPARABLE, seeds=6, grid=GRID, executor=executor, lockstep=False, digests=True
        )
    assert len(on_dask) == 12 and on_dask.lockstep == 12
    assert serial.matches(on_dask) and serial.matches(engine)


def test_the_command_line_reaches_a_scheduler(cluster, tmp_path, capsys):
    out = tmp_path / "r.csv"
    address = cluster.scheduler_address
    status = main(
        ["sweep", str(SEPARABLE), "--seeds", "0:4", "--scheduler", address, "--out", str(out)]
    )
    assert status == 0
    assert len(out.read_text().splitlines()) == 5
    assert f"{SEPARABLE}: 4 games" in capsys.readouterr().out.splitlines()  # the title whole
