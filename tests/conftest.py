"""Shared test fixtures: where the shared corpus lives (beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"


def corpus_rows(path: Path) -> list[list[str]]:
    """Tab-separated data rows of a Mzinga CSV (BOM, comments and blank lines skipped)."""
    rows = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS
