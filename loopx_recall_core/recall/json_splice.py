# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Edit a JSON settings file in place: only the spans we add or remove change.

``hook install|uninstall`` change one path of the user's file (``hooks.<Event>[group]
.hooks[handler]``). Re-serialising the whole document would change what is not ours
(layout, CRLF, ``\\u`` escapes, ``1.50`` -> ``1.5``, key order), so instead the text is
scanned for the spans of the values on that path and spliced: an inserted item is
``,<the separator the neighbours use><item>`` after the last item (or the only item of
an empty container), and removing an item removes exactly that (from the end of the item
before it), so removing what was inserted gives back the bytes that were there.

The text is validated by the strict reader (:func:`loopx_recall_core.jsonio.loads`) before
it is scanned, so the scanner here trusts the syntax; it is iterative (no recursion on
deep nesting) and never decodes or re-encodes text outside the spans it inserts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Container", "delete_items", "insert_item", "scan_container", "skip_value"]

_WS = " \t\r\n"


def _ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """``text[i]`` is ``"``: the index after the closing quote."""
    i += 1
    while True:
        c = text[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        else:
            i += 1


def skip_value(text: str, i: int) -> int:
    """The end of the JSON value starting at ``i`` (iterative: depth does not matter)."""
    c = text[i]
    if c == '"':
        return _string_end(text, i)
    if c not in "[{":
        while i < len(text) and text[i] not in _WS + ",]}":
            i += 1
        return i
    depth = 0
    while True:
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


@dataclass
class Container:
    """An object or array: where it opens and closes, and its items' spans (for an
    object, an item is a member: from its key's opening quote to its value's end)."""

    open: int
    close: int  # the index of the closing bracket
    items: list[tuple[int, int]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # objects only
    values: list[int] = field(default_factory=list)  # where each value starts

    def value_at(self, key: str) -> int | None:
        for name, start in zip(self.keys, self.values, strict=True):
            if name == key:
                return start
        return None


def scan_container(text: str, i: int) -> Container:
    """The container starting at ``text[i]`` (``{`` or ``[``)."""
    is_object = text[i] == "{"
    found = Container(open=i, close=-1)
    j = _ws(text, i + 1)
    if text[j] in "]}":
        found.close = j
        return found
    while True:
        start = j
        if is_object:
            key_end = _string_end(text, j)
            found.keys.append(json.loads(text[j:key_end]))
            j = _ws(text, key_end) + 1  # the colon
            j = _ws(text, j)
        found.values.append(j)
        end = skip_value(text, j)
        found.items.append((start, end))
        j = _ws(text, end)
        if text[j] == ",":
            j = _ws(text, j + 1)
            continue
        found.close = j
        return found


def delete_items(text: str, container: Container, drop: set[int]) -> list[tuple[int, int]]:
    """The spans to delete so that the items numbered ``drop`` go, with their commas.
    A run with an item before it goes from that item's end (the inverse of
    :func:`insert_item`); a leading run goes up to the next kept item; all items: the
    inside of the brackets."""
    items = container.items
    spans: list[tuple[int, int]] = []
    if len(drop) == len(items):
        return [(container.open + 1, container.close)] if items else []
    index = 0
    while index < len(items):
        if index not in drop:
            index += 1
            continue
        last = index
        while last + 1 in drop:
            last += 1
        if index > 0:
            spans.append((items[index - 1][1], items[last][1]))
        else:
            spans.append((items[index][0], items[last + 1][0]))
        index = last + 1
    return spans


def splice(text: str, spans: list[tuple[int, int]], insert: str = "") -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + insert + text[end:]
    return text


def _line_indent(text: str, i: int) -> str:
    start = text.rfind("\n", 0, i) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


@dataclass
class Style:
    """How the file is laid out, taken from its own text."""

    newline: str  # "\n", "\r\n" or "" (everything on one line)
    unit: str  # one level of indentation
    colon: str  # between a key and its value, e.g. ": "
    comma: str  # after a comma on one line, e.g. " " (only when newline is "")


def style_of(text: str, top: Container) -> Style:
    newline = "\r\n" if "\r\n" in text else "\n" if "\n" in text else ""
    unit = "  "
    if newline:
        # the first indented line that follows an opening bracket gives one level
        for start, _end in top.items[:1]:
            lead = text[top.open + 1 : start]
            if "\n" in lead:
                unit = lead.rsplit("\n", 1)[1] or unit
    colon = ": "
    if top.keys:
        between = text[_string_end(text, top.items[0][0]) : top.values[0]]
        colon = between if "\n" not in between and "\r" not in between else ": "
    comma = " "
    if not newline and len(top.items) > 1:
        comma = text[top.items[0][1] : top.items[1][0]].replace(",", "", 1)
    return Style(newline=newline, unit=unit, colon=colon, comma=comma)


def render(value: Any, style: Style, base: str) -> str:
    """``value`` laid out as the file is, its lines indented from ``base``."""
    if not style.newline:
        return json.dumps(value, ensure_ascii=False, separators=("," + style.comma, style.colon))
    text = json.dumps(
        value, ensure_ascii=False, indent=style.unit, separators=(",", style.colon)
    )
    return text.replace("\n", style.newline + base)


def insert_item(text: str, container: Container, item: str, style: Style) -> str:
    """``text`` with ``item`` (already rendered for this level) appended to ``container``.
    ``item`` for an object is ``"key"<colon><value>``."""
    items = container.items
    if items:
        if len(items) > 1:
            comma = text.index(",", items[-2][1])
            separator = text[comma + 1 : items[-1][0]]
        else:
            separator = text[container.open + 1 : items[0][0]]
        at = items[-1][1]
        return text[:at] + "," + separator + item + text[at:]
    if not style.newline:
        inside = item
    else:
        outer = _line_indent(text, container.open)
        inside = style.newline + outer + style.unit + item + style.newline + outer
    return text[: container.open + 1] + inside + text[container.close :]


def item_base(text: str, container: Container, style: Style) -> str:
    """The indentation of a line inside ``container`` at its items' level."""
    if container.items:
        lead = text[: container.items[-1][0]]
        tail = lead.rsplit("\n", 1)[-1] if "\n" in lead else ""
        if tail.strip(" \t") == "":
            return tail
    return _line_indent(text, container.open) + style.unit


# --- the hooks path: hooks.<Event>[group].hooks[handler] ------------------------------


def _top(text: str) -> Container:
    return scan_container(text, _ws(text, 0))


def _hooks_object(text: str, top: Container) -> Container | None:
    start = top.value_at("hooks")
    return scan_container(text, start) if start is not None and text[start] == "{" else None


def remove_handlers(text: str, ours: Any) -> tuple[str, int]:
    """``text`` without the handlers ``ours(handler)`` accepts (a group or event they
    emptied goes too; ``hooks`` too when they emptied it), and how many went. The shape was
    checked by the caller: ``hooks`` an object of arrays."""
    if not text.strip():
        return text, 0
    top = _top(text)
    hooks = _hooks_object(text, top)
    if hooks is None:
        return text, 0
    spans: list[tuple[int, int]] = []
    removed = 0
    emptied: set[int] = set()
    for index, start in enumerate(hooks.values):
        if text[start] != "[":
            continue
        groups = scan_container(text, start)
        drop_groups: set[int] = set()
        group_spans: list[tuple[int, int]] = []
        for number, (g_start, _g_end) in enumerate(groups.items):
            if text[g_start] != "{":
                continue
            group = scan_container(text, g_start)
            h_start = group.value_at("hooks")
            if h_start is None or text[h_start] != "[":
                continue
            handlers = scan_container(text, h_start)
            drop = {
                n
                for n, (s, e) in enumerate(handlers.items)
                if text[s] == "{" and ours(json.loads(text[s:e]))
            }
            removed += len(drop)
            if drop and len(drop) == len(handlers.items):
                drop_groups.add(number)
            elif drop:
                group_spans += delete_items(text, handlers, drop)
        if drop_groups and len(drop_groups) == len(groups.items):
            emptied.add(index)
            continue
        spans += group_spans + delete_items(text, groups, drop_groups)
    if not removed:
        return text, 0
    if emptied and len(emptied) == len(hooks.items):
        member = top.keys.index("hooks")
        spans = delete_items(text, top, {member})  # hooks emptied by us: it goes
    else:
        spans += delete_items(text, hooks, emptied)
    return splice(text, spans), removed


def add_groups(text: str, snippet: dict[str, list[dict]]) -> str:
    """``text`` with each group of ``snippet`` (``{event: [group, ...]}``) appended to its
    event's array (a missing event, or a missing ``hooks``, added at the end)."""
    if not text.strip():
        text = "{}\n" if not text else "{}" + text
    top = _top(text)
    style = style_of(text, top)
    if _hooks_object(text, top) is None:
        base = item_base(text, top, style)
        item = json.dumps("hooks") + style.colon + render(snippet, style, base)
        return insert_item(text, top, item, style)
    for event, groups in snippet.items():
        for group in groups:
            top = _top(text)
            hooks = _hooks_object(text, top)
            assert hooks is not None
            start = hooks.value_at(event)
            if start is None:
                base = item_base(text, hooks, style)
                item = json.dumps(event) + style.colon + render([group], style, base)
                text = insert_item(text, hooks, item, style)
                continue
            array = scan_container(text, start)
            text = insert_item(text, array, render(group, style, item_base(text, array, style)),
                               style)  # fmt: skip
    return text
