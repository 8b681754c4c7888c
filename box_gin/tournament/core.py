"""The tournament's schedule, its games and the driver that plays them.

A *game* is one deal of a match between three bots, each in a seat (box, captain,
sitter), played to its first hand that someone wins (a drawn hand is dealt again from
the match's next deck, with the same roles, at most ``max_hands`` times).  Fairness comes
from the schedule (:func:`schedule`): every group of three bots plays every deal six
times, once per way of seating them, so each bot holds every seat against every other
on the same cards (duplicate deals), and every group plays the same deals.

The driver (:func:`play_games`) asks each bot for its decisions with nothing but its
seat's view (and, for the captain, the sitter's advice), many games at once so that a
sandboxed bot answers a batch per round trip.  A bot that answers with an illegal
action, too late, or not at all (a crash) is given a default legal move, and that is
counted against it, never against the game or the other bots.  A bot that answers too
late is *benched* for the rest of that game: its default moves are played without
asking it, so that a bot that sleeps costs the class seconds, not minutes.

The deals come from a secret (:func:`new_secret`, :func:`secret_deal_seeds`): each deal's
seed is an HMAC of the secret, so nothing a bot can see or guess tells it a deal; the
secret's SHA-256 (:func:`commitment`) is published before the first game and the secret
after the last, so that anyone can check the run and replay it.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import inspect
import itertools
import json
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..actions import DRAW_STOCK, PASS, Action, ActionKind
from ..bots import KIT_BOTS, Advice, make_bot, random_bot
from ..errors import BoxGinError
from ..hand import Hand, Role, SeatView
from ..match import Match, SitterView
from ..rules import STANDARD, Rules

#: The seats, in the order results list them.
SEATS = (Role.BOX, Role.CAPTAIN, Role.SITTER)
#: What can go wrong with a decision, counted per bot.
FAULTS = ("illegal", "timeout", "crash")
#: The longest action text read from a bot.
MAX_ACTION = 200


@dataclass(frozen=True)
class Budget:
    """The time a bot may take: per decision and per game (seconds)."""

    decision: float = 1.0
    game: float = 20.0


class Request:
    """One decision asked of a bot: to play (``advice``: the sitter's, for a captain)
    or, as sitter, to advise, in ``hand`` as the seat ``role`` sees it (the sitter: the
    captain's view).  Asked while the hand waits for it, so read as it stands: a bot in
    this process is given the view made of :attr:`facts`; a sandboxed bot's wire is
    written from them, or from what changed since its child's last view of the hand
    (``seatwire.update``: then only the :attr:`legal` actions are listed here)."""

    __slots__ = ("_facts", "_legal", "advice", "hand", "kind", "role", "seat")

    def __init__(self, kind: str, hand: Hand, role: Role, advice: Action | None = None
                 ) -> None:
        self.kind = kind  # "play" or "advise"
        self.hand = hand
        self.role = role
        self.advice = advice
        #: The seat whose cards the view shows (the sitter's: the captain's).
        self.seat = Role.CAPTAIN if role is Role.SITTER else role
        self._facts: tuple[Any, ...] | None = None
        self._legal: tuple[Action, ...] | None = None

    @classmethod
    def of(cls, kind: str, hand: Hand, role: Role, advice: Action | None = None) -> Request:
        """The request for ``role``'s decision in ``hand`` as it stands."""
        return cls(kind, hand, role, advice)

    @property
    def facts(self) -> tuple[Any, ...]:
        """The view's fields (:meth:`~box_gin.hand.Hand.seat_facts`), taken once."""
        if self._facts is None:
            self._facts = self.hand.seat_facts(self.role)
        return self._facts

    @property
    def view(self) -> SeatView:
        return SeatView(*self.facts)

    @property
    def legal(self) -> tuple[Action, ...]:
        """The legal actions the answer must be one of (the view's)."""
        if self._legal is None:
            if self._facts is not None:
                self._legal = self._facts[10]
            else:
                hand = self.hand
                self._legal = tuple(hand.legal_actions()) if hand.to_play is self.seat \
                    else ()
        return self._legal

    def __repr__(self) -> str:
        return f"Request({self.kind!r}, {self.role.value!r}, advice={self.advice})"


@dataclass(frozen=True)
class Reply:
    """A bot's answer: the action's text (None: no answer), and what went wrong."""

    text: str | None
    fault: str | None = None  # None, or one of FAULTS
    seconds: float = 0.0
    #: For a crash, what the bot raised, when its child said: ``type``, ``message``, and
    #: where in its code (``cell``, ``line``, ``function``) when known.
    crash: dict[str, Any] | None = None


class Player(Protocol):
    """A bot the driver can ask: a batch of requests in, a reply for each out."""

    name: str

    def send(self, requests: Sequence[Request]) -> None: ...

    def receive(self) -> list[Reply]: ...


def follows_advice(play: Callable[..., Action]) -> Callable[..., Action]:
    """A captain that plays its sitter's advice when it is legal, else its own choice
    (what the Game Table's bot captains do)."""

    def captain(view: SeatView, advice: Action | None = None) -> Action:
        if advice is not None and advice in view.legal_actions:
            return advice
        return play(view)

    captain.__name__ = getattr(play, "__name__", "captain")
    return captain


def _random_play(view: SeatView, advice: Action | None = None) -> Action:
    """Any legal action, at random, seeded by the view: the same view, the same move."""
    rng = random.Random(f"{view.hand}|{view.discard_pile}|{len(view.history)}")
    return random_bot(view, rng)


def _advice_of(name: str) -> Callable[[SitterView], Action]:
    """The action a kit bot advises, as a sitter."""
    adviser = KIT_BOTS[name].advise

    def advice(view: SitterView) -> Action:
        return adviser(view).action

    advice.__name__ = f"{name}_advice"
    return advice


#: The reference bots (the kit's, :data:`box_gin.bots.KIT_BOTS`): name -> (play, advise).
#: The random bot plays a legal action seeded by the view, so that it plays the same
#: whatever the order it is asked in; the captains follow legal advice.
REFERENCE_BOTS: dict[str, tuple[Callable[..., Any], Callable[..., Any] | None]] = {
    "random_bot": (_random_play, None),
    **{f"{name}_bot": (follows_advice(make_bot(name)), _advice_of(name))
       for name in ("greedy", "expert")},
}


def _takes_advice(play: Callable[..., Any]) -> bool:
    """Whether ``play`` accepts a second argument (the sitter's advice)."""
    try:
        params = list(inspect.signature(play).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)


def answer_text(value: Any) -> str | None:
    """The text of what a bot returned: an action, advice, or an action's text."""
    if isinstance(value, Advice):
        value = value.action
    if isinstance(value, Action):
        return str(value)
    if isinstance(value, str):
        return value[:MAX_ACTION + 1]
    if value is None:
        return None
    raise TypeError(f"not an action: {type(value).__name__}")


class LocalPlayer:
    """A trusted bot in this process (the reference bots): asked directly."""

    def __init__(self, name: str, play: Callable[..., Any],
                 advise: Callable[..., Any] | None = None) -> None:
        self.name = name
        self.play = play
        self.advise = advise
        self._advised = _takes_advice(play)
        self._pending: list[Reply] = []

    def decide(self, request: Request) -> Reply:
        start = time.perf_counter()
        try:
            if request.kind == "advise":
                value = self.advise(SitterView(request.view)) if self.advise else None
            elif self._advised:
                value = self.play(request.view, request.advice)
            else:
                value = self.play(request.view)
            text = answer_text(value)
            fault = None
        except Exception:
            text, fault = None, "crash"
        return Reply(text, fault, time.perf_counter() - start)

    def send(self, requests: Sequence[Request]) -> None:
        self._pending = [self.decide(r) for r in requests]

    def receive(self) -> list[Reply]:
        out, self._pending = self._pending, []
        return out

    def close(self) -> None:
        pass


# -- the schedule ----------------------------------------------------------------------

@dataclass(frozen=True)
class GameSpec:
    """One game of the schedule: its number, the players in cut order (their seats
    follow from the deal's cut), and the deal's seed."""

    index: int
    players: tuple[str, str, str]
    seed: int
    group: int
    deal: int


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The seeds of a *measurement*'s deals (:func:`~box_gin.tournament.measure.measure`: the
    kit's bots against each other, with a public seed so that anyone can measure
    again); a tournament draws its deals from a secret (:func:`secret_deal_seeds`)."""
    rng = random.Random(f"box-gin tournament {seed}")
    return [rng.getrandbits(63) for _ in range(deals)]


def new_secret() -> str:
    """A fresh secret for a tournament's deals: 128 random bits, as hex."""
    return secrets.token_hex(16)


def commitment(secret: int | str) -> str:
    """The SHA-256 of a tournament's secret, published before its first game: once the
    secret is revealed, anyone can check that it is the one the deals came from.

    >>> commitment("4f1c")[:16]
    '92753b7523df3670'
    """
    return hashlib.sha256(b"box-gin tournament secret\0" + str(secret).encode()).hexdigest()


def secret_deal_seeds(secret: int | str, deals: int, label: str = "deal") -> list[int]:
    """The seeds of a tournament's deals: the HMAC-SHA-256 of ``label`` and each deal's
    number under ``secret``, cut to 63 bits.  Without the secret, no deal can be found
    from any other (nor from the scheme, which is public)."""
    key = str(secret).encode()
    return [int.from_bytes(hmac.new(key, f"{label} {i}".encode(), hashlib.sha256)
                           .digest()[:8], "big") >> 1 for i in range(deals)]


def groups(n: int) -> list[tuple[int, int, int]]:
    """Groups of three among ``n`` bots: every group up to ten bots; beyond, a cyclic
    design in which every bot plays in as many groups as any other, in every position
    equally often, and meets every other bot at least once."""
    if n < 3:
        raise BoxGinError(f"a tournament needs at least three bots, not {n}")
    if n <= 10:
        return list(itertools.combinations(range(n), 3))
    out = []
    for t in range(1, (n - 1) // 2 + 1):
        for i in range(n):
            out.append((i, (i + t) % n, (i + t + 1) % n))
    return out


def schedule(names: Sequence[str], deals: int, seed: int | str) -> list[GameSpec]:
    """Every game of the tournament, in a fixed order (see the module's docstring);
    ``seed``: the tournament's secret."""
    seeds = secret_deal_seeds(seed, deals)
    games: list[GameSpec] = []
    for g, group in enumerate(groups(len(names))):
        trio = [names[i] for i in group]
        for d, deal_seed in enumerate(seeds):
            for perm in itertools.permutations(trio):
                games.append(GameSpec(len(games), (perm[0], perm[1], perm[2]), deal_seed,
                                      g, d))
    return games


# -- playing ---------------------------------------------------------------------------

def default_action(legal: Sequence[Action]) -> Action:
    """The move played for a bot that failed: pass, else draw from the stock, else the
    first discard in card order."""
    if PASS in legal:
        return PASS
    if DRAW_STOCK in legal:
        return DRAW_STOCK
    for action in legal:
        if action.kind is ActionKind.DISCARD:
            return action
    return legal[0]


def legal_match(text: str | None, legal: Sequence[Action]) -> Action | None:
    """The legal action a bot's text names (a knock's own lay-out is not kept: the
    engine lays out the best melds), or None."""
    if not isinstance(text, str) or len(text) > MAX_ACTION:
        return None
    for candidate in legal:  # the usual case: the legal action's own text
        if str(candidate) == text:
            return candidate
    try:
        action = Action.parse(text)
    except (BoxGinError, ValueError, TypeError):
        return None
    for candidate in legal:
        if candidate.kind is action.kind and candidate.card == action.card:
            return candidate
    return None


@dataclass
class Tally:
    """One bot's counts in one game."""

    decisions: int = 0
    seconds: float = 0.0
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))
    #: The bot's first crash in the game: where (``game``, ``hand``, ``role``) and, when
    #: its child said, what it raised (:attr:`Reply.crash`; a later crash's, when the
    #: first one's child died without a word).
    first_crash: dict[str, Any] | None = None

    def crashed(self, crash: dict[str, Any] | None, game: int, hand: int, role: str) -> None:
        if self.first_crash is None:
            self.first_crash = {"game": game, "hand": hand, "role": role, **(crash or {})}
        elif crash and "type" not in self.first_crash:
            self.first_crash.update(crash)


@dataclass
class GameResult:
    """A game's outcome, the faults of each bot in it, and the match record."""

    index: int
    seats: dict[str, str]  # role value -> bot name
    winner: str | None  # the role that scored: "box" or "captain"; None: drawn
    points: int
    outcome: str
    tallies: dict[str, dict[str, Any]]
    record: str

    @property
    def digest(self) -> str:
        """The sha256 of the match record, as written."""
        return hashlib.sha256(self.record.encode()).hexdigest()


class _Game:
    """A game being played: its match, what it waits for, and each bot's tally."""

    def __init__(self, spec: GameSpec, rules: Rules, max_hands: int | None) -> None:
        self.spec = spec
        self.match = Match.new(list(spec.players), rules, spec.seed)
        self.seats = {role.value: name for role, name in self.match.roles.items()}
        self.max_hands = max_hands
        self.tallies = {name: Tally() for name in spec.players}
        self.advice: Action | None = None
        self.asked_advice = False
        #: The bots that timed out in this game: not asked again in it.
        self.benched: set[str] = set()

    @property
    def done(self) -> bool:
        m = self.match
        if m.is_over:
            return True
        if self.max_hands is None:  # the whole match (a final), at most 60 hands
            return len(m.history) >= 60
        decided = any(h.result.winner is not None for h in m.history)
        return decided or len(m.history) >= self.max_hands

    def next_request(self, budget: Budget) -> tuple[str, Request] | None:
        """(the bot to ask, its request) for the next decision; None when the bot is out
        of time for this game (its default move is then played)."""
        m = self.match
        player = m.to_play
        assert player is not None
        role = m.role_of(player)
        if role is Role.CAPTAIN and not self.asked_advice:
            sitter = m.roles[Role.SITTER]
            if self.tallies[sitter].seconds > budget.game or sitter in self.benched:
                self.tallies[sitter].faults["timeout"] += 1
                self.asked_advice = True
            else:
                return sitter, Request.of("advise", m.hand, role)
        if self.tallies[player].seconds > budget.game or player in self.benched:
            return None
        return player, Request.of("play", m.hand, role, self.advice)

    def answer(self, bot: str, request: Request, reply: Reply, trusted: bool) -> None:
        tally = self.tallies[bot]
        tally.decisions += 1
        tally.seconds += reply.seconds
        fault = reply.fault
        if fault == "timeout" and trusted:
            fault = None
        if fault == "timeout":
            self.benched.add(bot)
        if fault == "crash":
            tally.crashed(reply.crash, self.spec.index, len(self.match.history) + 1,
                          Role.SITTER.value if request.kind == "advise"
                          else request.role.value)
        legal = request.legal
        action = None if fault else legal_match(reply.text, legal)
        if request.kind == "advise":
            self.asked_advice = True
            if fault:
                tally.faults[fault] += 1
            elif reply.text is not None and action is None:
                tally.faults["illegal"] += 1
            self.advice = action
            return
        if fault:
            tally.faults[fault] += 1
        elif action is None:
            tally.faults["illegal"] += 1
        self.play(action or default_action(legal))

    def play_default(self) -> None:
        player = self.match.to_play
        assert player is not None
        self.tallies[player].faults["timeout"] += 1
        self.play(default_action(self.match.legal_actions()))

    def play(self, action: Action) -> None:
        self.match.apply(action)
        self.advice, self.asked_advice = None, False

    def result(self) -> GameResult:
        m = self.match
        won = [h for h in m.history if h.result.winner is not None]
        last = won[-1] if won else (m.history[-1] if m.history else None)
        winner = None
        if last is not None and last.result.winner is not None:
            winner = last.result.winner.value
        return GameResult(
            index=self.spec.index, seats=self.seats, winner=winner,
            points=last.result.points if last else 0,
            outcome=last.result.outcome.value if last else "drawn",
            tallies={name: {"decisions": t.decisions, "seconds": round(t.seconds, 6),
                            **t.faults, **({"first_crash": t.first_crash}
                                           if t.first_crash else {})}
                     for name, t in self.tallies.items()},
            record=json.dumps(m.to_dict(), ensure_ascii=False, separators=(",", ":")))


def play_games(specs: Iterable[GameSpec], players: Mapping[str, Player], *,
               rules: Rules = STANDARD, budget: Budget = Budget(),
               max_hands: int | None = 3, lanes: int = 128,
               trusted: Iterable[str] = (),
               done: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play ``specs`` with ``players`` (by name), ``lanes`` games at a time; the results
    in the order of the specs.  ``trusted``: bots whose time is not held against them
    (the reference bots, in this process); ``done(1)`` is told as each game ends.

    Each bot is asked for the decisions of every game waiting on it, in one batch, and
    has at most one batch out at a time.  The batches are answered in the order they
    were sent: while the driver reads one bot's answers and plays them on (its games'
    next requests queued for the bots they wait on, each sent as soon as that bot is
    free), the other bots compute theirs.  Nothing in the schedule depends on timing:
    the same players give the same batches in the same order on any machine."""
    with fewer_collections():
        return _play_games(specs, players, rules, budget, max_hands, lanes, set(trusted),
                           done)


#: The cyclic garbage collector's first threshold while games are played (the caller's
#: comes back after): a game makes and drops many small objects (views, batches,
#: answers) that hold no cycles, and at the default 700 the collector's passes cost a
#: sandboxed tournament about a twentieth of its time.
GC_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect cycles less often inside the block (:data:`GC_THRESHOLD`)."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _play_games(specs: Iterable[GameSpec], players: Mapping[str, Player], rules: Rules,
                budget: Budget, max_hands: int | None, lanes: int, trusted: set[str],
                done: Callable[[int], None] | None) -> list[GameResult]:
    waiting = list(specs)[::-1]
    results: dict[int, GameResult] = {}
    queued: dict[str, list[tuple[_Game, Request]]] = {}
    out: dict[str, list[tuple[_Game, Request]]] = {}  # the batch each bot computes
    order: deque[str] = deque()  # the bots with a batch out, in the order sent
    running = 0

    def advance(game: _Game) -> None:
        """Play ``game`` on to its next request (queued), or to its end."""
        nonlocal running
        while not game.done:
            asked = game.next_request(budget)
            if asked is not None:
                queued.setdefault(asked[0], []).append((game, asked[1]))
                return
            game.play_default()
        results[game.spec.index] = game.result()
        running -= 1
        if done is not None:
            done(1)

    def start_games() -> None:
        nonlocal running
        while waiting and running < lanes:
            running += 1
            advance(_Game(waiting.pop(), rules, max_hands))

    start_games()
    while queued or order:
        for name in [n for n in queued if n not in out]:
            out[name] = batch = queued.pop(name)
            players[name].send([r for _g, r in batch])
            order.append(name)
        name = order.popleft()
        batch = out.pop(name)
        replies = players[name].receive()
        for (game, request), reply in zip(batch, replies, strict=True):
            game.answer(name, request, reply, name in trusted)
            advance(game)
        start_games()
    return [results[s] for s in sorted(results)]
