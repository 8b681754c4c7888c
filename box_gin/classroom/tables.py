"""The class's tables: who sits where, the match each plays, and every action through the
engine, written to the store before anyone is told.

A table has three places.  Learners take them by name (bots fill the places the teacher
gave them); when all three are taken the match is dealt from the table's seed.  Each
action names its player (checked by the engine: ``Match.apply(player=)``) and carries
the table's sequence number, the count of actions accepted so far: an action under any
other number (a replayed or duplicated message, a click on a stale page) is refused.

>>> room = Room(Store(":memory:"))
>>> table = room.create("standard", 100, seed=3, bots=2)
>>> token = table.sit(0, "Zoe")
>>> table.match is not None and table.state
'playing'
>>> table.pause.hand, table.waiting_for()   # Zoe sat out hand 1 as the sitter
(1, [0])
>>> table.ready(token)
>>> table.act(token, "discard 2C", seq=99)
Traceback (most recent call last):
...
box_gin.classroom.tables.SeatError: this action was for move 99, but the table is at move ...

When a hand ends (and the match goes on) the table waits (:class:`Pause`): the next
hand, already dealt by the engine, is played once every learner has said they are ready
(bots always are), or at the deadline the teacher set (:meth:`Room.set_delay`,
:meth:`Table.set_delay`; 0 waits for everyone, but never longer than
:data:`LONGEST_WAIT`).  The wait is written with the action that ended the hand, each
"ready" as it comes, so a restart finds it again; the clock is the room's
(``Room(store, now=)``), so a test moves time by hand.

The teacher moves a learner (:meth:`Room.move`), seats a bot (:meth:`Table.put_bot`)
and closes a table (:meth:`Table.close`): each written to the store first, each refused
with a :class:`SeatError` that leaves everything as it was.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..actions import Action
from ..bots import KIT_BOTS, Bot, make_bot
from ..bots.driver import bots_decide, play_bots
from ..cards import Card
from ..errors import BoxGinError, IllegalActionError
from ..hand import Hand, Role
from ..i18n import _
from ..match import Match
from ..rules import PRESETS, Rules
from .store import Store, StoreError

#: Names for the bots, in the order they sit.
BOT_NAMES = ("Ada", "Ben", "Cy")
#: The kit's bots a teacher may seat (:data:`box_gin.bots.KIT_BOTS`).
BOT_KINDS = tuple(KIT_BOTS)
#: The letters of a join code: no 0/O, 1/I/L, so that it reads off a projector.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
MAX_NAME = 24
#: The most tables the teacher's form makes at once.
MAX_TABLES = 30
#: The largest seed a table keeps (the store's whole numbers are 64-bit).
MAX_SEED = 2 ** 63 - 1
#: The longest wait between two hands (seconds): the deadline of "wait for everyone".
LONGEST_WAIT = 600


class SeatError(BoxGinError):
    """A request the table refuses: a taken place, a bad name, someone acting out of turn
    or for another seat, a stale or replayed action."""


@dataclass
class Clock:
    """What every table of a room shares: the room's wait before a next hand (seconds,
    0: until every learner is ready) and the clock it is measured by."""

    delay: int = 0
    now: Callable[[], float] = time.time


@dataclass
class Pause:
    """The wait after hand ``hand`` (its number) ended at ``ended``: ``ready``, the places
    whose learners said they are ready."""

    hand: int
    ended: float
    ready: set[int] = field(default_factory=set)


def checked_delay(delay: int) -> int:
    """A wait before a next hand (seconds), refused outside 0 to :data:`LONGEST_WAIT`."""
    if not 0 <= delay <= LONGEST_WAIT:
        raise SeatError(_("the wait before the next hand is 0 (until every player is "
                          "ready) to {most} seconds, not {n}").format(most=LONGEST_WAIT,
                                                                      n=delay))
    return delay


@dataclass
class Table:
    """One table of three and its match (``None`` until all three places are taken)."""

    id: int
    code: str
    preset: str
    target: int
    seed: int
    bot_kind: str
    store: Store
    names: list[str | None] = field(default_factory=lambda: [None, None, None])
    tokens: dict[str, int] = field(default_factory=dict)
    bot_places: set[int] = field(default_factory=set)
    match: Match | None = None
    #: The number of actions accepted so far: the next action's sequence number.
    seq: int = 0
    #: The card each seat last drew, while it is still to discard (marked on its page).
    drawn: dict[Role, Card] = field(default_factory=dict)
    #: The sitter's advice, by the sequence number of the captain's decision.
    advice: dict[int, str] = field(default_factory=dict)
    bots: dict[str, Bot] = field(default_factory=dict)
    #: The sequence number at which each finished hand (by number) started.
    hand_starts: list[int] = field(default_factory=lambda: [0])
    clock: Clock = field(default_factory=Clock)
    #: The table's own wait before a next hand (None: the room's).
    delay: int | None = None
    #: The wait after a hand, while it lasts.
    pause: Pause | None = None
    #: When the teacher closed the table (None: open).
    closed: float | None = None
    #: Each bot's kind, by place (a place missing: the table's ``bot_kind``).
    bot_kinds: dict[int, str] = field(default_factory=dict)
    #: The places whose token is a one-time link the teacher holds, not opened yet.
    links: set[int] = field(default_factory=set)

    @property
    def rules(self) -> Rules:
        """The table's rules: its preset with its target."""
        return PRESETS[self.preset].replace(target=self.target)

    @property
    def state(self) -> str:
        """``"waiting"`` (for players), ``"playing"`` or ``"over"``."""
        if self.match is None:
            return "waiting"
        return "over" if self.match.is_over else "playing"

    def place_of(self, token: str) -> int:
        """The place whose secret ``token`` is; refused for anyone else."""
        place = self.tokens.get(token)
        if place is None:
            raise SeatError(_("you have no seat at table {code}").format(code=self.code))
        return place

    def name_of(self, place: int) -> str:
        name = self.names[place]
        assert name is not None
        return name

    def role_of(self, place: int) -> Role | None:
        """The role of the player in ``place`` this hand (``None`` before the deal)."""
        if self.match is None or self.names[place] is None:
            return None
        return self.match.role_of(self.name_of(place))

    # -- sitting down --------------------------------------------------------------------

    def sit(self, place: int, name: str) -> str:
        """Seat a learner; returns the seat's secret token."""
        self._check_open()
        if place not in (0, 1, 2):
            raise SeatError(_("a table has places 1, 2 and 3, not {place}").format(
                place=place + 1))
        if self.names[place] is not None:
            raise SeatError(_("place {place} is taken by {name}").format(
                place=place + 1, name=self.names[place]))
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise SeatError(_("a name is 1 to {n} letters, digits or spaces").format(
                n=MAX_NAME))
        taken = [n.casefold() for n in self.names if n is not None]
        if name.casefold() in taken:
            raise SeatError(_("{name!r} is already at this table: choose another name")
                            .format(name=name))
        token = secrets.token_urlsafe(24)
        try:
            self.store.sit(self.id, place, name, token)
        except StoreError:
            raise SeatError(_("place {place} is taken").format(place=place + 1)) from None
        self.names[place], self.tokens[token] = name, place
        self._deal_if_full()
        self._bots_play()
        return token

    def _deal_if_full(self) -> None:
        if self.match is not None or any(n is None for n in self.names):
            return
        names = [n for n in self.names if n is not None]
        self.match = Match.new(names, self.rules, self.seed)
        for i, place in enumerate(sorted(self.bot_places)):
            name = self.name_of(place)
            self.bots[name] = make_bot(self.bot_kinds.get(place, self.bot_kind),
                                       self.seed * 10 + i)

    # -- the wait between hands ----------------------------------------------------------

    @property
    def wait(self) -> int:
        """The wait before a next hand in seconds (0: until every learner is ready)."""
        return self.clock.delay if self.delay is None else self.delay

    def deadline(self) -> float:
        """When the wait now ends at the latest (the room's clock)."""
        assert self.pause is not None
        return self.pause.ended + (self.wait or LONGEST_WAIT)

    def waiting_for(self) -> list[int]:
        """The learners' places not ready yet for the next hand (bots always are)."""
        pause = self.pause
        if pause is None:
            return []
        return [p for p in range(3) if self.names[p] is not None
                and p not in self.bot_places and p not in pause.ready]

    def ready(self, token: str) -> None:
        """The learner of ``token`` has read the hand's result: ready for the next."""
        place = self.place_of(token)
        self._check_open()
        pause = self.pause
        if pause is None:
            raise SeatError(_("the hand is being played: there is no next hand to wait "
                              "for"))
        if place not in pause.ready:
            self.store.set_ready(self.id, pause.hand, place)
            pause.ready.add(place)
        self.tick()

    def tick(self) -> bool:
        """End the wait if every learner is ready or its deadline has come (the bots then
        play on); whether it ended."""
        if not self._due():
            return False
        self._start_next()
        self._bots_play()
        return True

    def _due(self) -> bool:
        return (self.pause is not None and self.closed is None
                and (not self.waiting_for() or self.clock.now() >= self.deadline()))

    def _start_next(self) -> None:
        assert self.pause is not None
        self.store.start_hand(self.id, self.pause.hand)
        self.pause = None

    def _check_open(self) -> None:
        if self.closed is not None:
            raise SeatError(_("the teacher closed table {code}").format(code=self.code))

    # -- the teacher's controls ----------------------------------------------------------

    def set_delay(self, delay: int | None) -> None:
        """The table's own wait before a next hand (None: the room's)."""
        delay = None if delay is None else checked_delay(delay)
        self.store.set_delay(self.id, delay)
        self.delay = delay
        self.tick()

    def close(self) -> None:
        """Close the table: no one joins or plays any more; its record stays."""
        self._check_open()
        when = self.clock.now()
        self.store.close_table(self.id, when)
        self.closed = when

    def bot_name(self, place: int) -> str:
        """The name a bot gets in a free place: the first of :data:`BOT_NAMES` (then
        "Bot N") that no one at the table has."""
        taken = {n.casefold() for i, n in enumerate(self.names) if n and i != place}
        names = [*BOT_NAMES, *(f"Bot {i}" for i in range(4, 8))]
        return next(n for n in names if n.casefold() not in taken)

    def put_bot(self, place: int, kind: str) -> list[str]:
        """A bot of ``kind`` in ``place``: a free place, a learner's or another kind of
        bot's.  Once the match has begun the bot plays under the name the match knows.
        Returns the tokens that open nothing from now on (the learner's)."""
        self._check_open()
        if place not in (0, 1, 2):
            raise SeatError(_("a table has places 1, 2 and 3, not {place}").format(
                place=place + 1))
        if kind not in BOT_KINDS:
            raise SeatError(_("unknown bot {name!r}: choose one of {names}").format(
                name=kind, names=", ".join(BOT_KINDS)))
        if place in self.bot_places and self.bot_kinds.get(place, self.bot_kind) == kind:
            raise SeatError(_("place {place} already has that bot").format(place=place + 1))
        old = self.names[place]
        name = old if old is not None and self.match is not None else self.bot_name(place)
        self.store.put_bot(self.id, place, name, kind)
        gone = [t for t, p in self.tokens.items() if p == place]
        self.tokens = {t: p for t, p in self.tokens.items() if p != place}
        self.links.discard(place)
        self.names[place] = name
        self.bot_places.add(place)
        self.bot_kinds[place] = kind
        if self.match is not None:
            self.bots[name] = make_bot(kind, self.seed * 10 + 3 + place)
        self._deal_if_full()
        self._settle()
        return gone

    def _settle(self) -> None:
        """After a change of who sits where: the wait may be over; bots play on."""
        if not self.tick():
            self._bots_play()

    # -- playing -------------------------------------------------------------------------

    def act(self, token: str, text: str, seq: int) -> None:
        """The seat of ``token`` plays ``text`` as action number ``seq``."""
        place = self.place_of(token)
        if self.match is None:
            raise SeatError(_("the game has not started: the table waits for players"))
        self._check_playing()
        self._check_seq(seq)
        self._apply(self.name_of(place), text)
        self._bots_play()

    def advise(self, token: str, text: str, seq: int) -> None:
        """The sitter of ``token`` advises the captain, for the decision at ``seq``."""
        place = self.place_of(token)
        match = self.match
        if match is None or self.role_of(place) is not Role.SITTER:
            raise SeatError(_("only the sitter advises the captain"))
        self._check_playing()
        self._check_seq(seq)
        if match.to_play != match.roles[Role.CAPTAIN]:
            raise SeatError(_("the captain is not to play: there is nothing to advise"))
        action = Action.parse(text)
        if action not in match.legal_actions():
            raise IllegalActionError(_("{action}: the captain may not play that now").format(
                action=action.label))
        self.store.set_advice(self.id, seq, str(action))
        self.advice[seq] = str(action)

    def current_advice(self) -> Action | None:
        """The sitter's advice for the captain's decision now, if any."""
        text = self.advice.get(self.seq)
        return None if text is None else Action.parse(text)

    def _check_playing(self) -> None:
        self._check_open()
        if self.pause is not None:
            raise SeatError(_("hand {n} starts when every player is ready: press Next "
                              "hand").format(n=self.pause.hand + 1))

    def _check_seq(self, seq: int) -> None:
        if seq != self.seq:
            raise SeatError(_("this action was for move {seq}, but the table is at move "
                              "{now}: it is refused (the page was out of date, or the "
                              "action was sent twice)").format(seq=seq, now=self.seq))

    def _apply(self, name: str, text: str, record: bool = True) -> bool:
        """Apply (and, ``record``, write) an action; whether the table now waits."""
        match = self.match
        assert match is not None
        action = Action.parse(text)
        role = match.role_of(name)
        before = set(match.hand.cards(role)) if role is not Role.SITTER else set()
        hands_before = len(match.history)
        # The engine checks that ``name`` is the player to act, and leaves the match as it
        # was when it refuses.  Only then is the action written, and only once written is
        # it kept: a failed write rebuilds the table from the store.
        match.apply(action, player=name)
        ended = None
        if record and len(match.history) > hands_before and not match.is_over:
            ended = (len(match.history), self.clock.now())
        if record:
            try:
                self.store.add_action(self.id, self.seq, name, str(action), ended)
            except StoreError:
                self._rebuild()
                raise
        if ended is not None:
            self.pause = Pause(*ended)
        self.seq += 1
        self.drawn.pop(role, None)
        if len(match.history) > hands_before:
            self.drawn.clear()
            self.hand_starts.append(self.seq)
        elif role is not Role.SITTER:
            new = set(match.hand.cards(role)) - before
            if new:
                self.drawn[role] = next(iter(new))
        return self.pause is not None

    def _bots_play(self) -> None:
        """The bots play on, until a learner is to act or the table waits (a wait that
        is already over, with no learner to wait for, ends at once)."""
        while self.match is not None and self.closed is None and self.pause is None:
            play_bots(self.match, bots_decide(self.match, self.bots),
                      lambda name, action: self._apply(name, str(action)))
            if not self._due():
                return
            self._start_next()

    def _rebuild(self) -> None:
        fresh = load_table(self.store, self.id, self.clock)
        self.match, self.seq, self.drawn = fresh.match, fresh.seq, fresh.drawn
        self.hand_starts, self.advice = fresh.hand_starts, fresh.advice
        self.pause = fresh.pause

    # -- reading -------------------------------------------------------------------------

    def record_json(self) -> str:
        """The match as the engine's tamper-evident JSON record (replays with
        ``Match.from_json``)."""
        if self.match is None:
            raise SeatError(_("the game has not started: there is no record yet"))
        return self.match.to_json()

    def replay_hand(self, number: int, step: int) -> Hand:
        """Hand ``number`` (from 1) of the match after its first ``step`` actions."""
        match = self.match
        if match is None or not 1 <= number <= len(match.history):
            raise SeatError(_("no finished hand {n} at table {code}").format(
                n=number, code=self.code))
        record = match.history[number - 1]
        hand = Hand.deal(self.rules, seed=record.seed)
        for text in record.actions[:max(0, min(step, len(record.actions)))]:
            hand.apply(text)
        return hand


class Room:
    """Every table of the class, kept in ``store`` and rebuilt from it at start."""

    def __init__(self, store: Store, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = Clock(store.room_delay() or 0, now)
        self.tables: dict[str, Table] = {}
        for row in store.tables():
            table = load_table(store, row.id, self.clock)
            self.tables[table.code] = table

    def set_delay(self, delay: int) -> None:
        """The room's wait before a next hand (each table without its own)."""
        self.store.set_delay(None, checked_delay(delay))
        self.clock.delay = delay
        for table in self.tables.values():
            table.tick()

    def move(self, table: Table, place: int, to: Table, to_place: int) -> str:
        """Move the learner in ``place`` at ``table`` to the free place ``to_place`` at
        ``to`` (the same table or another), their secret token with them; the place
        they leave is free again, or, once its match has begun, held by a bot under
        their name.  Returns the learner's token."""
        name = table.names[place] if place in (0, 1, 2) else None
        if name is None or place in table.bot_places:
            raise SeatError(_("place {place} at table {code} has no learner to move")
                            .format(place=place + 1, code=table.code))
        to._check_open()
        if to_place not in (0, 1, 2) or to.names[to_place] is not None:
            raise SeatError(_("place {place} at table {code} is not free").format(
                place=to_place + 1, code=to.code))
        others = {n.casefold() for i, n in enumerate(to.names)
                  if n is not None and (to is not table or i != place)}
        if name.casefold() in others:
            raise SeatError(_("{name!r} is already at table {code}").format(
                name=name, code=to.code))
        token = next(t for t, p in table.tokens.items() if p == place)
        bot = table.bot_kind if table.match is not None else None
        self.store.move_seat(table.id, place, to.id, to_place, bot)
        del table.tokens[token]
        table.links.discard(place)
        if bot is None:
            table.names[place] = None
        else:
            table.bot_places.add(place)
            table.bot_kinds[place] = bot
            table.bots[name] = make_bot(bot, table.seed * 10 + 3 + place)
        to.names[to_place], to.tokens[token] = name, to_place
        to._deal_if_full()
        for changed in (table, to):
            changed._settle()
        return token

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table and place of a learner's token, wherever they were moved."""
        for table in self.tables.values():
            if token in table.tokens:
                return table, table.tokens[token]
        return None

    def get(self, code: str) -> Table:
        """The table of a join code (any case, spaces ignored)."""
        table = self.tables.get("".join(code.split()).upper())
        if table is None:
            raise SeatError(_("no table has the code {code!r}").format(code=code))
        return table

    def create(self, preset: str = "standard", target: int | None = None,
               seed: int | None = None, bots: int = 0, bot_kind: str = "greedy") -> Table:
        """A new table: ``bots`` (0 to 2) of its places taken by the kit's bots."""
        return self.create_many(1, preset, target, seed, bots, bot_kind)[0]

    def create_many(self, count: int, preset: str = "standard", target: int | None = None,
                    seed: int | None = None, bots: int = 0, bot_kind: str = "greedy"
                    ) -> list[Table]:
        """``count`` new tables alike, seeded ``seed``, ``seed + 1``, ... (each at random
        when ``seed`` is None).  Everything is checked before the first table is made:
        a request that is refused makes no table.

        >>> room = Room(Store(":memory:"))
        >>> room.create_many(2, seed=2 ** 63 - 1)
        Traceback (most recent call last):
        ...
        box_gin.classroom.tables.SeatError: the seed is a whole number from 0 to ...
        >>> room.tables
        {}
        """
        if not 1 <= count <= MAX_TABLES:
            raise SeatError(_("create 1 to 30 tables at a time, not {n}").format(n=count))
        if seed is not None and not 0 <= seed <= MAX_SEED - (count - 1):
            shown = str(seed) if len(str(seed)) <= 24 else str(seed)[:21] + "..."
            raise SeatError(_("the seed is a whole number from 0 to {most}, not {n}").format(
                most=MAX_SEED - (count - 1), n=shown))
        target = self._checked(preset, target, bots, bot_kind)
        return [self._create(preset, target, None if seed is None else seed + i, bots,
                             bot_kind) for i in range(count)]

    @staticmethod
    def _checked(preset: str, target: int | None, bots: int, bot_kind: str) -> int:
        """The target of a table of these settings, once each is checked."""
        if preset not in PRESETS:
            raise SeatError(_("unknown rules {name!r}: choose one of {names}").format(
                name=preset, names=", ".join(PRESETS)))
        if bot_kind not in BOT_KINDS:
            raise SeatError(_("unknown bot {name!r}: choose one of {names}").format(
                name=bot_kind, names=", ".join(BOT_KINDS)))
        if not 0 <= bots <= 2:
            raise SeatError(_("a table has 0, 1 or 2 bots, not {n}").format(n=bots))
        target = PRESETS[preset].target if target is None else target
        if not 1 <= target <= 10_000:
            raise SeatError(_("the target is 1 to 10000 points, not {n}").format(n=target))
        return target

    def _create(self, preset: str, target: int, seed: int | None, bots: int,
                bot_kind: str) -> Table:
        seed = secrets.randbelow(2 ** 31) if seed is None else seed
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _i in range(CODE_LENGTH))
            if code not in self.tables:
                break
        bot_seats = [(2 - i, BOT_NAMES[i]) for i in range(bots)]
        table_id = self.store.add_table(code, preset, target, seed, bot_kind, bot_seats)
        table = load_table(self.store, table_id, self.clock)
        self.tables[table.code] = table
        return table


def load_table(store: Store, table_id: int, clock: Clock | None = None) -> Table:
    """A table as the store holds it: seats, then its match replayed action by action,
    then its wait after the last hand, if that is still on."""
    row = next(r for r in store.tables() if r.id == table_id)
    table = Table(id=row.id, code=row.code, preset=row.preset, target=row.target,
                  seed=row.seed, bot_kind=row.bot_kind, store=store,
                  clock=clock or Clock(store.room_delay() or 0), delay=row.delay,
                  closed=row.closed)
    for seat in store.seats(table_id):
        table.names[seat.place] = seat.name
        if seat.bot:
            table.bot_places.add(seat.place)
            if seat.kind is not None:
                table.bot_kinds[seat.place] = seat.kind
        elif seat.token is not None:
            table.tokens[seat.token] = seat.place
            if seat.link:
                table.links.add(seat.place)
    table._deal_if_full()
    for action in store.actions(table_id):
        if action.seq != table.seq:
            raise StoreError(f"table {row.code}: action {action.seq} out of order")
        table._apply(action.player, action.text, record=False)
    table.advice = store.advice(table_id)
    end = store.last_hand_end(table_id)
    match = table.match
    if (end is not None and not end.started and match is not None and not match.is_over
            and end.hand == len(match.history) and table.seq == table.hand_starts[-1]):
        table.pause = Pause(end.hand, end.ended, store.ready(table_id, end.hand))
    # A crash between a learner's action and the bots' answers: the bots play on now
    # (and a wait whose deadline passed while the server was down is over).
    if not table.tick():
        table._bots_play()
    return table
