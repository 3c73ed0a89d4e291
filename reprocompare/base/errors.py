"""The one exception type for mistakes a user can make (a corpus, a config, a spec).

The CLI and the workflow scripts turn it into a single line on stderr and a non-zero exit, with no
traceback: the message must say everything, so it names the file and line, or the config key.
"""

from __future__ import annotations


class UserError(ValueError):
    """Bad input from the user. ``str()`` is the complete one-line message.

    Parameters
    ----------
    message : str
        What is wrong, in one line.
    path : str, optional
        The file it is in.
    line : int, optional
        The line of that file, 1-based.
    key : str, optional
        The config key it concerns.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 key: str | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.key = key
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.key is not None:
            where = f"{where}: {self.key}" if where else self.key
        return f"{where}: {self.message}" if where else self.message
