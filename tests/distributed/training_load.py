"""Loads the checkpoint training.py saved on two ranks into an unsharded model in one process
(no process group), as a user evaluating on one device would."""

import os
import sys
from pathlib import Path

import torch
import torch.distributed.checkpoint as dcp

import torch_mojo_backend

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import transformer_lm as lm  # noqa: E402

if __name__ == "__main__":
    torch_mojo_backend.register_mojo_devices()
    folder = Path(os.environ["MOJO_DIST_RESULTS"])
    model = lm.TinyLM().to("mojo")
    state = {"model": model.state_dict()}
    dcp.load(state, checkpoint_id=str(folder / "checkpoint"))
    model.load_state_dict(state["model"])
    expected = torch.load(folder / "expected.pt")
    for name, value in model.state_dict().items():
        torch.testing.assert_close(value.cpu(), expected[name], rtol=0, atol=0, msg=name)
    print("loaded", len(expected), "tensors")
