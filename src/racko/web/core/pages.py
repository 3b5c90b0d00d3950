"""The rooms' pages as they are served: a room's HTML from its ``static/`` folder, with the head, header and words
the pages share put in, and its files under ``/static/<room>/``."""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from racko.analysis.words import LANGUAGES, checked_words, room_words
from racko.web.core.http import SECURITY_HEADERS

WEB = Path(__file__).parent.parent
"""The web package: each room's files are in its folder's ``static/``."""


def static_files(room: str) -> Mount:
    """A room's files (scripts, styles), served under ``/static/<room>/``."""
    return Mount(f"/static/{room}", StaticFiles(directory=WEB / room / "static"), name=f"static-{room}")


HEADER_MARK = re.compile(r"<!--header (\S+)-->")
WORDS_MARK = re.compile(r"<!--words ([^>]*)-->\n")
PART_MARK = re.compile(r"<!--part (\w+)/(_[\w.]+\.html)-->\n")
ANALYSIS_ROOM = "analysis:"


FIRST_LANGUAGE = "en"
"""Every page carries the words of this language (the fallback of every other), and of the page's own."""
LANGUAGE_COOKIE = "racko-lang"
"""The language a person chose on a page (the pages set it with their language box): the next page comes in it."""


def page_language(cookie: str | None, accept: str | None) -> str:
    """The language a page is served in: the one the person chose (the cookie), else the first of the browser's
    (``Accept-Language``) that racko speaks, else English."""
    if cookie in LANGUAGES:
        return str(cookie)
    for part in (accept or "").split(",")[:20]:
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return FIRST_LANGUAGE


@functools.cache
def page_text(room: str, name: str, language: str = FIRST_LANGUAGE) -> str:
    """A page of a room's ``static/`` as it is served: ``<!--head-->`` becomes the head the start page, the lobby and
    the players' pages share (``_head.html``), ``<!--header /PATH-->`` their header (``_header.html``), with the link to
    PATH marked as the current page, ``<!--part ROOM/_NAME.html-->`` that room's part of the page (a section and the
    script that runs it, from that room's ``static/``: the player's page shows the push room's), and ``<!--words ROOM
    ...-->`` the words of those rooms in English and ``language`` (:func:`words_element`)."""
    text = (WEB / room / "static" / name).read_text(encoding="utf-8")
    text = text.replace("<!--head-->\n", _part("_head.html"))
    mark = HEADER_MARK.search(text)
    if mark is not None:
        link = f'href="{mark.group(1)}"'
        text = text.replace(mark.group(0) + "\n", _part("_header.html").replace(link, link + ' aria-current="page"'))
    text = PART_MARK.sub(lambda part: _part(part.group(2), part.group(1)), text)
    return WORDS_MARK.sub(lambda words: words_element(words.group(1).split(), language), text)


def _part(name: str, room: str = "core") -> str:
    """A part of the pages (the core's, which they share, or a room's), without its first line (the comment that
    says what it is)."""
    return (WEB / room / "static" / name).read_text(encoding="utf-8").split("\n", 1)[1]


def words_element(rooms: list[str], language: str = FIRST_LANGUAGE) -> str:
    """The words of ``rooms`` as a data block that i18n.js reads when the page starts: JSON that is never run (the
    page's script-src stays 'self'), in the page itself, so that its words come with no request of their own: English
    (every other language's fallback) and ``language``; the page asks for another language's words
    (:func:`words_route`) only when the person chooses it.  Every ``<`` is escaped, so that no word can end the
    block."""
    words = page_words(tuple(rooms))
    carried = {code: words[code] for code in dict.fromkeys((FIRST_LANGUAGE, language))}
    data = json.dumps(carried, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="racko-words" data-rooms="{" ".join(rooms)}">{data}</script>\n'


def page_words(rooms: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The words of ``rooms`` by language, then key: a web room's (``core``, ``table``, ``lobby``, ...) from its
    ``words.json`` in the package, an analysis room's (``analysis:hints``, ...) from :mod:`racko.analysis.words`.
    Rooms never share a key: one that two rooms say is refused."""
    merged: dict[str, dict[str, str]] = {code: {} for code in LANGUAGES}
    for room in rooms:
        for code, templates in room_words_of(room).items():
            twice = merged[code].keys() & templates.keys()
            if twice:
                raise ValueError(f"The words of {room} say {sorted(twice)[0]!r} a second time.")
            merged[code].update(templates)
    return merged


def room_words_of(room: str) -> dict[str, dict[str, str]]:
    """One room's words by language, then key (see :func:`page_words`)."""
    if room.startswith(ANALYSIS_ROOM):
        return room_words(room.removeprefix(ANALYSIS_ROOM))
    where = f"racko/web/{room}/words.json"
    text = resources.files("racko.web").joinpath(room, "words.json").read_text(encoding="utf-8")
    return checked_words(json.loads(text), where)


def page(room: str, name: str, request: Request) -> Response:
    """A room's page in the person's language (:func:`page_language`), with the security headers every page has."""
    language = page_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))
    headers = {**SECURITY_HEADERS, "Vary": "Cookie, Accept-Language"}
    return HTMLResponse(page_text(room, name, language), headers=headers)


ROOMS_WITH_WORDS = frozenset(
    [path.parent.name for path in WEB.glob("*/words.json")]
    + [ANALYSIS_ROOM + path.stem for path in (WEB.parent / "analysis" / "words").glob("*.json")]
)
"""The rooms whose words a page may ask for: the web rooms' and the analysis's (``analysis:hints``, ...)."""


def words_route() -> Route:
    """``GET /api/words/{language}?rooms=core+table``: the words of those rooms in that language, for a page whose
    person chose a language it does not carry (the same origin; cached a day, since words change only with racko)."""

    async def words(request: Request) -> Response:
        language = request.path_params["language"]
        rooms = request.query_params.get("rooms", "").split()[:8]
        if language not in LANGUAGES or not rooms or not set(rooms) <= ROOMS_WITH_WORDS:
            return JSONResponse({"error": "No such words."}, status_code=404, headers=SECURITY_HEADERS)
        said = page_words(tuple(rooms))[language]
        return JSONResponse(said, headers={**SECURITY_HEADERS, "Cache-Control": "public, max-age=86400"})

    return Route("/api/words/{language}", words)
