"""torch.distributed on mojo under torchrun: two ranks, one software device each.

Each worker script in tests/distributed/ is launched once with torchrun; every case it lists
is a test here, passing when it passed on every rank.
"""

import importlib
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import torch_mojo_backend
from conftest import EMULATED_CUDA

HERE = Path(__file__).parent / "distributed"
RANKS = 2

# Each rank takes a device of its own: software or emulated devices come in any number, GPUs
# in the number the machine has.
pytestmark = pytest.mark.skipif(
    torch_mojo_backend._C.backend_name() == "cuda"
    and not EMULATED_CUDA
    and torch.mojo.device_count() < RANKS,
    reason=f"{RANKS} ranks need {RANKS} GPUs",
)
sys.path.insert(0, str(HERE))


def _cases(script: str) -> list[str]:
    return list(importlib.import_module(script).cases)


def environment(folder: Path, ranks: int, **extra) -> dict:
    env = dict(os.environ)
    env.update(
        MOJO_DIST_RESULTS=str(folder),
        TORCH_MOJO_BACKEND_SOFTWARE="1",
        TORCH_MOJO_BACKEND_SOFTWARE_DEVICES=str(ranks),
        TORCH_MOJO_BACKEND_SHADOW_NVRTC="0",
        PYTHONPATH=os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")]),
        **extra,
    )
    return env


def outcomes_in(folder: Path, ranks: int) -> list:
    found = []
    for r in range(ranks):
        path = folder / f"rank{r}.json"
        found.append(json.loads(path.read_text()) if path.exists() else None)
    return found


def launch(script: str, folder: Path, ranks: int = RANKS, timeout: int = 900, **extra):
    """Runs `script` with torchrun; the finished process and the per-rank outcomes."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    command += [f"--nproc-per-node={ranks}", str(HERE / f"{script}.py")]
    env = environment(folder, ranks, **extra)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    return done, outcomes_in(folder, ranks)


def launch_without_agent(
    script: str, folder: Path, ranks: int = RANKS, timeout: int = 300, **extra
):
    """Starts each rank itself (no torchrun agent to stop the others when one dies), with a
    free port for the group and another for a case that rejoins (MOJO_DIST_REJOIN_PORT)."""
    with socket.socket() as probe, socket.socket() as second:
        probe.bind(("127.0.0.1", 0))
        second.bind(("127.0.0.1", 0))
        port, rejoin_port = probe.getsockname()[1], second.getsockname()[1]
    processes = []
    for r in range(ranks):
        env = environment(folder, ranks, **extra)
        env.update(
            RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(ranks), LOCAL_WORLD_SIZE=str(ranks)
        )
        env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        env.update(MOJO_DIST_REJOIN_PORT=str(rejoin_port))
        processes.append(
            subprocess.Popen(
                [sys.executable, str(HERE / f"{script}.py")],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    logs = [p.communicate(timeout=timeout)[0] for p in processes]
    return logs, outcomes_in(folder, ranks)


@pytest.fixture(scope="module")
def outcomes(request, tmp_path_factory):
    cache = {}

    def get(script):
        if script not in cache:
            folder = tmp_path_factory.mktemp(script)
            done, found = launch(script, folder)
            cache[script] = (done, found, folder)
        return cache[script]

    return get


def check(outcomes, script, name):
    done, found, _ = outcomes(script)
    for r, ranks in enumerate(found):
        assert ranks is not None, (
            f"rank {r} wrote no outcomes:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
        )
        assert ranks[name] == "ok", f"rank {r}: {ranks[name]}"


@pytest.mark.parametrize("name", _cases("collectives"))
def test_collective(outcomes, name):
    check(outcomes, "collectives", name)


@pytest.mark.parametrize("name", _cases("init_forms"))
def test_init_form(outcomes, name):
    check(outcomes, "init_forms", name)


@pytest.mark.parametrize("name", _cases("training"))
def test_training(outcomes, name):
    check(outcomes, "training", name)


def test_a_checkpoint_saved_on_two_ranks_loads_in_one_process(outcomes):
    check(outcomes, "training", "fsdp2_checkpoint_save")
    folder = outcomes("training")[2]
    env = environment(folder, 1)
    script = str(HERE / "training_load.py")
    done = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]


@pytest.mark.parametrize("name", _cases("failures"))
def test_failure(tmp_path, name):
    logs, found = launch_without_agent("failures", tmp_path, MOJO_DIST_CASE=name)
    survivors = [0] if name == "a_dead_rank_fails_the_survivor" else range(RANKS)
    for r in survivors:
        assert found[r] is not None, f"rank {r} wrote no outcome:\n{logs[r][-6000:]}"
        assert found[r][name] == "ok", f"rank {r}: {found[r][name]}"


def _documented_scripts() -> dict[str, str]:
    """The scripts of docs/distributed.md: its Python blocks whose first line names a file."""
    text = (HERE.parents[1] / "docs" / "distributed.md").read_text()
    blocks = re.findall(r"```python\n# (\S+\.py)\n(.*?)```", text, flags=re.S)
    return dict(blocks)


@pytest.mark.parametrize("script", sorted(_documented_scripts()))
def test_documented_example_runs_under_torchrun(tmp_path, script):
    (tmp_path / script).write_text(_documented_scripts()[script])
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    command += [f"--nproc-per-node={RANKS}", str(tmp_path / script)]
    env = environment(tmp_path, RANKS)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    assert "rank" in done.stdout, done.stdout
