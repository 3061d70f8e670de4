"""The Python snippets of the READMEs run as shown."""

import os
import re

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def snippets(path):
    with open(path, encoding="utf-8") as fh:
        return re.findall(r"```python\n(.*?)```", fh.read(), re.S)


@pytest.mark.parametrize("readme", ["README.md", os.path.join("python", "README.md")])
def test_readme_python_snippets_run(readme, tmp_path, monkeypatch, capsys):
    code = snippets(os.path.join(ROOT, readme))
    assert code, f"{readme}: no Python snippet"
    monkeypatch.chdir(tmp_path)  # nothing is written where the snippet runs
    for block in code:
        exec(compile(block, readme, "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip()
    assert os.listdir(tmp_path) == []


def test_docs_occlusion_example_runs_as_shown(capsys):
    """docs/python.md's occlusion example prints what its comments say."""
    with open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8") as fh:
        text = fh.read()
    block = re.search(r"## Occlusion.*?```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "docs/python.md", "exec"), {"__name__": "__docs__"})
    want = [line.split("# ")[1].split(":")[0] for line in block.splitlines() if line.startswith("print(")]
    got = capsys.readouterr().out.splitlines()
    assert got == want
