"""The guard every workflow job runs under: one line and an exit status, never a traceback.

A job script (workflow/scripts/) enters :func:`job` before it imports anything of its own, so
that an interrupt (Ctrl-C, Snakemake stopping a wave) that arrives while the job still imports
ends in the same one line as one that arrives while it trains. This module imports the standard
library and the error type only, so that the guard is up at once.

A run stops its jobs with :data:`STOP` (`reprocompare run` and `sequential`: snakemake itself
gets SIGINT, every other process of its group this), not with SIGINT: a job's Python turns a
SIGINT into a KeyboardInterrupt from its first instruction on, and one still in snakemake's
script preamble (importing snakemake, before its guard) would end in a traceback. SIGTERM's
default ends such a job silently; inside the guard it is an interrupt, and ends in one line.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import sys

from reprocompare.base.errors import UserError

#: the signal a run stops its jobs with (see the module's docstring)
STOP = signal.SIGTERM


def _interrupt(signum, frame):
    raise KeyboardInterrupt


@contextlib.contextmanager
def job(log_path: str | None):
    """Send progress to the job's log, and turn a UserError, an interrupt (Ctrl-C, :data:`STOP`,
    Snakemake stopping), a full disk or exhausted memory into one line and a non-zero exit
    status (130 for an interrupt, else 1), never a traceback. Outputs are written atomically,
    so none is left half-written.

    Parameters
    ----------
    log_path : str or None
        The job's log file; None: progress to stderr.

    Yields
    ------
    None
    """
    stream = open(log_path, "w", encoding="utf-8") if log_path else sys.stderr
    previous, sys.stderr = sys.stderr, stream

    def fail(message: str, status: int):
        # the log, then the terminal (once, when the log is the terminal)
        targets = ((stream, "error: "),) if log_path else ()
        for out, prefix in (*targets, (previous, "reprocompare: error: ")):
            with contextlib.suppress(OSError, ValueError):
                print(f"{prefix}{message}", file=out, flush=True)
        raise SystemExit(status) from None

    stop = None
    try:
        # inside the try: a STOP from the moment its handler is set is an interrupt here
        with contextlib.suppress(ValueError):  # not the main thread: no handler of ours
            stop = signal.signal(STOP, _interrupt)
        yield
    except UserError as error:
        fail(str(error), 1)
    except KeyboardInterrupt:
        fail("interrupted; nothing half-written is kept (rerun to resume)", 130)
    except MemoryError:
        fail("out of memory: give the job more (models.<name>.resources.mem_mb) or a smaller "
             "model", 1)
    except RuntimeError as error:  # torch's allocators say so in a RuntimeError
        if "out of memory" not in str(error) and "can't allocate memory" not in str(error):
            raise
        fail(f"out of memory ({str(error).splitlines()[0][:200]}): give the job more "
             "(models.<name>.resources.mem_mb) or a smaller model", 1)
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES):
            raise
        fail(f"{error.strerror}: {error.filename or 'an output'} (free space or fix the "
             "permissions, then rerun)", 1)
    finally:
        if stop is not None:
            signal.signal(STOP, stop)
        sys.stderr = previous
        if log_path:
            stream.close()
