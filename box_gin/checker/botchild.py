# mypy: ignore-errors
# (A script run in the sandbox with the bare standard library and the staged engine.)
"""The child process that runs one bot (run as a script in the sandbox, never imported).

Started as ``python -I -S botchild.py LIMITS`` inside the checker's sandbox
(``box_gin/checker/sandbox.py``), from a read-only copy of the engine (the rules, the
views of a seat, the reference bots: nothing of the driver, no other bot, no deck), by
both of its drivers: the tournament (``box_gin/tournament/sandboxed.py``) and the grader
of the bot kata (``box_gin/checker/bots.py``).  Its start (the caps on CPU time, memory,
file size and processes), its pipe and its cells are the runtime every child shares
(``runtime.py``), its timers the kit's one timer (``katas/timer.py``): it reads its
orders as JSON lines on stdin and answers on a dedicated pipe, each line led by a nonce.

The setup brings the bot's code: its cells, but those to ``skip`` (with ``progress``, a
line before each cell, so that the driver knows which cell stopped it).  Every later
line is a batch of decisions, each a seat's view in the compact form of
``box_gin/checker/seatwire.py`` (whole, or what changed since the child's last view of
the hand: the child keeps them, one a slot), under the batch's ``rules`` when it names
them (else the last ones named, or the setup's).  The answers come in order, several to a line
(``{"t": "a", "id": batch, "i": first, "n": [answer, ...]}``): a line at the batch's end,
and as soon as :data:`FLUSH` seconds have passed since the last one, so that a slow
decision is known the moment it is decided.  An answer holds the action's text (``a``,
or null); ``k`` 1 when the bot returned an action (for ``advise``: or an ``Advice`` of
one), else ``r``, what it returned, in short; ``s`` its CPU seconds.  A
decision that raises is answered ``{"e": name, "m": message}``, with where in the bot's
code it was raised when that is known (``w`` the cell's label, ``l`` the line, ``f`` the
function: the innermost frame of the bot's own cells); one that runs past its
time ``{"x": 1, "w": "cpu"}`` (``cpu_seconds`` of CPU time, when the setup sets them)
or ``{"x": 1, "w": "wall"}`` (``decision_seconds`` on the clock); once one is
stopped so, the other decisions of its round (``r``), if the batch names one, are
answered ``{"u": 1}`` without being computed.  Whatever it sends,
the driver checks; the grader also times each decision itself, from the kernel's count
of the sandbox's CPU time.
"""

import inspect
import json
import os
import sys
import time
import types

#: Seconds a bot's child keeps the answers it has before it sends them: the driver reads
#: a line for many quick decisions, and learns of a slow one as soon as it is decided.
FLUSH = 0.02
#: The most answers in one line (a line stays far below the drivers' bound on a line).
HOLD = 256


def _load(path: str, name: str):
    """A staged module by its path (the runtime's own loader, before the runtime)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stubs() -> None:
    """What a bot's notebook imports to check itself (``check(play)``), doing nothing
    here: the bot is being graded or is playing."""
    import box_gin

    def check(*args, **kwargs):
        return None

    for name in ("box_gin.tournament", "box_gin.tournament.strength", "box_gin.katas"):
        module = types.ModuleType(name, "check() does nothing where a bot is graded.")
        module.check = check
        sys.modules[name] = module
    sys.modules["box_gin.tournament"].strength = sys.modules["box_gin.tournament.strength"]
    box_gin.tournament = sys.modules["box_gin.tournament"]
    box_gin.katas = sys.modules["box_gin.katas"]


def _short(value) -> str:
    """What a bot returned, in at most 60 characters."""
    try:
        text = repr(value)
        text = text if isinstance(text, str) else "?"
    except BaseException:  # a hostile __repr__
        text = "?"
    return text if len(text) <= 60 else text[:57] + "..."


def _where(exc, labels) -> dict:
    """Where in the bot's own cells (``labels``) ``exc`` was raised: the innermost such
    frame's cell, line and function, else nothing."""
    found, tb = {}, exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in labels:
            found = {"w": str(code.co_filename)[:120], "l": int(tb.tb_lineno),
                     "f": str(code.co_name)[:60]}
        tb = tb.tb_next
    return found


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    runtime = _load(os.path.join(here, "runtime.py"), "_box_gin_runtime")
    session = runtime.start()
    setup, send = session.setup, session.send
    # A decision's time as the child reports it is its CPU time (the tournament's tally;
    # the bot kata's grader reads the kernel's count instead).
    dumps, now = json.dumps, time.process_time
    sys.path.insert(0, os.path.dirname(setup["package"]))
    timer = _load(os.path.join(setup["package"], "katas", "timer.py"), "_box_gin_timer")
    timer.install()
    arm, disarm, Rang = timer.arm, timer.disarm, timer.Rang

    from box_gin.actions import Action
    from box_gin.bots import Advice
    from box_gin.checker import seatwire as wire
    from box_gin.match import SitterView

    _stubs()
    decoders: dict = {}
    histories: dict = {}  # the hands' last views by slot (seatwire.Histories)

    def decoder_of(rules):
        key = dumps(rules, sort_keys=True)
        if key not in decoders:
            decoders[key] = wire.decoder(rules, histories)
        return decoders[key]

    decode = decoder_of(setup["rules"]) if setup.get("rules") else None
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    errors = runtime.run_cells(session, namespace, timer, progress=bool(setup.get("progress")))
    labels = {label for label, _source in setup["cells"]}
    play, advise = namespace.get("play"), namespace.get("advise")
    play = play if callable(play) else None
    advise = advise if callable(advise) else None
    with_advice = False
    if play is not None:
        try:
            params = [p for p in inspect.signature(play).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
            with_advice = len(params) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)
        except (TypeError, ValueError):
            pass
    functions = [n for n in setup.get("functions", []) if callable(namespace.get(n))]
    send({"t": "ready", "play": play is not None, "advise": advise is not None,
          "functions": functions, "errors": errors[:20]})
    per_call = float(setup.get("decision_seconds", 1.0))
    cpu_call = float(setup.get("cpu_seconds", 0))  # 0: no timer on the CPU time

    def answer(kind, value) -> dict:
        """The answer's line: the action's text (what the tournament reads), and whether
        the bot returned an action (what the bot kata asks), else what it returned."""
        action = getattr(value, "action", value)  # an Advice: its action
        if isinstance(value, str):
            text = value[:300]
        elif action is None:
            text = None
        else:
            text = str(action)
            text = text[:300] if isinstance(text, str) else None
        if isinstance(value, Action) or (kind == "a" and isinstance(value, Advice)
                                         and isinstance(value.action, Action)):
            return {"a": text, "k": 1}
        return {"a": text, "r": _short(value)}

    # A batch may belong to a round ("r"): once a decision of the round is stopped by
    # its timer, the round's other decisions are not computed, only answered "u"
    # (unasked), so that one slow decision costs its time once, not once a hand.
    stopped_round = [None]
    clock = time.monotonic
    for request in session.lines():
        number = request["id"]
        round_ = request.get("r")
        if request.get("rules"):
            decode = decoder_of(request["rules"])
        questions = request["q"]
        last = len(questions) - 1
        # The answers go in lines of several ("n"), from the decision "i" on: a line as
        # soon as FLUSH seconds have passed since the last one, and at the batch's end.
        held, first, flushed = [], 0, clock()
        for i, (kind, data, advice) in enumerate(questions):
            if round_ is not None and round_ == stopped_round[0]:
                held.append({"a": {"u": 1}, "s": 0})
                if i == last:
                    send({"t": "a", "id": number, "i": first, "n": held})
                continue
            start = now()
            try:
                view = decode(data)
                arm(cpu_call, per_call)  # cpu_call 0: the clock only
                try:
                    if kind == "a":
                        value = advise(SitterView(view)) if advise else None
                    elif with_advice:
                        value = play(view, wire.action(advice) if advice else None)
                    else:
                        value = play(view)
                    reply = answer(kind, value)  # a hostile __repr__ is timed too
                finally:
                    disarm()
            except Rang as rang:
                reply = {"a": {"x": 1, "w": rang.which}}
                stopped_round[0] = round_
            except BaseException as exc:
                try:
                    reply = {"a": {"e": type(exc).__name__[:60], "m": str(exc)[:200],
                                   **_where(exc, labels)}}
                except BaseException:
                    reply = {"a": {"e": "?", "m": ""}}
            reply["s"] = round(now() - start, 6)
            held.append(reply)
            if i == last or len(held) >= HOLD or clock() - flushed >= FLUSH:
                send({"t": "a", "id": number, "i": first, "n": held})
                held, first, flushed = [], i + 1, clock()
    os._exit(0)


if __name__ == "__main__":
    main()
