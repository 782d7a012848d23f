"""The two networks, as torch modules: the tile map (where tops lie, their colour, what is not
table) and the creature embedder (what is printed on one rectified tile top)."""

from __future__ import annotations

import torch
from torch import nn

from vision.creatures import EMBEDDING
from vision.tilemaps import MAP_CHANNELS

HEAT_PRIOR = -2.19  # initial centre-heat logit (probability 0.1), so early training is not swamped by negatives


def _conv(cin: int, cout: int, dilation: int = 1, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _merge(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         _conv(cout, cout))


class TileMapNet(nn.Module):
    """A small U-Net: a quarter-size frame in, maps at half its size (an eighth of the frame) out.

    Output channels: centre heat (logit), sub-cell offset x/y, log pitch (in output cells),
    then one logit per pixel class (``vision.tilemaps.CLASSES``).
    """

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(_conv(3, w, stride=2), _conv(w, w))
        self.down1 = nn.Sequential(nn.MaxPool2d(2), _conv(w, 2 * w), _conv(2 * w, 2 * w))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), _conv(2 * w, 3 * w), _conv(3 * w, 3 * w, 2))
        self.down3 = nn.Sequential(nn.MaxPool2d(2), _conv(3 * w, 4 * w, 2), _conv(4 * w, 4 * w, 4))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.merge2 = _merge(7 * w, 3 * w)
        self.merge1 = _merge(5 * w, 2 * w)
        self.merge0 = _merge(3 * w, w)
        self.head = nn.Conv2d(w, MAP_CHANNELS, 1)
        nn.init.constant_(self.head.bias[0], HEAT_PRIOR)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        s0 = self.stem(image)
        s1 = self.down1(s0)
        s2 = self.down2(s1)
        s3 = self.down3(s2)
        x = self.merge2(torch.cat([self.up(s3), s2], 1))
        x = self.merge1(torch.cat([self.up(x), s1], 1))
        x = self.merge0(torch.cat([self.up(x), s0], 1))
        return self.head(x)


class CreatureNet(nn.Module):
    """A rectified tile-top crop in, an L2-normalised embedding out (classes are found by
    comparing embeddings with prototypes learnt from a set's enrollment photo)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.body = nn.Sequential(
            _conv(3, w), nn.MaxPool2d(2),
            _conv(w, 2 * w), _conv(2 * w, 2 * w), nn.MaxPool2d(2),
            _conv(2 * w, 4 * w), _conv(4 * w, 4 * w), nn.MaxPool2d(2),
            _conv(4 * w, 6 * w), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(6 * w, EMBEDDING))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.body(crops), dim=1)
