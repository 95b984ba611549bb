"""The fresh-clone rule: on a machine with no `../shared` beside the clone, the tests that read
the reference texts skip with a reason naming STRATEGIUM_SHARED_DIR, so `make test` passes; with
STRATEGIUM_REQUIRE_SHARED=1 (set by `.ci/run`) they fail instead of skipping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
READS_SHARED = ["tests/test_seed_datasheets.py", "tests/test_seed_stat_lines.py"]


def run_without_shared(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("STRATEGIUM_")
    }
    # An empty folder stands for the missing ../shared (the worktree has one among its parents).
    environment |= {"STRATEGIUM_SHARED_DIR": str(tmp_path), **variables}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            *READS_SHARED,
        ],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_without_shared_the_tests_that_read_it_skip_naming_the_variable(tmp_path):
    done = run_without_shared(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " skipped" in done.stdout and " failed" not in done.stdout
    assert "set STRATEGIUM_SHARED_DIR to the shared/ folder" in done.stdout


def test_ci_makes_them_required(tmp_path):
    done = run_without_shared(tmp_path, STRATEGIUM_REQUIRE_SHARED="1")
    assert done.returncode == 1
    assert "STRATEGIUM_REQUIRE_SHARED=1 requires it" in done.stdout
    assert "STRATEGIUM_REQUIRE_SHARED=1" in (PROJECT / ".ci" / "run").read_text()
