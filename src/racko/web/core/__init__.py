"""What every room of the web server shares: the one refusal (code, sentence, HTTP status), HTTP helpers and the
headers of every response, limits on what a client may ask, frames from a socket, and the pages (a room's HTML with
the shared head, header and words)."""

from racko.web.core.errors import STATUS, Refusal
from racko.web.core.frames import CLOSING_SECONDS, FRAME_LIMIT, after_closing, read_frame
from racko.web.core.http import (
    SECURITY_HEADERS,
    HeadersOnEveryResponse,
    answers_refusals,
    client_address,
    json_body,
)
from racko.web.core.limits import (
    ALL_ADDRESSES,
    BODY_LIMIT,
    BURST,
    NEW_TABLES_PER_ADDRESS,
    RATE,
    Bucket,
    CreationLimit,
    TooBig,
    origin_allowed,
    read_body,
)
from racko.web.core.pages import (
    LANGUAGE_COOKIE,
    WEB,
    WORDS_MARK,
    page,
    page_language,
    page_text,
    page_words,
    room_words_of,
    static_files,
    words_element,
    words_route,
)

__all__ = [
    "ALL_ADDRESSES",
    "BODY_LIMIT",
    "BURST",
    "CLOSING_SECONDS",
    "FRAME_LIMIT",
    "LANGUAGE_COOKIE",
    "NEW_TABLES_PER_ADDRESS",
    "RATE",
    "SECURITY_HEADERS",
    "STATUS",
    "WEB",
    "WORDS_MARK",
    "Bucket",
    "CreationLimit",
    "HeadersOnEveryResponse",
    "Refusal",
    "TooBig",
    "after_closing",
    "answers_refusals",
    "client_address",
    "json_body",
    "origin_allowed",
    "page",
    "page_language",
    "page_text",
    "page_words",
    "read_body",
    "read_frame",
    "room_words_of",
    "static_files",
    "words_element",
    "words_route",
]
