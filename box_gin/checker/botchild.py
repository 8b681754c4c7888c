# mypy: ignore-errors
# (A script run in the sandbox with the bare standard library and the staged engine.)
"""The child process that runs one bot (run as a script in the sandbox, never imported).

Started as ``python -I -S botchild.py LIMITS`` inside the checker's sandbox
(``box_gin/checker/sandbox.py``), from a read-only copy of the engine (the rules, the
views of a seat, the reference bots: nothing of the driver, no other bot, no deck), by
both of its drivers: the tournament (``box_gin/tournament/sandboxed.py``) and the grader
of the bot kata (``box_gin/checker/bots.py``).  It caps itself (CPU time, memory, file
size, processes), reads its orders as JSON lines on stdin and answers on a dedicated
pipe, each line led by a nonce.

The setup brings the bot's code: its cells, but those to ``skip`` (with ``progress``, a
line before each cell, so that the driver knows which cell stopped it).  Every later
line is a batch of decisions, each a seat's view in the compact form of
``box_gin/checker/seatwire.py``, under the batch's ``rules`` when it names them (else
the last ones named, or the setup's).  The answer is a line per decision, as soon as it
is ready: the action's text (or null); ``k`` 1 when the bot returned an action (for
``advise``: or an ``Advice`` of one), else ``r``, what it returned, in short.  A
decision that raises is answered ``{"e": name, "m": message}``; one that runs past its
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
import signal
import sys
import time
import types


def setup_sandbox(limits: dict) -> bool:
    """The checker child's own part of the sandbox (a capped /tmp, every capability
    dropped, the limits), loaded from its staged copy beside this script."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "box_gin_sandbox_child", os.path.join(here, "child.py"))
    if spec is None or spec.loader is None:
        return False
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return bool(module.setup_sandbox(limits))


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


def main() -> None:
    if not setup_sandbox(json.loads(sys.argv[1])):
        sys.exit(3)  # a part of the sandbox asked for is not in force: run nothing
    stdin = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    setup = json.loads(stdin.readline())
    nonce, fd = setup["nonce"].encode(), int(setup["fd"])
    # A decision's time as the child reports it is its CPU time (the tournament's tally;
    # the bot kata's grader reads the kernel's count instead).
    write, dumps, loads, now = os.write, json.dumps, json.loads, time.process_time
    sys.path.insert(0, os.path.dirname(setup["package"]))

    def send(message: dict) -> None:
        data = nonce + b" " + dumps(message, separators=(",", ":")).encode() + b"\n"
        while data:
            data = data[write(fd, data):]

    from box_gin.actions import Action
    from box_gin.bots import Advice
    from box_gin.checker import seatwire as wire
    from box_gin.match import SitterView

    _stubs()

    class Timeout(BaseException):
        pass

    rang = [""]

    def ring(signum, frame):
        rang[0] = "cpu" if signum == signal.SIGPROF else "wall"
        raise Timeout()

    signal.signal(signal.SIGALRM, ring)
    signal.signal(signal.SIGPROF, ring)
    setitimer, real, prof = signal.setitimer, signal.ITIMER_REAL, signal.ITIMER_PROF
    decoders: dict = {}

    def decoder_of(rules):
        key = dumps(rules, sort_keys=True)
        if key not in decoders:
            decoders[key] = wire.decoder(rules)
        return decoders[key]

    decode = decoder_of(setup["rules"]) if setup.get("rules") else None
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    errors = []
    skip = set(setup.get("skip", []))
    progress = bool(setup.get("progress"))
    for index, (label, source) in enumerate(setup["cells"]):
        if index in skip:
            continue
        if progress:
            send({"t": "cell", "i": index})
        try:
            code = compile(source, label, "exec")
            cell = float(setup.get("cell_seconds", 10))  # CPU time; the clock a safety
            setitimer(prof, cell)
            setitimer(real, cell * 4 + 5)  # box_gin.katas.wire.wall_seconds
            try:
                exec(code, namespace)
            finally:
                setitimer(real, 0)
                setitimer(prof, 0)
        except Timeout:
            errors.append(f"{label}: did not finish in time")
        except BaseException as exc:  # SystemExit, KeyboardInterrupt... anything
            errors.append(f"{label}: {type(exc).__name__}")
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
    for line in stdin:
        request = loads(line)
        number = request["id"]
        round_ = request.get("r")
        if request.get("rules"):
            decode = decoder_of(request["rules"])
        for i, (kind, data, advice) in enumerate(request["q"]):
            if round_ is not None and round_ == stopped_round[0]:
                send({"t": "a", "id": number, "i": i, "a": {"u": 1}, "s": 0})
                continue
            start = now()
            try:
                view = decode(data)
                if cpu_call:
                    setitimer(prof, cpu_call)
                setitimer(real, per_call)
                try:
                    if kind == "a":
                        value = advise(SitterView(view)) if advise else None
                    elif with_advice:
                        value = play(view, wire.action(advice) if advice else None)
                    else:
                        value = play(view)
                    reply = answer(kind, value)  # a hostile __repr__ is timed too
                finally:
                    setitimer(real, 0)
                    if cpu_call:
                        setitimer(prof, 0)
            except Timeout:
                reply = {"a": {"x": 1, "w": rang[0]}}
                stopped_round[0] = round_
            except BaseException as exc:
                try:
                    reply = {"a": {"e": type(exc).__name__[:60], "m": str(exc)[:200]}}
                except BaseException:
                    reply = {"a": {"e": "?", "m": ""}}
            # Each answer as soon as it is ready: the driver times every decision.
            send({"t": "a", "id": number, "i": i, **reply, "s": round(now() - start, 6)})
    os._exit(0)


if __name__ == "__main__":
    main()
