"""The package build's in-place copy of the C core (setup.py's BuildExt)."""

from __future__ import annotations

import os
import runpy
from pathlib import Path
from typing import Any

import pytest
import setuptools
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def build_ext_class(monkeypatch: pytest.MonkeyPatch) -> Any:
    """setup.py's build_ext command class, read without running a build."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"))
    return seen["cmdclass"]["build_ext"]


def test_in_place_copy_replaces_the_file_instead_of_writing_over_it(
    build_ext_class: Any, tmp_path: Path
) -> None:
    # A running engine has the old module mapped; writing into that inode can crash it.
    new = tmp_path / "build" / "_core.so"
    new.parent.mkdir()
    new.write_bytes(b"new module")
    old = tmp_path / "_core.so"
    old.write_bytes(b"old module, still mapped by a running engine")
    os.utime(old, (0, 0))  # older than the build, so the copy is due
    with open(old, "rb") as running:
        old_inode = os.fstat(running.fileno()).st_ino
        command = build_ext_class(Distribution())
        command.copy_file(str(new), str(old))
        assert old.read_bytes() == b"new module"
        assert os.stat(old).st_ino != old_inode
        assert running.read() == b"old module, still mapped by a running engine"


def test_copy_into_a_directory_and_onto_a_new_name(build_ext_class: Any, tmp_path: Path) -> None:
    new = tmp_path / "build" / "_core.so"
    new.parent.mkdir()
    new.write_bytes(b"module")
    dest = tmp_path / "pkg"
    dest.mkdir()
    (dest / "_core.so").write_bytes(b"stale")
    os.utime(dest / "_core.so", (0, 0))
    command = build_ext_class(Distribution())
    command.copy_file(str(new), str(dest))
    assert (dest / "_core.so").read_bytes() == b"module"
    command.copy_file(str(new), str(tmp_path / "fresh.so"))
    assert (tmp_path / "fresh.so").read_bytes() == b"module"
