# mypy: ignore-errors
# (A script run with the bare standard library that rebuilds modules by hand: setting
# attributes on ModuleType and swapping module __getattr__ is the point, not a slip.)
"""The child process that runs one submission's code (run as a script, never imported).

Started by the checker as ``python -I -S child.py`` inside its sandbox (see
``sandbox.py``), from a read-only copy of the few modules it may load, with limits on
CPU time, memory, file size and processes, in a session of its own.  It reads its orders
as JSON lines on stdin and answers on a dedicated pipe, each line led by a nonce, never
on stdout (which goes nowhere).

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
import json
import os
import signal
import sys
import time
import types

ALLOWED = frozenset({"box_gin.cards", "box_gin.errors", "box_gin.i18n", "box_gin.views",
                     "box_gin.views.cards"})
EXPORTS = ("Card", "Suit", "full_deck", "format_cards", "InvalidCardError", "BoxGinError")


def setup_sandbox(limits: dict) -> bool:
    """The child's own part of the sandbox, before anything else runs: its capped /tmp
    (bubblewrap: bytes *and* files, which bubblewrap's own tmpfs cannot cap), every
    capability dropped for good, then the limits.  False when a part asked for is not
    in force (the caller must not go on)."""
    ok = True
    if "tmp" in limits:
        ok = _capped_tmp(int(limits["tmp"]["bytes"]), int(limits["tmp"]["inodes"]))
    ok = _drop_capabilities() and ok
    limit(limits)
    return ok


def _capped_tmp(size: int, inodes: int) -> bool:
    """Mount a fresh /tmp capped in bytes and inodes, in a mount namespace of the child's
    own (every mount it inherits stays locked as bubblewrap made it: read-only)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        return False
    options = f"size={size},nr_inodes={inodes},mode=1777".encode()
    return libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 2 | 4, options) == 0  # nosuid, nodev


def _drop_capabilities() -> bool:
    """No capability left in any set (bubblewrap gave one only for the mount above)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, self
    data = (ctypes.c_uint32 * 6)()
    libc.capset(header, data)
    try:
        with open("/proc/self/status") as f:
            sets = {line.split(":")[0]: line.split(":")[1].strip() for line in f
                    if line.startswith(("CapInh", "CapPrm", "CapEff", "CapAmb"))}
    except OSError:
        return False
    return len(sets) == 4 and all(int(v, 16) == 0 for v in sets.values())


def limit(limits: dict) -> None:
    """Cap CPU time, address space, file size, open files, core dumps and (in a sandbox)
    processes."""
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
    if int(limits.get("files", 0)) > 0:  # sockets and pipes: the kernel buffers they hold
        cap(resource.RLIMIT_NOFILE, int(limits["files"]))
    if int(limits["processes"]) > 0:  # the sandbox's own count: no new process or thread
        cap(resource.RLIMIT_NPROC, int(limits["processes"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing too much raises, not kills


def main() -> None:
    """Read the setup, run the submission's cells, then answer requests until EOF."""
    if not setup_sandbox(json.loads(sys.argv[1])):
        os._exit(3)
    stdin = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    setup = json.loads(stdin.readline())
    nonce, fd = setup["nonce"].encode(), int(setup["fd"])
    write, dumps, loads, now, cpu = os.write, json.dumps, json.loads, time.monotonic, \
        time.process_time
    setitimer, real, prof = signal.setitimer, signal.ITIMER_REAL, signal.ITIMER_PROF

    def send(message: dict) -> None:
        data = nonce + b" " + dumps(message).encode() + b"\n"
        while data:
            data = data[write(fd, data):]

    blocked: list = []
    cards, wire = _restricted_box_gin(setup["package"], blocked)
    card_type = cards.Card
    by_text = {repr(c): c for c in cards.CARDS.values()}

    class Timeout(BaseException):
        pass

    def ring(signum: int, frame: object) -> None:
        raise Timeout()

    # Limits are CPU seconds (ITIMER_PROF), so a busy machine changes no verdict; the
    # wall-clock timer is the safety for code that waits instead of computing.
    wall = wire.wall_seconds
    signal.signal(signal.SIGALRM, ring)
    signal.signal(signal.SIGPROF, ring)

    def arm(seconds: float) -> None:
        setitimer(prof, seconds)
        setitimer(real, wall(seconds))

    def disarm() -> None:
        setitimer(real, 0)
        setitimer(prof, 0)

    # The engine's own answers to the katas this child grades, removed for good before
    # any student code runs (nothing keeps them: no frame or object to find them in).
    for owner, attr in setup.get("hide", []):
        owner = card_type if owner == "Card" else cards
        if attr in vars(owner):
            _disarm(vars(owner)[attr])
            delattr(owner, attr)
    send({"t": "hello"})
    namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    errors = []
    skip = set(setup.get("skip", []))
    for index, (label, source) in enumerate(setup["cells"]):
        if index in skip:
            continue
        send({"t": "cell", "i": index})
        try:
            code = compile(source, label, "exec")
            arm(float(setup.get("cell_seconds", 10)))
            try:
                exec(code, namespace)
            finally:
                disarm()
        except Timeout:
            errors.append(f"{label}: did not finish within {setup.get('cell_seconds', 10)} s")
        except SyntaxError as exc:
            errors.append(f"{label}: SyntaxError: {exc.msg} (line {exc.lineno})")
        except BaseException as exc:  # SystemExit, KeyboardInterrupt... anything
            errors.append(f"{label}: {type(exc).__name__}: {_text(exc)}")
    functions = [n for n in setup.get("functions", []) if callable(namespace.get(n))]
    send({"t": "ready", "errors": errors, "functions": functions, "blocked": blocked})

    for line in stdin:
        request = loads(line)
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
            except Timeout:
                outcomes.append({"timeout": per_call})
            except RecursionError:
                outcomes.append({"raised": ["RecursionError", False, "maximum recursion depth"]})
            except BaseException as exc:
                outcomes.append({"raised": [type(exc).__name__, isinstance(exc, ValueError),
                                            _text(exc)]})
        send({"t": "result", "id": request["id"], "outcomes": outcomes, "blocked": blocked})
    os._exit(0)


def _disarm(value: object) -> None:
    """Make a removed engine function raise wherever a reference to it survives (the
    property object of a dataclass's first class, found through ``gc``...)."""
    fn = getattr(value, "fget", None) or getattr(value, "__func__", None) or value

    def stub(*args, **kwargs):
        raise AttributeError("not available while this kata is graded")

    if isinstance(fn, types.FunctionType):
        with contextlib.suppress(ValueError, TypeError):
            fn.__code__ = stub.__code__


def _text(exc: BaseException) -> str:
    try:
        return str(exc)[:300]
    except BaseException:
        return "?"


def _restricted_box_gin(package: str, blocked: list) -> tuple:
    """Install the gate and the stand-in ``box_gin`` package; load the wire format."""
    spec = importlib.util.spec_from_file_location(
        "_box_gin_wire", os.path.join(package, "katas", "wire.py"))
    wire = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wire)

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
