"""Fine-tuning starts from the shipped networks exactly (torch and onnx: the train extra only)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision import creatures, tilemaps  # noqa: E402
from vision.dnn import load_network  # noqa: E402
from vision.training.nets import CreatureNet, TileMapNet  # noqa: E402
from vision.training.train import Run, _loop, shipped_weights  # noqa: E402


def _shipped_output(path, blob: np.ndarray) -> np.ndarray:
    net = load_network(path, "python -m vision.training.train")
    net.setInput(blob)
    return net.forward()


@pytest.mark.parametrize("network, path, shape", [
    (TileMapNet, tilemaps.MODEL_PATH, (1, 3, 96, 160)),
    (CreatureNet, creatures.MODEL_PATH, (5, 3, 48, 48)),
])
def test_shipped_weights_give_the_shipped_networks_answers(network, path, shape) -> None:
    blob = np.random.default_rng(4).uniform(-0.5, 0.5, shape).astype(np.float32)
    model = shipped_weights(network(), path).eval()
    with torch.no_grad():
        mine = model(torch.from_numpy(blob)).numpy()
    assert np.abs(mine - _shipped_output(path, blob)).max() < 1e-4
    assert np.abs(network().eval()(torch.from_numpy(blob)).detach().numpy() - mine).max() > 1e-2  # not by chance


def test_fine_tuning_keeps_the_folded_batch_norms_frozen() -> None:
    model = shipped_weights(TileMapNet(), tilemaps.MODEL_PATH)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    before = [(n.running_mean.clone(), n.running_var.clone()) for n in norms]
    optimiser = torch.optim.SGD(model.parameters(), 1e-3)
    image = torch.rand(2, 3, 64, 64) - 0.5
    _loop(model, optimiser, Run(steps=3), lambda: model(image).square().mean(), frozen_norms=True)
    assert not any(n.training for n in norms)
    for norm, (mean, var) in zip(norms, before):
        assert torch.equal(norm.running_mean, mean) and torch.equal(norm.running_var, var)
    assert not torch.equal(model.stem[0][0].weight, shipped_weights(TileMapNet(), tilemaps.MODEL_PATH).stem[0][0].weight)
