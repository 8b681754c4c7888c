"""The classroom's memory: the ONE module that touches the database.

Everything a table needs to come back after a crash is written here, in an SQLite file in
WAL mode, before the server tells anyone it happened: the tables (rules, target, seed),
who sits in each place (name, secret token, bot or not), and every accepted action, in
order, under its sequence number.  A table is rebuilt by dealing its match again from
the seed and replaying the actions (see :mod:`box_gin.classroom.tables`).

The interface is a handful of plain methods on :class:`Store`, so that a bigger
deployment can put the same rows on a server database without touching the rest.

>>> store = Store(":memory:")
>>> t = store.add_table("K7P2QX", "standard", 100, 7, "greedy", ((2, "Ada"),))
>>> store.sit(t, 0, "Zoe", "secret-token")
>>> store.add_action(t, 0, "Zoe", "pass")
>>> store.add_action(t, 0, "Zoe", "pass")
Traceback (most recent call last):
...
box_gin.classroom.store.DuplicateActionError: table 1: action 0 is already recorded
>>> [a.text for a in store.actions(t)]
['pass']
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import BoxGinError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    preset TEXT NOT NULL,
    target INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    bot_kind TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    place INTEGER NOT NULL CHECK (place BETWEEN 0 AND 2),
    name TEXT NOT NULL,
    token TEXT UNIQUE,
    bot INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, place)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    player TEXT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS hand_ends (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    ended REAL NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, hand)
);
CREATE TABLE IF NOT EXISTS ready (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (table_id, hand, place)
);
CREATE TABLE IF NOT EXISTS table_settings (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    delay INTEGER,
    closed REAL
);
CREATE TABLE IF NOT EXISTS advice (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


def private(path: str) -> None:
    """Make the database file at ``path`` readable and writable by its owner alone (it
    holds the teacher's key and every seat's token): created so, or made so."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


class StoreError(BoxGinError):
    """A write the store refused (the database is left as it was)."""


class DuplicateActionError(StoreError):
    """An action under a sequence number that is already recorded: never applied twice."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored."""

    id: int
    code: str
    preset: str
    target: int
    seed: int
    bot_kind: str
    #: The table's own wait before its next hand (seconds; None: the room's).
    delay: int | None = None
    #: When the teacher closed the table (None: open).
    closed: float | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in one place of a table (``token`` is ``None`` for a bot)."""

    place: int
    name: str
    token: str | None
    bot: bool
    #: A bot's kind (None: the table's); for a learner, whether ``token`` is a one-time
    #: link the teacher was given and that no browser has opened yet.
    kind: str | None = None
    link: bool = False


@dataclass(frozen=True, slots=True)
class HandEnd:
    """The end of a hand (by number) at a table: when, and whether the next one started."""

    hand: int
    ended: float
    started: bool


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action: its sequence number at the table, who played it, its text."""

    seq: int
    player: str
    text: str


class Store:
    """The classroom's database: ``path`` an SQLite file (``":memory:"`` for tests).

    Each write is one transaction, committed before the method returns.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            private(self.path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: each commit reaches the disk before the server acknowledges the action.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        # A database of an older kit: the seats' newer columns added.
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(seats)")}
        for column, kind in (("kind", "TEXT"), ("link", "INTEGER NOT NULL DEFAULT 0")):
            if column not in columns:
                self._db.execute(f"ALTER TABLE seats ADD COLUMN {column} {kind}")
        if self.path != ":memory:":
            # SQLite makes its -wal and -shm files with the database's own mode; a file
            # left by an older kit (or copied in) is made private too.
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.chmod(self.path + suffix, 0o600)

    def close(self) -> None:
        """Close the database (every write is already committed)."""
        self._db.close()

    @property
    def journal_mode(self) -> str:
        """The journal mode in use (``"wal"`` for a file)."""
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    # -- the teacher's key ---------------------------------------------------------------

    def teacher_key(self) -> str:
        """The secret of the teacher's page, made once and kept, so that a restart does
        not log the teacher out."""
        row = self._db.execute("SELECT value FROM meta WHERE key='teacher'").fetchone()
        if row is not None:
            return str(row[0])
        key = secrets.token_urlsafe(18)
        self._db.execute("INSERT INTO meta(key, value) VALUES ('teacher', ?)", (key,))
        return key

    # -- tables and seats ----------------------------------------------------------------

    def add_table(self, code: str, preset: str, target: int, seed: int, bot_kind: str,
                  bots: Iterable[tuple[int, str]]) -> int:
        """A new table, with its bots already seated; returns its id."""
        try:
            with self._db:
                self._db.execute("BEGIN")
                cur = self._db.execute(
                    "INSERT INTO tables(code, preset, target, seed, bot_kind, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (code, preset, target, seed, bot_kind, time.time()))
                table_id = int(cur.lastrowid or 0)
                for place, name in bots:
                    self._db.execute(
                        "INSERT INTO seats(table_id, place, name, token, bot) "
                        "VALUES (?, ?, ?, NULL, 1)", (table_id, place, name))
        except sqlite3.IntegrityError as err:
            raise StoreError(f"table {code}: {err}") from None
        return table_id

    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        rows = self._db.execute(
            "SELECT id, code, preset, target, seed, bot_kind, s.delay, s.closed FROM tables "
            "LEFT JOIN table_settings AS s ON s.table_id = tables.id ORDER BY id")
        return [TableRow(int(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), str(r[5]),
                         None if r[6] is None else int(r[6]),
                         None if r[7] is None else float(r[7])) for r in rows]

    def seats(self, table_id: int) -> list[SeatRow]:
        """The places taken at a table."""
        rows = self._db.execute(
            "SELECT place, name, token, bot, kind, link FROM seats WHERE table_id=? "
            "ORDER BY place", (table_id,))
        return [SeatRow(int(r[0]), str(r[1]), r[2], bool(r[3]), r[4], bool(r[5]))
                for r in rows]

    def sit(self, table_id: int, place: int, name: str, token: str) -> None:
        """A learner takes a free place; refused if the place is taken."""
        try:
            self._db.execute(
                "INSERT INTO seats(table_id, place, name, token, bot) VALUES (?, ?, ?, ?, 0)",
                (table_id, place, name, token))
        except sqlite3.IntegrityError:
            raise StoreError(f"table {table_id}: place {place} is taken") from None

    def new_token(self, table_id: int, place: int, token: str, link: bool = False) -> None:
        """A learner's place given a new secret token (the teacher freed it for another
        browser: ``link``, a one-time link not yet opened): the old token opens nothing
        from now on."""
        cur = self._db.execute(
            "UPDATE seats SET token=?, link=? WHERE table_id=? AND place=? AND bot=0",
            (token, int(link), table_id, place))
        if cur.rowcount != 1:
            raise StoreError(f"table {table_id}: no learner in place {place}")

    def put_bot(self, table_id: int, place: int, name: str, kind: str) -> None:
        """A bot of ``kind`` in ``place``: a free place, a learner's (whose token then
        opens nothing) or another bot's."""
        self._db.execute(
            "INSERT INTO seats(table_id, place, name, token, bot, kind) "
            "VALUES (?, ?, ?, NULL, 1, ?) ON CONFLICT(table_id, place) DO UPDATE SET "
            "name=excluded.name, token=NULL, bot=1, kind=excluded.kind, link=0",
            (table_id, place, name, kind))

    def move_seat(self, table_id: int, place: int, to_table: int, to_place: int,
                  bot: str | None) -> None:
        """A learner moved, their token with them, to a free place (``to_table``,
        ``to_place``): the place they leave is freed, or, ``bot`` (its kind) given, held by
        a bot under the learner's name (a match that has begun knows its players by name).
        One transaction: refused as a whole if the new place is taken."""
        try:
            with self._db:
                self._db.execute("BEGIN")
                row = self._db.execute(
                    "SELECT name, token FROM seats WHERE table_id=? AND place=? AND bot=0",
                    (table_id, place)).fetchone()
                if row is None:
                    raise StoreError(f"table {table_id}: no learner in place {place}")
                if bot is None:
                    self._db.execute("DELETE FROM seats WHERE table_id=? AND place=?",
                                     (table_id, place))
                else:
                    self._db.execute(
                        "UPDATE seats SET token=NULL, bot=1, kind=?, link=0 "
                        "WHERE table_id=? AND place=?", (bot, table_id, place))
                self._db.execute(
                    "INSERT INTO seats(table_id, place, name, token, bot) "
                    "VALUES (?, ?, ?, ?, 0)", (to_table, to_place, row[0], row[1]))
        except sqlite3.IntegrityError:
            raise StoreError(f"table {to_table}: place {to_place} is taken") from None

    # -- the wait between hands, closing -------------------------------------------------

    def set_delay(self, table_id: int | None, delay: int | None) -> None:
        """The wait before a next hand: the room's (``table_id`` None) or one table's
        (``delay`` None: the room's)."""
        if table_id is None:
            self._db.execute("INSERT INTO meta(key, value) VALUES ('delay', ?) ON CONFLICT"
                             "(key) DO UPDATE SET value=excluded.value", (str(delay),))
            return
        self._db.execute("INSERT INTO table_settings(table_id, delay) VALUES (?, ?) "
                         "ON CONFLICT(table_id) DO UPDATE SET delay=excluded.delay",
                         (table_id, delay))

    def room_delay(self) -> int | None:
        """The room's wait before a next hand, if the teacher set one."""
        row = self._db.execute("SELECT value FROM meta WHERE key='delay'").fetchone()
        return None if row is None else int(row[0])

    def close_table(self, table_id: int, when: float) -> None:
        """The teacher closed the table (its record stays)."""
        self._db.execute("INSERT INTO table_settings(table_id, closed) VALUES (?, ?) "
                         "ON CONFLICT(table_id) DO UPDATE SET closed=excluded.closed",
                         (table_id, when))

    def last_hand_end(self, table_id: int) -> HandEnd | None:
        """The last hand's end recorded at a table."""
        row = self._db.execute("SELECT hand, ended, started FROM hand_ends WHERE table_id=? "
                               "ORDER BY hand DESC LIMIT 1", (table_id,)).fetchone()
        return None if row is None else HandEnd(int(row[0]), float(row[1]), bool(row[2]))

    def set_ready(self, table_id: int, hand: int, place: int) -> None:
        """The learner in ``place`` is ready for the hand after hand ``hand``."""
        self._db.execute("INSERT OR IGNORE INTO ready(table_id, hand, place) VALUES "
                         "(?, ?, ?)", (table_id, hand, place))

    def ready(self, table_id: int, hand: int) -> set[int]:
        """The places ready for the hand after hand ``hand``."""
        rows = self._db.execute("SELECT place FROM ready WHERE table_id=? AND hand=?",
                                (table_id, hand))
        return {int(r[0]) for r in rows}

    def start_hand(self, table_id: int, hand: int) -> None:
        """The wait after hand ``hand`` is over: the next hand is played."""
        self._db.execute("UPDATE hand_ends SET started=1 WHERE table_id=? AND hand=?",
                         (table_id, hand))

    # -- actions and advice --------------------------------------------------------------

    def add_action(self, table_id: int, seq: int, player: str, text: str,
                   ended: tuple[int, float] | None = None) -> None:
        """Record an accepted action; a sequence number already used is refused.
        ``ended``: the action ended hand ``ended[0]`` at time ``ended[1]``, and the next
        hand waits (written in the same transaction)."""
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.execute(
                    "INSERT INTO actions(table_id, seq, player, action) VALUES (?, ?, ?, ?)",
                    (table_id, seq, player, text))
                if ended is not None:
                    self._db.execute(
                        "INSERT OR REPLACE INTO hand_ends(table_id, hand, ended, started) "
                        "VALUES (?, ?, ?, 0)", (table_id, ended[0], ended[1]))
        except sqlite3.IntegrityError:
            raise DuplicateActionError(
                f"table {table_id}: action {seq} is already recorded") from None

    def remove_actions_from(self, table_id: int, seq: int) -> None:
        """Forget the actions from ``seq`` on (only to undo a write whose table could not
        take it)."""
        self._db.execute("DELETE FROM actions WHERE table_id=? AND seq>=?", (table_id, seq))

    def actions(self, table_id: int) -> list[ActionRow]:
        """A table's actions in order."""
        rows = self._db.execute(
            "SELECT seq, player, action FROM actions WHERE table_id=? ORDER BY seq",
            (table_id,))
        return [ActionRow(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def set_advice(self, table_id: int, seq: int, text: str) -> None:
        """The sitter's advice for the captain's decision at ``seq`` (the last one kept)."""
        self._db.execute(
            "INSERT INTO advice(table_id, seq, action) VALUES (?, ?, ?) "
            "ON CONFLICT(table_id, seq) DO UPDATE SET action=excluded.action",
            (table_id, seq, text))

    def advice(self, table_id: int) -> dict[int, str]:
        """A table's advice by sequence number."""
        rows = self._db.execute("SELECT seq, action FROM advice WHERE table_id=?",
                                (table_id,))
        return {int(r[0]): str(r[1]) for r in rows}
