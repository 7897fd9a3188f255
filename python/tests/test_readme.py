"""The Python snippet of README.md runs as printed (no untested snippet)."""

import contextlib
import io
import os
import re

import pytest

README = os.path.join(os.environ.get("SHOAL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "README.md")


def python_snippets():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_has_its_python_snippets():
    # "Python" and "Scaling out with Dask".
    assert len(python_snippets()) == 2


def run_snippet(snippet, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "README.md", "exec"), {"__name__": "__main__"})
    lines = out.getvalue().splitlines()
    # Each print in the snippet shows its expected output in a trailing comment.
    expected = [m.group(1) for m in re.finditer(r"print\(.*\)\s+# (.*)", snippet)]
    assert lines == expected


def test_readme_python_snippet_runs(tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    run_snippet(python_snippets()[0], tmp_path, monkeypatch)


def test_readme_dask_snippet_runs(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    run_snippet(python_snippets()[1], tmp_path, monkeypatch)
