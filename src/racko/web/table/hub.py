"""The table room's one object: :class:`Hub`, every table this process plays, made of one class per concern."""

from __future__ import annotations

from racko.web.table.ways import WaysOut


class Hub(WaysOut):
    """Every table this server process plays, and the people watching them: the tables and their leases
    (:mod:`.registry`), who watches and what each is shown (:mod:`.watching`), moves, hints and reactions
    (:mod:`.moves`), computer players (:mod:`.computer`), seats and set-ups (:mod:`.seating`), the clocks
    (:mod:`.clocks`), the ways out of a game (:mod:`.ways`)."""
