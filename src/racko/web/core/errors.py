"""The errors every room of the web server speaks: a refused frame or request, with a code for programs and a message
for people."""

from __future__ import annotations

from racko.errors import RackoError


class WebError(RackoError):
    """A frame the server refuses: ``code`` for programs, the message for people, and ``details``: the numbers in the
    message, for a page that says it in the person's language."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.details = details
