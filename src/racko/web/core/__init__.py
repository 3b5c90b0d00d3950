"""What every room of the web server shares: errors, HTTP helpers and the headers of every response, limits on what
a client may ask, frames from a socket, and the pages (a room's HTML with the shared head, header and words)."""

from racko.web.core.errors import WebError
from racko.web.core.frames import CLOSING_SECONDS, FRAME_LIMIT, after_closing, read_frame
from racko.web.core.http import (
    SECURITY_HEADERS,
    HeadersOnEveryResponse,
    Refused,
    answers_refusals,
    client_address,
    json_body,
    refused,
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
    WEB,
    WORDS_MARK,
    page,
    page_text,
    page_words,
    room_words_of,
    static_files,
    words_element,
)

__all__ = [
    "ALL_ADDRESSES",
    "BODY_LIMIT",
    "BURST",
    "CLOSING_SECONDS",
    "FRAME_LIMIT",
    "NEW_TABLES_PER_ADDRESS",
    "RATE",
    "SECURITY_HEADERS",
    "WEB",
    "WORDS_MARK",
    "Bucket",
    "CreationLimit",
    "HeadersOnEveryResponse",
    "Refused",
    "TooBig",
    "WebError",
    "after_closing",
    "answers_refusals",
    "client_address",
    "json_body",
    "origin_allowed",
    "page",
    "page_text",
    "page_words",
    "read_body",
    "read_frame",
    "refused",
    "room_words_of",
    "static_files",
    "words_element",
]
