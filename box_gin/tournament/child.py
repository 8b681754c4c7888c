# mypy: ignore-errors
# (A script run in the sandbox with the bare standard library and the staged engine.)
"""The child process that runs one bot (run as a script in the sandbox, never imported).

Started by the tournament as ``python -I -S child.py LIMITS`` inside the grader's
sandbox (``box_gin/checker/sandbox.py``), from a read-only copy of the engine (the
rules, the views of a seat, the reference bots: nothing of the driver, no other
bot, no deck).  It caps itself (CPU time, memory, file size, processes), reads its
orders as JSON lines on stdin and answers on a dedicated pipe, each line led by a
nonce.  The setup brings the bot's code; every later line is a batch of decisions,
each a seat's view in the compact form of ``box_gin/tournament/wire.py``; the answer
is one action text (or null) per decision.  A decision that raises is answered
``{"e": name}``, one that runs past its time ``{"x": 1}``.  Whatever it sends, the
driver checks.
"""

import inspect
import json
import os
import signal
import sys
import time


def limit(limits: dict) -> None:
    import resource

    def cap(which: int, value: int) -> None:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass

    cap(resource.RLIMIT_CPU, int(limits["cpu"]))
    cap(resource.RLIMIT_AS, int(limits["memory"]))
    cap(resource.RLIMIT_FSIZE, int(limits["file"]))
    cap(resource.RLIMIT_CORE, 0)
    if int(limits["processes"]) > 0:
        cap(resource.RLIMIT_NPROC, int(limits["processes"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def main() -> None:
    limit(json.loads(sys.argv[1]))
    stdin = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    setup = json.loads(stdin.readline())
    nonce, fd = setup["nonce"].encode(), int(setup["fd"])
    write, dumps, loads, now = os.write, json.dumps, json.loads, time.perf_counter
    sys.path.insert(0, os.path.dirname(setup["package"]))

    def send(message: dict) -> None:
        data = nonce + b" " + dumps(message, separators=(",", ":")).encode() + b"\n"
        while data:
            data = data[write(fd, data):]

    from box_gin.match import SitterView
    from box_gin.tournament import wire

    class Timeout(BaseException):
        pass

    def ring(signum, frame):
        raise Timeout()

    signal.signal(signal.SIGALRM, ring)
    setitimer, real = signal.setitimer, signal.ITIMER_REAL
    decode = wire.decoder(setup["rules"])
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    errors = []
    for label, source in setup["cells"]:
        try:
            code = compile(source, label, "exec")
            setitimer(real, float(setup.get("cell_seconds", 10)))
            try:
                exec(code, namespace)
            finally:
                setitimer(real, 0)
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
    send({"t": "ready", "play": play is not None, "advise": advise is not None,
          "errors": errors[:20]})
    per_call = float(setup.get("decision_seconds", 1.0))

    def text(value):
        action = getattr(value, "action", value)  # an Advice: its action
        if isinstance(value, str):
            return value[:300]
        if action is None:
            return None
        s = str(action)
        return s[:300] if isinstance(s, str) else None

    for line in stdin:
        request = loads(line)
        number = request["id"]
        for i, (kind, data, advice) in enumerate(request["q"]):
            start = now()
            try:
                view = decode(data)
                setitimer(real, per_call)
                try:
                    if kind == "a":
                        value = advise(SitterView(view)) if advise else None
                    elif with_advice:
                        value = play(view, wire.action(advice) if advice else None)
                    else:
                        value = play(view)
                finally:
                    setitimer(real, 0)
                answer = text(value)
            except Timeout:
                answer = {"x": 1}
            except BaseException as exc:
                try:
                    answer = {"e": type(exc).__name__[:60]}
                except BaseException:
                    answer = {"e": "?"}
            # Each answer as soon as it is ready: the driver times every decision.
            send({"t": "a", "id": number, "i": i, "a": answer, "s": round(now() - start, 6)})
    os._exit(0)


if __name__ == "__main__":
    main()
