"""Versioned, validated, atomically written calibration files (JSON).

Every file carries ``{"kind": ..., "version": ..., "data": ...}``. Loading checks all
three and raises ``CalibrationFileError`` with a message that says how to recalibrate.
Writing goes to a temporary file in the same folder, is flushed to disk, then renamed
over the target, so a crash never leaves a half-written file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

RECALIBRATE_HINT = {
    "camera": "run 'hivecam calibrate camera' with photos of the ChArUco board",
    "table": "run 'hivecam calibrate table' with the board or markers lying on the table",
    "profile": "run 'hivecam calibrate enroll PHOTO... --out PROFILE' with your pieces laid out",
}


class CalibrationFileError(ValueError):
    """A calibration file is missing, corrupt, of the wrong kind or version."""


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
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError(f"{source}: no such {kind} calibration file; {hint}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationFileError(f"{source}: cannot read {kind} calibration ({exc}); {hint}") from exc
    try:
        wrapper = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(
            f"{source}: corrupt {kind} calibration (not valid JSON: {exc.msg} at line {exc.lineno}); {hint}"
        ) from exc
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
