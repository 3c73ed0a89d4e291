"""A workflow job's script (reprocompare.jobs.job) ends in one line and an exit status, never a
traceback (issue 23, item 6)."""

from __future__ import annotations

import pytest

from reprocompare.errors import UserError


@pytest.mark.parametrize("raised, status, fragment", [
    (KeyboardInterrupt(), 130, "interrupted"),
    (MemoryError(), 1, "out of memory"),
    (OSError(28, "No space left on device", "results/x.json"), 1,
     "No space left on device: results/x.json"),
    (UserError("bad", path="c.yaml", key="k"), 1, "bad"),
])
def test_a_workflow_job_ends_in_one_line_never_a_traceback(tmp_path, capsys, raised, status,
                                                           fragment):
    """Issue 23, item 6: what a job script meets (an interrupt, a full disk, no memory) is one
    line in its log and on stderr, and an exit status."""
    from reprocompare.jobs import job

    log = tmp_path / "job.log"
    with pytest.raises(SystemExit) as stopped:
        with job(str(log)):
            raise raised
    assert stopped.value.code == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and fragment in err and "Traceback" not in err
    assert fragment in log.read_text()


def test_another_os_error_is_not_disguised(tmp_path):
    from reprocompare.jobs import job

    with pytest.raises(FileNotFoundError):
        with job(str(tmp_path / "job.log")):
            raise FileNotFoundError(2, "No such file or directory", "x")
