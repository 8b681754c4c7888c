"""Build the zero-install classroom: a static JupyterLite site in ``build/lite/``.

    python -m box_gin.tools.lite            # what `make lite` runs
    python -m box_gin.tools.lite --out DIR --cache DIR

Everything the site needs is assembled from the package registries, never from a CDN:

* the Pyodide runtime is the npm registry's ``pyodide`` package (its tarball, checked
  against the registry's sha512), at the version ``lite/site.toml`` names;
* the npm package carries no Python packages, so its ``pyodide-lock.json`` is cut down to
  the pure wheels the kernel needs (ipython, jedi, micropip...), each downloaded from PyPI
  with pip at the lock's own version (the lock gets their sha256); compiled
  packages (numpy, matplotlib) are left out of the lock, so an ``import matplotlib``
  fails at once with ``ModuleNotFoundError`` instead of asking for a file that is not
  there;
* box-gin itself is a pure wheel built from a copy of this checkout with
  ``BOX_GIN_NO_COMPILE=1`` (``box_gin.tools.kit.build_pure_wheel``: the checkout's compiled
  kernels are never touched)
  (less the catalogs' .po sources: the browser reads the compiled .mo files), added to
  the lock with its dependencies (babel, rich) and the widget packages, and
  preloaded when the kernel starts: a notebook's ``import box_gin`` just works.

The site is written by ``jupyter lite build`` (jupyterlite-core and
jupyterlite-pyodide-kernel, the ``lite`` extra), with ``lite/`` as its lite dir.  It
needs this module's imports only from the standard library, so it also runs from a
checkout where box-gin is not installed.
"""

from __future__ import annotations

import argparse
import base64
import email.parser
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LITE_DIR = ROOT / "lite"
SITE_TOML = LITE_DIR / "site.toml"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: The kernelspec of the Pyodide kernel; the staged notebooks are switched to it so that
#: JupyterLite opens them without asking which kernel to use.
PYODIDE_KERNELSPEC = {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}
#: What the browser's Python is: for evaluating wheels' environment markers.
BROWSER_ENV = {
    "python_version": "3.14", "python_full_version": "3.14.2", "sys_platform": "emscripten",
    "platform_system": "Emscripten", "platform_machine": "wasm32", "os_name": "posix",
    "implementation_name": "cpython", "platform_python_implementation": "CPython",
    "extra": "",
}


class LiteBuildError(RuntimeError):
    """The site could not be assembled; the message says which input and why."""


def canonical(name: str) -> str:
    """A package name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def log(message: str) -> None:
    print(f"lite: {message}", flush=True)


# -- configuration --------------------------------------------------------------------

def read_config(path: Path = SITE_TOML) -> dict[str, Any]:
    with path.open("rb") as f:
        config: dict[str, Any] = tomllib.load(f)
    for table, key in (("contents", "landing"), ("contents", "pages"),
                       ("pyodide", "version"), ("pyodide", "extra_wheels"),
                       ("pyodide", "preload")):
        if key not in config.get(table, {}):
            raise LiteBuildError(f"{path}: [{table}] needs a `{key}` entry")
    return config


def select_pages(root: Path, landing: Sequence[str], pages: Sequence[str]) -> list[Path]:
    """The notebooks to publish, relative to ``root``: the first landing notebook found,
    then every page glob's matches in sorted order, each path once."""
    chosen: list[Path] = []
    kit_files = _files().kit_files  # never a checkpoint, a cache or a scratch notebook
    for pattern in landing:
        found = kit_files(root, pattern)
        if found:
            chosen.append(found[0].relative_to(root))
            break
    for pattern in pages:
        for path in kit_files(root, pattern):
            rel = path.relative_to(root)
            if rel not in chosen:
                chosen.append(rel)
    return chosen


def stage_contents(root: Path, pages: Sequence[Path], dest: Path) -> None:
    """Copy the notebooks into ``dest`` under their own paths, their kernelspec switched
    to the Pyodide kernel (outputs and everything else kept as committed)."""
    shutil.rmtree(dest, ignore_errors=True)
    for rel in pages:
        nb = json.loads((root / rel).read_text(encoding="utf-8"))
        nb.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")


# -- downloads ------------------------------------------------------------------------

def fetch(url: str, dest: Path) -> Path:
    if not dest.exists():
        log(f"fetching {url}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial = dest.with_name(dest.name + ".part")
        with urllib.request.urlopen(url, timeout=300) as response, partial.open("wb") as f:
            shutil.copyfileobj(response, f)
        partial.replace(dest)
    return dest


def fetch_pyodide(version: str, registry: str, cache: Path) -> Path:
    """The npm package ``pyodide@version`` as a checked tarball in ``cache``."""
    meta_url = f"{registry.rstrip('/')}/pyodide/{version}"
    try:
        with urllib.request.urlopen(meta_url, timeout=120) as response:
            meta = json.load(response)
    except OSError as err:
        raise LiteBuildError(f"cannot read {meta_url} (the npm registry): {err}") from err
    dist = meta["dist"]
    tarball = fetch(dist["tarball"], cache / f"pyodide-{version}.tgz")
    algorithm, _, expected = dist["integrity"].partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if digest != expected:
        tarball.unlink()
        raise LiteBuildError(f"{dist['tarball']}: {algorithm} is {digest}, the npm "
                             f"registry says {expected}; the download was removed")
    return tarball


def extract_pyodide(tarball: Path, dest: Path) -> None:
    """The runtime files of the npm tarball (``package/*``) into ``dest``."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/")
            if not member.isfile() or "/" in name or name.endswith((".map", ".d.ts")):
                continue
            source = tar.extractfile(member)
            assert source is not None
            (dest / name).write_bytes(source.read())


def pip_download(specs: Iterable[str], dest: Path) -> None:
    """Pure wheels (``py3-none-any``) for the browser's Python, no dependencies."""
    specs = sorted(set(specs))
    if not specs:
        return
    dest.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--only-binary=:all:", "--python-version", BROWSER_ENV["python_version"],
               "--implementation", "py", "--abi", "none", "--platform", "any",
               "--dest", str(dest), *specs]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise LiteBuildError("pip could not download the pure wheels "
                             f"{' '.join(specs)}:\n{pip_errors(done.stderr)}")


def pip_errors(stderr: str) -> str:
    """pip's complaint without its warnings, cut to a readable length."""
    lines = [line[:300] for line in stderr.splitlines() if not line.startswith("WARNING")]
    return "\n".join(lines[-12:])


def _files() -> Any:
    """box_gin.tools.kit (standard library only), loaded by its path: this module also
    runs as a script, from a checkout where box-gin is not installed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "box_gin_kit", Path(__file__).resolve().with_name("kit.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_box_gin_wheel(root: Path, dest: Path) -> Path:
    """box-gin as a pure wheel, built from the checkout without its C extension."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    # Built from a copy (box_gin.tools.kit.build_pure_wheel): the checkout's compiled
    # extension, which its editable install uses, is never touched.
    try:
        _files().build_pure_wheel(root, dest)
    except OSError as err:
        raise LiteBuildError(f"building the box-gin wheel failed:\n{err}") from None
    wheels = sorted(dest.glob("box_gin-*.whl"))
    if len(wheels) != 1 or not wheels[0].name.endswith("-py3-none-any.whl"):
        raise LiteBuildError(f"expected one pure box-gin wheel in {dest}, found "
                             f"{[w.name for w in wheels]}")
    with zipfile.ZipFile(wheels[0]) as whl:
        names = whl.namelist()
    if any(n.endswith((".so", ".pyd")) for n in names):
        raise LiteBuildError(f"{wheels[0].name} holds a compiled file")
    if not any(n.endswith(".mo") for n in names):
        raise LiteBuildError(f"{wheels[0].name} holds no compiled catalog (.mo)")
    drop_catalog_sources(wheels[0])
    return wheels[0]


def drop_catalog_sources(wheel: Path) -> None:
    """Take the catalogs' sources (.po, .pot) out of the wheel, and out of its RECORD.
    The browser reads the compiled .mo; with a .po beside it that unpacked a moment
    later, box_gin.i18n would take the .po for an edit and compile it with babel."""
    def is_source(name: str) -> bool:
        return name.startswith("box_gin/locale/") and name.endswith((".po", ".pot"))

    slim = wheel.with_name(wheel.name + ".part")
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(slim, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if is_source(info.filename):
                continue
            data = src.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                data = "".join(line for line in lines
                               if not is_source(line.split(",")[0])).encode("utf-8")
            out.writestr(info, data)
    slim.replace(wheel)


# -- the lock -------------------------------------------------------------------------

def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as whl:
        name = next(n for n in whl.namelist()
                    if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(whl.read(name).decode("utf-8"))


def wheel_imports(wheel: Path) -> list[str]:
    """The top-level importable names a wheel installs."""
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        top = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        if top:
            return sorted(line.strip() for line in whl.read(top[0]).decode().splitlines()
                          if line.strip())
    found = set()
    for n in names:
        head = n.split("/")[0]
        if head.endswith((".dist-info", ".data")):
            continue
        if "/" in n or n.endswith(".py"):
            found.add(head.removesuffix(".py"))
    return sorted(found)


def marker_holds(marker: str) -> bool:
    """Whether a requirement's environment marker holds in the browser."""
    from packaging.markers import Marker

    return bool(Marker(marker).evaluate(dict(BROWSER_ENV)))


def wheel_depends(wheel: Path) -> list[str]:
    """The canonical names a wheel requires in the browser (no extras)."""
    from packaging.requirements import Requirement

    depends = []
    for line in wheel_metadata(wheel).get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is not None and not marker_holds(str(req.marker)):
            continue
        depends.append(canonical(req.name))
    return sorted(set(depends))


def lock_entry(wheel: Path) -> dict[str, Any]:
    meta = wheel_metadata(wheel)
    return {
        "name": canonical(meta["Name"]), "version": meta["Version"],
        "file_name": wheel.name, "install_dir": "site", "sha256": sha256(wheel),
        "package_type": "package", "imports": wheel_imports(wheel),
        "depends": wheel_depends(wheel), "unvendored_tests": False,
    }


def is_pure(entry: dict[str, Any]) -> bool:
    return str(entry["file_name"]).endswith("-none-any.whl")


def closure(roots: Iterable[str], packages: dict[str, dict[str, Any]]) -> list[str]:
    """Every package ``roots`` need, through ``depends``; an unknown name is an error."""
    seen: list[str] = []
    todo = [canonical(r) for r in roots]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        if name not in packages:
            raise LiteBuildError(f"the browser kernel needs `{name}`, which neither "
                                 "pyodide-lock.json nor [pyodide] extra_wheels provides")
        seen.append(name)
        todo.extend(canonical(d) for d in packages[name]["depends"])
    return sorted(seen)


def assemble_lock(lock: dict[str, Any], added: Sequence[Path], preload: Sequence[str],
                  pyodide_dir: Path, cache: Path,
                  lazy: Sequence[str] = ()) -> dict[str, Any]:
    """The lock cut down to what ``preload`` needs, every wheel beside it in
    ``pyodide_dir``: the lock's pure wheels from PyPI at their locked version, the
    ``added`` wheels described from their own metadata.  The ``lazy`` packages stay in
    the lock but leave every ``depends`` list, so that loading the packages that require
    them does not load them too."""
    packages = {canonical(k): v for k, v in lock["packages"].items()}
    for wheel in added:
        entry = lock_entry(wheel)
        packages[entry["name"]] = entry
    needed = closure(preload, packages)
    compiled = [n for n in needed if not is_pure(packages[n])]
    if compiled:
        raise LiteBuildError(f"the browser kernel would need compiled packages {compiled}, "
                             "which the npm pyodide package does not carry")
    local = {wheel.name: wheel for wheel in added}
    from_lock = [n for n in needed if packages[n]["file_name"] not in local]
    pypi_dir = cache / "pypi"
    pip_download((f"{packages[n]['name']}=={packages[n]['version']}" for n in from_lock),
                 pypi_dir)
    out: dict[str, dict[str, Any]] = {}
    for name in needed:
        entry = dict(packages[name])
        source = local.get(entry["file_name"]) or pypi_dir / entry["file_name"]
        if not source.exists():
            raise LiteBuildError(f"pip gave no {entry['file_name']} for {name}=="
                                 f"{entry['version']} (looked in {pypi_dir})")
        # Pyodide repacks the pure wheels it lists, so PyPI's file (same name, same
        # version) has another sha256: the lock gets the one of the file served.
        entry["sha256"] = sha256(source)
        shutil.copy2(source, pyodide_dir / source.name)
        out[name] = entry
    lazy_names = {canonical(n) for n in lazy}
    for entry in out.values():
        entry["depends"] = [d for d in entry["depends"] if canonical(d) not in lazy_names]
    return {**lock, "packages": out}


# -- the site -------------------------------------------------------------------------

def write_lite_dir(stage: Path, preload: Sequence[str]) -> Path:
    """A copy of ``lite/`` whose jupyter-lite.json preloads ``preload`` in the kernel."""
    lite_dir = stage / "lite-dir"
    shutil.rmtree(lite_dir, ignore_errors=True)
    shutil.copytree(LITE_DIR, lite_dir, ignore=shutil.ignore_patterns("site.toml"))
    config_path = lite_dir / "jupyter-lite.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"].setdefault("litePluginSettings", {})
    kernel = settings.setdefault(KERNEL_PLUGIN, {})
    kernel.setdefault("loadPyodideOptions", {})["packages"] = [canonical(p) for p in preload]
    config_path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return lite_dir


def write_landing_redirect(out: Path, landing: Path | None) -> None:
    """Make the site's front page open the landing notebook.  JupyterLite's own
    ``index.html`` stays (its pages read their configuration from it); a classic script
    at the top of its head, which runs before JupyterLite's module script, goes to the
    landing notebook in the lab instead of the lab's file browser."""
    if landing is None:
        return
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    target = json.dumps(f"./lab/index.html?path={landing.as_posix()}")
    script = f"<script>window.location.replace({target});</script>"
    if "<head>" not in html:
        raise LiteBuildError(f"{index} has no <head> to put the landing redirect in")
    index.write_text(html.replace("<head>", f"<head>\n    {script}", 1), encoding="utf-8")


def check_widgets_version(config: dict[str, Any]) -> None:
    """The widgets labextension (from this environment) must match the kernel's wheel."""
    import importlib.metadata

    pins = {canonical(s.split("==")[0]): s.split("==")[1]
            for s in config["pyodide"]["extra_wheels"] if "==" in s}
    want = pins.get("jupyterlab-widgets")
    try:
        have = importlib.metadata.version("jupyterlab_widgets")
    except importlib.metadata.PackageNotFoundError:
        raise LiteBuildError("jupyterlab_widgets is not installed: install the `lite` "
                             "extra (pip install '.[lite]')") from None
    if want and have != want:
        raise LiteBuildError(f"lite/site.toml pins jupyterlab-widgets=={want} for the "
                             f"kernel, but this environment has {have}: make them equal")


def build(out: Path, cache: Path, root: Path = ROOT) -> Path:
    config = read_config()
    check_widgets_version(config)
    stage = cache / "stage"
    pages = select_pages(root, config["contents"]["landing"], config["contents"]["pages"])
    if not pages:
        raise LiteBuildError("lite/site.toml's [contents] match no notebook")
    stage_contents(root, pages, stage / "files")
    landing = pages[0] if any(
        pages[0].match(p) for p in config["contents"]["landing"]) else None

    py = config["pyodide"]
    tarball = fetch_pyodide(py["version"], py.get("npm_registry",
                                                  "https://registry.npmjs.org"), cache)
    # lite_dir/static/pyodide is where PyodideAddon looks for a local Pyodide first
    lite_dir = write_lite_dir(stage, py["preload"])
    pyodide_dir = lite_dir / "static" / "pyodide"
    extract_pyodide(tarball, pyodide_dir)

    added = [build_box_gin_wheel(root, cache / "box-gin")]
    extra_dir = cache / "extra"
    pip_download(py["extra_wheels"], extra_dir)
    for spec in py["extra_wheels"]:
        name, _, version = spec.partition("==")
        stem = f"{re.sub(r'[-.]+', '_', name)}-{version}-"
        found = [w for w in extra_dir.glob("*.whl") if w.name.lower().startswith(stem.lower())]
        if not found:
            raise LiteBuildError(f"pip gave no wheel for {spec} in {extra_dir}")
        added.append(found[0])
    added += kernel_wheels()

    lock_path = pyodide_dir / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lazy = py.get("lazy", [])
    if set(map(canonical, lazy)) & set(map(canonical, py["preload"])):
        raise LiteBuildError("lite/site.toml: a package cannot be both `preload` and `lazy`")
    new_lock = assemble_lock(lock, added, py["preload"], pyodide_dir, cache, lazy)
    lock_path.write_text(json.dumps(new_lock, indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")
    log(f"pyodide-lock.json: {len(new_lock['packages'])} of {len(lock['packages'])} "
        "packages, all local")

    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "jupyterlite_core", "build",
               "--lite-dir", str(lite_dir), "--output-dir", str(out),
               "--contents", str(stage / "files")]
    # jupyter lite remembers finished tasks in a doit database in its working folder and
    # would skip them on a fresh output folder: every build starts without one.
    workdir = stage / "work"
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir()
    done = subprocess.run(command, cwd=workdir)
    if done.returncode != 0:
        raise LiteBuildError(f"`{' '.join(command)}` failed (exit {done.returncode})")
    write_landing_redirect(out, landing)
    check_offline(out)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    log(f"built {out} ({len(pages)} notebooks, {size / 2**20:.1f} MiB)")
    return out


def kernel_wheels() -> list[Path]:
    """The wheels jupyterlite-pyodide-kernel serves to its kernel (piplite, the kernel,
    the ipykernel and widgetsnbextension stand-ins), to go into the lock."""
    import importlib.util

    if importlib.util.find_spec("jupyterlite_pyodide_kernel") is None:
        raise LiteBuildError("jupyterlite-pyodide-kernel is not installed: install the "
                             "`lite` extra (pip install '.[lite]')")
    found = []
    prefix = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    pypi = prefix / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    for wheel in sorted(pypi.glob("*.whl")):
        if wheel.name.startswith("widgetsnbextension-3."):
            continue  # the stand-in for ipywidgets 7; the site has ipywidgets 8
        found.append(wheel)
    if not found:
        raise LiteBuildError(f"no kernel wheels in {pypi}: is jupyterlite-pyodide-kernel "
                             "installed in this environment?")
    return found


#: URLs in the built site's configuration that would leave the site's own server.
REMOTE = re.compile(r"https?://")


def check_offline(out: Path) -> None:
    """The kernel's settings point only inside the site."""
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    remote = [f"{k}={v}" for k, v in kernel.items()
              if isinstance(v, str) and REMOTE.match(v)]
    if remote or not kernel.get("pyodideUrl", "").startswith("./"):
        raise LiteBuildError(f"{out}/jupyter-lite.json points the kernel outside the "
                             f"site: {remote or kernel.get('pyodideUrl')}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m box_gin.tools.lite",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "lite-cache")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), args.cache.resolve())
    except LiteBuildError as err:
        print(f"lite: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
