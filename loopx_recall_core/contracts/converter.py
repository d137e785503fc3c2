# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The strict cattrs converter every contract record goes through, laid out as lsprotocol
lays out its own (``converters.get_converter`` makes a ``cattrs.Converter`` and hands it to
``_hooks.register_hooks``): this short factory, the hooks
(:mod:`loopx_recall_core.contracts.converter_hooks`: what "strict" means, and how records
are written) and the error formatting apart
(:mod:`loopx_recall_core.contracts.converter_errors`: a :class:`ContractError` names JSON
paths, never a value).

:func:`make_converter` builds a new, independent converter; nothing is registered on a
shared one at import. :func:`structure` and :func:`unstructure` use one built on first use
(:func:`get_converter`): the field helpers (:mod:`loopx_recall_core.contracts.fields`) are
needed at import by every record class, cattrs only by a command that structures or
unstructures one.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import cattrs

from loopx_recall_core.contracts.converter_errors import ContractError, TypeMismatch, problems
from loopx_recall_core.contracts.converter_hooks import register_hooks
from loopx_recall_core.contracts.fields import MAX_SAFE_INTEGER, FieldInvalid

__all__ = [
    "MAX_SAFE_INTEGER",
    "ContractError",
    "FieldInvalid",
    "get_converter",
    "make_converter",
    "structure",
    "unstructure",
]

T = TypeVar("T")


def make_converter() -> cattrs.Converter:
    """A new strict converter with every contract hook registered on it (imports cattrs).

    Each call returns an independent converter: registering a hook on one does not change
    another, nor the one :func:`structure` and :func:`unstructure` use.
    """
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    return register_hooks(converter)


@functools.cache
def get_converter() -> cattrs.Converter:
    """The converter :func:`structure` and :func:`unstructure` use, made on the first call
    (two threads racing on it may each build one, alike; the cache keeps one)."""
    return make_converter()


def structure(value: object, cls: type[T]) -> T:
    """Build ``cls`` from JSON-like ``value`` strictly, or raise :class:`ContractError`."""
    converter = get_converter()
    from cattrs.errors import BaseValidationError, ForbiddenExtraKeysError

    try:
        return converter.structure(value, cls)
    except (BaseValidationError, FieldInvalid, TypeMismatch, ForbiddenExtraKeysError) as exc:
        raise ContractError(problems(exc)) from None


def unstructure(record: object) -> Any:
    """JSON-like form of a contract record; optional fields left unset are omitted."""
    return get_converter().unstructure(record)
