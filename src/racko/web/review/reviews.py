"""The review of a table's game in the browser: every decision graded (racko.analysis.review), for those who may
see it, worked out in a process of its own so that no table ever waits for one.

Who sees what: while the game is on, a seat (by its link's token, or by the player's cookie, as the table's socket
tells seats apart) sees the review of its own decisions, in the rounds that have ended, and nobody else sees
anything; once the game is over its record is open (``/api/tables/{table}/record``) and anyone sees every seat's
decisions.  Each decision is judged from its player's own view only, and the worker is handed the game up to the
last round that ended: the round being played never leaves the table.

Reviews are long (seconds for a round, about twenty for a whole game on two cores), so they run in one worker
process at a lower priority, one after another, a few waiting at most; the same request joins the review already
under way, and finished reviews are kept (the same seed gives the same review).  Any process of a cluster can answer:
the game is read from the store, as the record's route reads it.  docs/REVIEW.md and docs/PROTOCOL.md describe it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.context import SpawnProcess
from typing import Any

from racko.analysis.evaluate import FIRST_PLAYOUTS, MORE_PLAYOUTS, MoveValue
from racko.analysis.explain import Sentence, behind, move_sentence, round_percent, why
from racko.analysis.review import CHECK_PLAYOUTS, Decision, Review, SeatReview, review
from racko.analysis.review import Progress as ReviewProgress
from racko.errors import RackoError
from racko.match import Match
from racko.observation import Observation
from racko.play.text import record_names
from racko.record import GameRecord, replay
from racko.rules import variant
from racko.web.core import Refusal
from racko.web.store import DamagedTableError, TableStore
from racko.web.table import Setup, SetupError, made_by_of, replay_stored, seat_of_token

SEED = 0
"""Every review's seed: the same game gets the same review, whoever asks and whenever."""
THREADS = 2
"""Threads the worker judges rounds on (the play-outs run outside Python's lock)."""
NICENESS = 10
"""How much lower the worker's priority is than the server's: the tables come first."""
WAITING = 6
"""Reviews under way or waiting at once; one more is refused (503) until one is done."""
KEPT = 16
"""Finished reviews kept in memory, the least recently asked for forgotten first (a whole game's is up to about half a
megabyte of JSON)."""
POLL_SECONDS = 0.5
"""How often the reader of the worker's answers looks whether the worker is still alive."""
PARENT_SECONDS = 1.0
"""How often the worker looks whether the server that started it is still alive."""


@dataclass
class Job:
    """One review under way or waiting, as the page follows it."""

    key: str
    done: int = 0
    total: int = 0
    started: bool = False
    error: str | None = None


@dataclass(frozen=True)
class Asked:
    """What a request may see reviewed: the game up to its last ended round, the seats and rounds to grade."""

    table: str
    game: int
    over: bool
    you: int | None
    record: GameRecord
    seats: tuple[int, ...] | None
    """``None``: every seat."""
    rounds: tuple[int, ...]


# --- who may see what --------------------------------------------------------------------------------------------


def what_to_review(
    store: TableStore,
    finished: Callable[[str], str | None],
    table_id: str,
    game: int | None,
    round_number: int | None,
    token: str | None,
    player_id: str | None,
) -> Asked:
    """The game ``game`` of the table (default: its current one) as the asker may see it reviewed; :class:`Refusal`
    with the reason otherwise.  ``finished`` gives a finished game's record by its id (``TABLE-N``) when the table
    itself has been forgotten.  Blocking: call it in a worker thread."""
    try:
        stored = store.load(table_id) if 0 < len(table_id) <= 40 else None
    except DamagedTableError:
        raise Refusal("damaged", "This table's saved game is damaged: it cannot be reviewed.") from None
    records = store.records(table_id) if stored is not None else []
    try:
        setup = Setup.of_json(stored.setup) if stored is not None else None
    except SetupError:
        raise Refusal("damaged", "This table's saved game is damaged: it cannot be reviewed.") from None
    current = setup.game if setup is not None else None
    number = game if game is not None else current
    if number is None:
        raise Refusal("no-table", "There is no such table.")
    you: int | None = None
    if setup is not None:
        you = seat_of_token(setup, token) if token else None
        if token and you is None:
            raise Refusal("not-your-seat", "This link is not a seat at this table.")
        if you is None and player_id is not None:
            you = setup.seat_of_player(player_id)
    text = records[number - 1] if 1 <= number <= len(records) else None
    if text is None and number != current:
        text = finished(f"{table_id}-{number}") if number >= 1 else None
        if text is None:
            raise Refusal("not-found", "There is no such game at this table.")
    if text is not None:
        try:
            record = GameRecord.loads(text)
        except RackoError:
            raise Refusal("damaged", "This game's record is damaged: it cannot be reviewed.") from None
        return Asked(table_id, number, True, you, record, None, _rounds(round_number, len(record.rounds)))
    assert stored is not None and setup is not None
    match = _replayed(table_id, setup, list(stored.actions))
    record = GameRecord.of(match, players=tuple(setup.names))
    record = replace(record, made_by=made_by_of(setup, record, stored.made_by))  # not the person's moves
    if match.over:  # over, its record not filed yet
        return Asked(table_id, number, True, you, record, None, _rounds(round_number, len(record.rounds)))
    if you is None:
        raise Refusal(
            "not-your-seat",
            "While the game is on, each player may review only their own moves, from their seat's link; everyone "
            "may review it once it is over.",
        )
    ended = len(match.results)
    if ended == 0:
        raise Refusal("not-over", "No round of this game has ended yet: a round is reviewed once it is over.")
    if round_number is not None and ended < round_number <= len(record.rounds):
        raise Refusal("not-over", f"Round {round_number} has not ended yet: a round is reviewed once it is over.")
    rounds = _rounds(round_number, ended)
    played_so_far = replace(record, rounds=record.rounds[:ended])
    return Asked(table_id, number, False, you, played_so_far, (you,), rounds)


def _rounds(round_number: int | None, count: int) -> tuple[int, ...]:
    if round_number is None:
        return tuple(range(1, count + 1))
    if not 1 <= round_number <= count:
        raise Refusal("bad-round", f"There is no round {round_number} to review in this game: it has {count}.")
    return (round_number,)


def _replayed(table_id: str, setup: Setup, actions: list[dict[str, Any]]) -> Match:
    """The table's game from its stored set-up and journal, as the table itself is opened."""
    try:
        return replay_stored(table_id, setup, actions)
    except DamagedTableError:
        raise Refusal("damaged", "This table's saved game is damaged: it cannot be reviewed.") from None


# --- the review as the page shows it -----------------------------------------------------------------------------


def review_json(
    record: GameRecord,
    seats: Sequence[int] | None,
    rounds: Sequence[int],
    *,
    first: int = FIRST_PLAYOUTS,
    more: int = MORE_PLAYOUTS,
    threads: int = THREADS,
    progress: ReviewProgress | None = None,
) -> dict[str, Any]:
    """The review of ``seats`` in ``rounds`` for the page: ``racko review --json``'s keys, with each decision's
    round, its moves in words, why the best move is best where it was not played, and each seat's accuracy and
    classes per round."""
    result = review(
        record,
        seats=seats,
        rounds=rounds,
        reveal=True,
        seed=SEED,
        jobs=threads,
        first=first,
        more=more,
        progress=progress,
        check=first * CHECK_PLAYOUTS // FIRST_PLAYOUTS,  # as rough as the rest: --review-playouts makes it quicker
    )
    names = record_names(record.players, record.rules.players)
    reasons = _reasons(record, result, names)
    return {
        "measure": result.measure,
        "playouts": result.playouts,
        "variant": record.rules.variant,
        "title": variant(record.rules.variant).title,
        "rounds": list(rounds),
        "seats": [_seat_json(seat, reasons) for seat in result.seats],
    }


def _seat_json(seat: SeatReview, reasons: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    by_round = seat.rounds()
    return {
        **{key: value for key, value in seat.to_json().items() if key != "decisions"},
        "counts": seat.counts(),
        "rounds": [
            {"round": number, "accuracy": seat.round_accuracies()[number], "counts": seat.counts(found)}
            for number, found in by_round.items()
        ],
        "decisions": [_decision_json(decision, reasons.get(decision.action, [])) for decision in seat.decisions],
    }


def _decision_json(decision: Decision, reasons: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        **decision.to_json(),
        "round": decision.round,
        "seat": decision.seat,
        "before": round(decision.before, 4),
        "after": round(decision.after, 4),
        "played_words": move_sentence(decision.played, decision.card).to_json(),
        "best_words": move_sentence(decision.best, decision.card, decision.best_slot).to_json(),
        "why": reasons,
    }


def _reasons(record: GameRecord, result: Review, names: list[str]) -> dict[int, list[dict[str, Any]]]:
    """Why the best move is best, for each decision where another move was played: the hint's sentences of the best
    move from the player's own view then, and how far the move played fell behind."""
    costly = {
        decision.action: decision for seat in result.seats for decision in seat.decisions if decision.grade != "best"
    }
    reasons: dict[int, list[dict[str, Any]]] = {}
    if not costly:
        return reasons
    match = replay(record, stop_after=0)
    number = 0
    for round_record in record.rounds:
        for action in round_record.actions:
            number += 1
            decision = costly.get(number)
            if decision is not None:
                reasons[number] = [
                    sentence.to_json() for sentence in _why(match.observation(action.seat), decision, names)
                ]
            match.apply(action)
    return reasons


def _why(observation: Any, decision: Decision, names: list[str]) -> list[Sentence]:
    sentences: list[Sentence] = []
    if isinstance(observation, Observation):
        best = MoveValue(decision.best, decision.before, decision.best_slot)
        sentences = why(observation, decision.best, best, None, names)
    if decision.measure == "win_chance" and decision.game_before is not None:
        # a game's review where the game's chance could not tell the moves apart: the round's chance graded it
        shown = round_percent(decision.after)
        values = {"round": shown, "points": round_percent(decision.before) - shown}
        sentences.append(Sentence("why:behind-round", values))
        return sentences
    sentences += behind(decision.measure, decision.loss, _gap(decision), decision.stake)
    return sentences


def _gap(decision: Decision) -> float:
    """A decision's loss as the page says it: points of a chance (a tenth of a point of the game's), or turns."""
    if decision.measure == "game_chance":
        return round(100 * decision.loss, 1)
    return round(100 * decision.loss) if decision.measure == "win_chance" else round(decision.loss, 1)


# --- the worker process ------------------------------------------------------------------------------------------


def _work(orders: Any, answers: Any, niceness: int) -> None:
    """The worker: reviews one order after another, telling its progress and its answer (an error in one line)."""
    with contextlib.suppress(OSError):
        os.nice(niceness)
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    while True:
        order = orders.get()
        if order is None:
            return
        key, text, seats, rounds, first, more, threads = order

        def progress(done: int, total: int, key: str = key) -> None:
            answers.put(("progress", key, done, total))

        try:
            found = review_json(
                GameRecord.loads(text), seats, rounds, first=first, more=more, threads=threads, progress=progress
            )
            answers.put(("done", key, found))
        except Exception as error:  # any failure is the page's one line, never a traceback; the worker goes on
            answers.put(("failed", key, (str(error).strip().splitlines() or [type(error).__name__])[0][:200]))


def _end_with(parent: int) -> None:
    """End the worker as soon as the server that started it is gone, however it ended (killed, crashed): a worker
    whose server died would otherwise wait for orders for ever."""
    while os.getppid() == parent:
        time.sleep(PARENT_SECONDS)
    os._exit(0)


class Reviews:
    """The reviews under way (one at a time, in a process of their own started when first needed) and those done."""

    def __init__(
        self,
        *,
        first: int = FIRST_PLAYOUTS,
        more: int = MORE_PLAYOUTS,
        threads: int = THREADS,
        waiting: int = WAITING,
        kept: int = KEPT,
    ) -> None:
        self.first, self.more, self.threads = first, more, threads
        self.waiting, self.kept = waiting, kept
        self.jobs: dict[str, Job] = {}
        """Under way or waiting, in the order they were asked for (the worker takes them in that order)."""
        self.done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")  # a fork of a process with threads is unsafe
        self._process: SpawnProcess | None = None
        self._orders: Any = None
        self._answers: Any = None
        self._closing = False

    @classmethod
    def with_playouts(cls, playouts: int | None) -> Reviews:
        """Reviews at ``playouts`` play-outs a move in their first stage, and as many more for the finalists as the
        review's own setting gives them (``None``: that setting, 32 and 160, :mod:`racko.analysis.evaluate`)."""
        first = FIRST_PLAYOUTS if playouts is None else playouts
        return cls(first=first, more=first * MORE_PLAYOUTS // FIRST_PLAYOUTS)

    def ask(self, asked: Asked) -> dict[str, Any]:
        """The review's state for the page: done (with the review), under way (decisions done and to do), or waiting
        (how many reviews are ahead).  Starts the review if nobody asked for it yet."""
        seats = list(asked.seats) if asked.seats is not None else None
        text = asked.record.dumps()
        key = hashlib.sha256(json.dumps([text, seats, asked.rounds, self.first, self.more, SEED]).encode()).hexdigest()
        with self._lock:
            found = self.done.get(key)
            if found is not None:
                self.done.move_to_end(key)
                return {"state": "done", "review": found}
            job = self.jobs.get(key)
            if job is not None and job.error is not None:
                del self.jobs[key]  # told once; asking again tries again
                raise Refusal("failed", f"The review failed: {job.error}")
            if job is None:
                if len(self.jobs) >= self.waiting:
                    raise Refusal(
                        "too-many-reviews", "Many reviews are under way: try again in a minute.", retry_after=60
                    )
                job = self.jobs[key] = Job(key)
                self._send((key, text, seats, list(asked.rounds), self.first, self.more, self.threads))
            if job.started:
                return {"state": "running", "done": job.done, "total": job.total}
            ahead = list(self.jobs).index(key)
            return {"state": "waiting", "ahead": ahead}

    def forget_done(self) -> None:
        """Drop the reviews kept: they name the players of their games, and one of them was just forgotten (a review
        asked again is made again, under the names as they are now)."""
        with self._lock:
            self.done.clear()

    def _send(self, order: tuple[Any, ...]) -> None:
        if self._process is None or not self._process.is_alive():
            self._start()
        self._orders.put(order)

    def _start(self) -> None:
        self._orders, self._answers = self._context.Queue(), self._context.Queue()
        self._process = self._context.Process(
            target=_work, args=(self._orders, self._answers, NICENESS), name="racko-review", daemon=True
        )
        self._process.start()
        threading.Thread(target=self._read, args=(self._process, self._answers), daemon=True).start()

    def _read(self, process: SpawnProcess, answers: Any) -> None:
        """The worker's answers, as they come; if the worker dies, the reviews it had are failed (the next review
        starts a new worker)."""
        while not self._closing:
            try:
                answer = answers.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if process.is_alive():
                    continue
                with self._lock:
                    for stopped in self.jobs.values():
                        stopped.error = stopped.error or "the reviewing process stopped; ask again."
                return
            except (OSError, EOFError, ValueError):  # the queue closed with the server
                return
            kind, key, *rest = answer
            with self._lock:
                job = self.jobs.get(key)
                if job is None:
                    continue
                if kind == "progress":
                    job.started, job.done, job.total = True, rest[0], rest[1]
                elif kind == "done":
                    del self.jobs[key]
                    self.done[key] = rest[0]
                    while len(self.done) > self.kept:
                        self.done.popitem(last=False)
                else:
                    job.error = rest[0]

    def close(self) -> None:
        """Stop the worker (a review under way is dropped: nobody waits for it any more)."""
        self._closing = True
        process = self._process
        if process is None:
            return
        with contextlib.suppress(Exception):
            self._orders.cancel_join_thread()
            self._orders.put(None)
        process.join(timeout=0.5)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
        self._process = None
