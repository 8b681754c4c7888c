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


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in one place of a table (``token`` is ``None`` for a bot)."""

    place: int
    name: str
    token: str | None
    bot: bool


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
            "SELECT id, code, preset, target, seed, bot_kind FROM tables ORDER BY id")
        return [TableRow(int(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), str(r[5]))
                for r in rows]

    def seats(self, table_id: int) -> list[SeatRow]:
        """The places taken at a table."""
        rows = self._db.execute(
            "SELECT place, name, token, bot FROM seats WHERE table_id=? ORDER BY place",
            (table_id,))
        return [SeatRow(int(r[0]), str(r[1]), r[2], bool(r[3])) for r in rows]

    def sit(self, table_id: int, place: int, name: str, token: str) -> None:
        """A learner takes a free place; refused if the place is taken."""
        try:
            self._db.execute(
                "INSERT INTO seats(table_id, place, name, token, bot) VALUES (?, ?, ?, ?, 0)",
                (table_id, place, name, token))
        except sqlite3.IntegrityError:
            raise StoreError(f"table {table_id}: place {place} is taken") from None

    def new_token(self, table_id: int, place: int, token: str) -> None:
        """A learner's place given a new secret token (the teacher freed it for another
        browser): the old token opens nothing from now on."""
        cur = self._db.execute(
            "UPDATE seats SET token=? WHERE table_id=? AND place=? AND bot=0",
            (token, table_id, place))
        if cur.rowcount != 1:
            raise StoreError(f"table {table_id}: no learner in place {place}")

    # -- actions and advice --------------------------------------------------------------

    def add_action(self, table_id: int, seq: int, player: str, text: str) -> None:
        """Record an accepted action; a sequence number already used is refused."""
        try:
            self._db.execute(
                "INSERT INTO actions(table_id, seq, player, action) VALUES (?, ?, ?, ?)",
                (table_id, seq, player, text))
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
