# mypy: ignore-errors
# (A script run with the bare standard library that rebuilds modules by hand: setting
# attributes on ModuleType and swapping module __getattr__ is the point, not a slip.)
"""The child process that runs one submission's code (run as a script, never imported).

Started by the checker as ``python -I -S child.py`` inside its sandbox (see
``sandbox.py``), from a read-only copy of the few modules it may load.  Its start, its
limits, its pipe and the running of the cells are the runtime every child shares
(``runtime.py``); its timers are the kit's one timer (``katas/timer.py``).  It reads its
orders as JSON lines on stdin and answers on a dedicated pipe, each line led by a nonce,
never on stdout (which goes nowhere).

The only part of ``box_gin`` a submission can import is what a learner needs and what
holds no answer: ``box_gin.cards`` (``Card``, ``Suit``), ``box_gin.display`` (here: the
card faces of ``box_gin.views.cards`` only), ``box_gin.errors`` and ``box_gin.i18n``;
``box_gin.katas.check`` does nothing here.
The engine's own answer to the kata being graded (``Card.value`` for ``card_value``...)
is removed while that kata runs.  Every attempt to reach something else is recorded and
reported, so the feedback can say why.

The child only ever sends back what the learner's functions returned; it never sees an
expected answer.  Whatever it sends, the checker judges.
"""

# This file runs with an empty sys.path apart from the standard library: no third-party
# imports, and nothing from box_gin but the allowed modules, loaded through the gate.

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import time
import types

ALLOWED = frozenset({"box_gin.cards", "box_gin.errors", "box_gin.i18n", "box_gin.views",
                     "box_gin.views.cards"})
EXPORTS = ("Card", "Suit", "full_deck", "format_cards", "InvalidCardError", "BoxGinError")


def main() -> None:
    """Set up (``runtime.start``), run the submission's cells, then answer requests
    until EOF."""
    here = os.path.dirname(os.path.abspath(__file__))
    runtime = _load(os.path.join(here, "runtime.py"), "_box_gin_runtime")
    session = runtime.start()
    setup = session.setup
    send = session.send
    now, cpu = time.monotonic, time.process_time

    blocked: list = []
    cards, wire = _restricted_box_gin(setup["package"], blocked)
    timer = _load(os.path.join(setup["package"], "katas", "timer.py"), "_box_gin_timer")
    timer.install()
    card_type = cards.Card
    by_text = {repr(c): c for c in cards.CARDS.values()}
    wall, arm, disarm = timer.wall_seconds, timer.arm, timer.disarm

    # The engine's own answers to the katas this child grades, removed for good before
    # any student code runs (nothing keeps them: no frame or object to find them in).
    for owner, attr in setup.get("hide", []):
        owner = card_type if owner == "Card" else cards
        if attr in vars(owner):
            _disarm(vars(owner)[attr])
            delattr(owner, attr)
    send({"t": "hello"})
    namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    errors = runtime.run_cells(session, namespace, timer)
    functions = [n for n in setup.get("functions", []) if callable(namespace.get(n))]
    send({"t": "ready", "errors": errors, "functions": functions, "blocked": blocked})

    for request in session.lines():
        fn = namespace.get(request["function"])
        outcomes = []
        start, start_cpu = now(), cpu()
        per_call, budget = float(request.get("timeout", 2)), float(request.get("budget", 20))
        for data in request["cases"]:
            if cpu() - start_cpu > budget or now() - start > wall(budget):
                outcomes.append({"timeout": per_call, "budget": True})
                continue
            try:
                # The one way both checks call a function (the notebook's check too).
                outcomes.append(wire.answer(
                    fn, data, card_type=card_type, card_text=repr, card_of=by_text.__getitem__,
                    start=lambda t=per_call: arm(t), stop=disarm))
            except timer.Rang:
                outcomes.append({"timeout": per_call})
            except RecursionError:
                outcomes.append({"raised": ["RecursionError", False, "maximum recursion depth"]})
            except BaseException as exc:
                outcomes.append({"raised": [type(exc).__name__, isinstance(exc, ValueError),
                                            runtime.text(exc)]})
        send({"t": "result", "id": request["id"], "outcomes": outcomes, "blocked": blocked})
    os._exit(0)


def _load(path: str, name: str):
    """A staged module by its path (the runtime's own loader, before the runtime)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _disarm(value: object) -> None:
    """Make a removed engine function raise wherever a reference to it survives (the
    property object of a dataclass's first class, found through ``gc``...)."""
    fn = getattr(value, "fget", None) or getattr(value, "__func__", None) or value

    def stub(*args, **kwargs):
        raise AttributeError("not available while this kata is graded")

    if isinstance(fn, types.FunctionType):
        with contextlib.suppress(ValueError, TypeError):
            fn.__code__ = stub.__code__


def _restricted_box_gin(package: str, blocked: list) -> tuple:
    """Install the gate and the stand-in ``box_gin`` package; load the wire format."""
    wire = _load(os.path.join(package, "katas", "wire.py"), "_box_gin_wire")

    def refuse(name: str) -> str:
        blocked.append(name)
        return (f"{name} is not available when katas are graded: only box_gin.cards "
                f"(Card, Suit) and box_gin.display are. Write the kata with your own code.")

    class Gate(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "box_gin" and not name.startswith("box_gin."):
                return None
            if name in ALLOWED:  # looked up in its own folder of the staged copy only
                folder = os.path.join(package, *name.split(".")[1:-1])
                return importlib.machinery.PathFinder.find_spec(name, [folder])
            raise ImportError(refuse(name), name=name)

    sys.meta_path.insert(0, Gate())
    root = types.ModuleType("box_gin", "box_gin, as a kata sees it: cards and display only.")
    root.__path__ = [package]
    root.__package__ = "box_gin"
    sys.modules["box_gin"] = root
    katas = types.ModuleType("box_gin.katas")
    katas.check = lambda *args, **kwargs: None

    def missing(name: str, module: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(refuse(f"{module}.{name}"))

    katas.__getattr__ = lambda name: missing(name, "box_gin.katas")
    sys.modules["box_gin.katas"] = katas
    root.katas = katas
    import box_gin.cards as cards
    import box_gin.errors as errors
    import box_gin.views.cards as faces

    # box_gin.display, as a kata sees it: the card faces; the rest of the views needs
    # the engine, which is not here.
    display = types.ModuleType("box_gin.display", faces.__doc__)
    for name in faces.__all__:
        setattr(display, name, getattr(faces, name))
    display.__getattr__ = lambda name: missing(name, "box_gin.display")
    sys.modules["box_gin.display"] = display
    root.display = display
    for name in EXPORTS:
        setattr(root, name, getattr(cards, name, None) or getattr(errors, name))
    root.__getattr__ = lambda name: missing(name, "box_gin")
    return cards, wire


if __name__ == "__main__":
    main()
