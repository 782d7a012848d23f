"""Versioned, validated, atomically written calibration files (JSON).

Every file carries ``{"kind": ..., "version": ..., "data": ...}``. Loading checks all
three, the file's size, its nesting depth and that every number is finite, and raises
``CalibrationFileError`` with a message that says how to recalibrate. ``array`` checks one
numeric field's shape and finiteness for the loaders of each kind.
Writing goes to a temporary file in the same folder, is flushed to disk, then renamed
over the target, so a crash never leaves a half-written file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Sequence

import numpy as np

MAX_FILE_BYTES = 8 * 2 ** 20
MAX_DEPTH = 16
RECALIBRATE_HINT = {
    "camera": "run 'hivecam calibrate camera' with photos of the ChArUco board",
    "profile": "run 'hivecam calibrate enroll PHOTO... --out PROFILE' with your pieces laid out",
}


class CalibrationFileError(ValueError):
    """A calibration file is missing, corrupt, of the wrong kind or version."""


def array(value: Any, shape: Sequence[int | None], name: str) -> np.ndarray:
    """``value`` as a float array of ``shape`` (None: any length) with finite entries;
    ``ValueError`` naming ``name`` otherwise."""
    try:
        result = np.array(value, np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} is not an array of numbers") from None
    if result.ndim != len(shape) or any(n is not None and n != m for n, m in zip(shape, result.shape)):
        wanted = "x".join("N" if n is None else str(n) for n in shape)
        raise ValueError(f"{name} must be {wanted} numbers, not {'x'.join(map(str, result.shape)) or 'one'}")
    if not np.isfinite(result).all():
        raise ValueError(f"{name} has a number that is not finite")
    return result


def _finite(text: str) -> float:
    value = float(text)
    if not np.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number hivecam accepts")


def depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (iteratively: no recursion limit)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            pending.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _parse(text: str) -> Any:
    """JSON with finite numbers only, nested at most ``MAX_DEPTH`` deep; ``ValueError`` otherwise."""
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    if depth(value) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return value


def write_atomic(path: str | os.PathLike[str], content: bytes, mode: int = 0o644) -> Path:
    """Write ``content`` to ``path`` (permissions ``mode``) via a synced temporary file and a
    rename; return the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def save(path: str | os.PathLike[str], kind: str, version: int, data: dict[str, Any]) -> Path:
    """Write ``data`` as a calibration file of ``kind`` atomically; return the path."""
    text = json.dumps({"kind": kind, "version": version, "data": data}, indent=1)
    return write_atomic(path, text.encode("utf-8"))


def load(path: str | os.PathLike[str], kind: str, version: int) -> dict[str, Any]:
    """Read and validate a calibration file of ``kind``; return its ``data``."""
    source = Path(path)
    hint = RECALIBRATE_HINT.get(kind, "recalibrate")
    try:
        if source.stat().st_size > MAX_FILE_BYTES:
            raise CalibrationFileError(f"{source}: too large for a {kind} calibration "
                                       f"(over {MAX_FILE_BYTES // 2 ** 20} MB); {hint}")
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError(f"{source}: no such {kind} calibration file; {hint}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationFileError(f"{source}: cannot read {kind} calibration ({exc}); {hint}") from exc
    try:
        wrapper = _parse(text)
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(
            f"{source}: corrupt {kind} calibration (not valid JSON: {exc.msg} at line {exc.lineno}); {hint}"
        ) from exc
    except ValueError as exc:
        raise CalibrationFileError(f"{source}: corrupt {kind} calibration ({exc}); {hint}") from exc
    if not isinstance(wrapper, dict) or "kind" not in wrapper or "data" not in wrapper:
        raise CalibrationFileError(f"{source}: not a hivecam calibration file; {hint}")
    if wrapper["kind"] != kind:
        raise CalibrationFileError(
            f"{source}: this is a {wrapper['kind']!r} file, expected a {kind!r} file; {hint}")
    if wrapper.get("version") != version:
        raise CalibrationFileError(
            f"{source}: {kind} file version {wrapper.get('version')!r}, this hivecam reads version "
            f"{version}; {hint}")
    if not isinstance(wrapper["data"], dict):
        raise CalibrationFileError(f"{source}: {kind} calibration has no data; {hint}")
    return wrapper["data"]
