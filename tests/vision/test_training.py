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


def test_episodes_take_their_support_from_one_frame_and_their_queries_from_others() -> None:
    from vision.training.train import QUERY, SUPPORT, _picks

    crops = np.arange(10, 22)
    frames = np.zeros(40, np.int64)
    frames[crops] = [3, 3, 5, 5, 5, 7, 8, 8, 9, 9, 9, 9]
    rng = np.random.default_rng(0)
    for _ in range(50):
        picks = _picks(crops, frames, rng)
        support, queries = frames[picks[:SUPPORT]], frames[picks[SUPPORT:]]
        assert len(picks) == SUPPORT + QUERY and set(picks) <= set(crops)
        assert len(set(support)) == 1 and support[0] not in queries
    lone = np.array([0, 1, 2, 3])  # all from one frame: no query from another, so any four
    assert sorted(_picks(lone, np.zeros(4, np.int64), rng)) == [0, 1, 2, 3]
    assert sorted(_picks(lone, None, rng)) == [0, 1, 2, 3]


def test_shards_load_only_the_fields_asked_for_and_skip_one_cut_short(tmp_path) -> None:
    from vision.training.train import CROP_FIELDS, _shards

    np.savez(tmp_path / "shard-1-0000.npz", images=np.zeros((2, 4, 4, 3), np.uint8), crops=np.ones((3, 2, 2, 3)),
             keys=np.array(["a/0/0/wQ"] * 3), frames=np.array([0, 0, 1]))
    (tmp_path / "shard-1-0001.npz").write_bytes((tmp_path / "shard-1-0000.npz").read_bytes()[:100])
    shards = _shards(tmp_path, fields=CROP_FIELDS)
    assert len(shards) == 1 and set(shards[0]) == {"crops", "keys", "frames"}
    assert set(_shards(tmp_path)[0]) == {"images", "crops", "keys", "frames"}
