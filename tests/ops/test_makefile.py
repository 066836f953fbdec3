"""`make bench > bench.json` on a fresh clone writes the JSON document alone, and `make serve`
migrates and serves a club of one's own without loading the demo.

Terms: the *fake python* is a small script standing in for the machine's python3 (the Makefile's
PYTHON): `-m venv DIR` lays out DIR/bin/python (a copy of itself), `-m pip ...` says something on
standard output and succeeds, `manage.py bench` prints `{}` and any other `manage.py` command says
something on standard output. So every recipe line that `make bench` runs on a fresh clone really
runs, in a temporary VENV, and whatever they print outside the bench's own document shows.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = f"""#!{sys.executable}
import shutil, sys
from pathlib import Path

args = sys.argv[1:]
if args[:2] == ["-m", "venv"]:
    bin_ = Path(args[2]) / "bin"
    bin_.mkdir(parents=True)
    shutil.copy(__file__, bin_ / "python")
elif args[:2] == ["-m", "pip"]:
    print("Successfully installed pegboard (fake pip)")
elif args[:2] == ["manage.py", "bench"]:
    print("{{}}")
else:
    print("fake python ran:", " ".join(args))
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")


@pytest.fixture
def fake_python(tmp_path):
    script = tmp_path / "fake-python3"
    script.write_text(FAKE_PYTHON)
    script.chmod(0o755)
    return script


def make(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`make ARGS` as typed in a shell: not as a sub-make of the `make test` running this suite
    (a sub-make prints "Entering directory" on standard output before it reads any Makefile)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    return subprocess.run(
        ["make", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_make_bench_on_a_fresh_clone_prints_only_the_json_document(tmp_path, fake_python):
    venv = tmp_path / "venv"
    done = make("bench", f"PYTHON={fake_python}", f"VENV={venv}")
    assert done.returncode == 0, done.stderr
    assert (venv / ".installed").exists()  # the install recipe really ran
    assert json.loads(done.stdout) == {}, f"standard output was {done.stdout!r}"
    assert "venv" in done.stderr  # what make says about the venv goes to standard error


def test_make_bench_prints_only_the_json_document_when_installed(tmp_path, fake_python):
    venv = tmp_path / "venv"
    make("install", f"PYTHON={fake_python}", f"VENV={venv}")
    done = make("bench", f"PYTHON={fake_python}", f"VENV={venv}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {}, f"standard output was {done.stdout!r}"


def test_make_dash_c_bench_with_no_print_directory_prints_only_the_json_document(
    tmp_path, fake_python
):
    """From another folder: `make -C` prints "Entering directory" before it reads the Makefile,
    so docs/developers/benchmarks.md says to add --no-print-directory; then the document is
    alone again."""
    venv = tmp_path / "venv"
    args = ("--no-print-directory", "-C", str(ROOT), "bench")
    done = make(*args, f"PYTHON={fake_python}", f"VENV={venv}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {}, f"standard output was {done.stdout!r}"


def test_make_serve_migrates_and_serves_without_the_demo(tmp_path, fake_python):
    """`make serve` (docs/operators/install.md): like `make run` without loading the demo."""
    venv = tmp_path / "venv"
    done = make("serve", f"PYTHON={fake_python}", f"VENV={venv}", "PORT=8123")
    assert done.returncode == 0, done.stderr
    ran = [line for line in done.stdout.splitlines() if line.startswith("fake python ran:")]
    assert ran == [
        "fake python ran: manage.py migrate --noinput",
        "fake python ran: manage.py runserver 127.0.0.1:8123",
    ]
    assert "load_demo" not in done.stdout + done.stderr
