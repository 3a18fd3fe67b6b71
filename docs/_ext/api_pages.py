"""The API reference's pages, written from the façades' ``__all__`` before the build reads.

``api_modules`` (in ``conf.py``) names the façades. For each one this writes
``api/generated/<module>.rst``: its docstring, then tables of its functions,
classes, exceptions and constants. Every object gets one page, under the façade
it belongs to: the one whose name is the longest prefix of the module that
defines it (``game.Transcript`` is documented as ``game.transcript.Transcript``),
and a façade that re-exports it lists it under "Re-exported here" with a link to
that page. So each object is described once and found from every façade that
offers it.

The folder ``api/generated/`` is rewritten on every build (and git-ignored).
"""

from __future__ import annotations

import importlib
import inspect
import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

KINDS = ("function", "class", "exception", "constant")
HEADINGS = {
    "function": "Functions",
    "class": "Classes",
    "exception": "Exceptions",
    "constant": "Constants",
}


def kind_of(obj: Any) -> str:
    """How an object is documented: function, class, exception or constant."""
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "constant"


def homes(modules: list[str]) -> dict[int, str]:
    """id(object) -> the façade whose page documents it, for every exported object."""
    offered: dict[int, list[str]] = {}
    objects: dict[int, Any] = {}
    for name in modules:
        module = importlib.import_module(name)
        for attribute in module.__all__:
            obj = getattr(module, attribute)
            objects[id(obj)] = obj
            offered.setdefault(id(obj), []).append(name)
    result = {}
    for key, where in offered.items():
        defined = getattr(objects[key], "__module__", None) or ""
        inside = [m for m in where if defined == m or defined.startswith(m + ".")]
        result[key] = max(inside or where, key=len)
    return result


def _table(names: list[str], *, toctree: bool) -> list[str]:
    lines = [".. autosummary::"]
    if toctree:
        lines.append("   :toctree: .")
    lines += ["   :nosignatures:", ""]
    lines += [f"   {name}" for name in names]
    return [*lines, ""]


def module_page(name: str, home: dict[int, str]) -> tuple[str, dict[str, str]]:
    """The module's page, and its objects' pages by file stem."""
    module = importlib.import_module(name)
    own: dict[str, list[str]] = {kind: [] for kind in KINDS}
    reexported: list[str] = []
    pages: dict[str, str] = {}
    for attribute in module.__all__:
        obj = getattr(module, attribute)
        if home[id(obj)] != name:
            reexported.append(attribute)
            continue
        kind = kind_of(obj)
        own[kind].append(attribute)
        pages[f"{name}.{attribute}"] = object_page(name, attribute, kind)
    lines = [name, "=" * len(name), "", f".. automodule:: {name}", ""]
    lines += [f".. currentmodule:: {name}", ""]
    for kind in KINDS:
        if own[kind]:
            lines += [f".. rubric:: {HEADINGS[kind]}", "", *_table(own[kind], toctree=True)]
    if reexported:
        lines += [
            ".. rubric:: Re-exported here",
            "",
            "Documented with the package that defines them; importable from here too.",
            "",
            *_table(reexported, toctree=False),
        ]
    return "\n".join(lines), pages


def object_page(module: str, attribute: str, kind: str) -> str:
    title = f"{module}.{attribute}"
    lines = [title, "=" * len(title), "", f".. currentmodule:: {module}", ""]
    if kind == "function":
        lines.append(f".. autofunction:: {attribute}")
    elif kind == "constant":
        lines.append(f".. autodata:: {attribute}")
    else:
        lines += [f".. autoclass:: {attribute}", "   :members:", "   :undoc-members:"]
    return "\n".join(lines) + "\n"


def write_pages(app: Sphinx, config: Config) -> None:
    """Rewrite ``api/generated/`` from ``config.api_modules``."""
    folder = Path(app.srcdir) / "api" / "generated"
    home = homes(config.api_modules)
    files: dict[str, str | bytes] = {}
    for name in config.api_modules:
        page, pages = module_page(name, home)
        files[f"{name}.rst"] = page
        files.update({f"{stem}.rst": text for stem, text in pages.items()})
    write_folder(folder, files)


def write_folder(folder: Path, files: dict[str, str | bytes]) -> None:
    """Make ``folder`` hold exactly ``files`` (name -> text or bytes), writing what changed."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():
        if stale.name not in files:
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
    for file, content in files.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        path = folder / file
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("api_modules", [], "env")
    app.connect("config-inited", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
