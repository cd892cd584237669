"""What a page's address asks for: the one reader of the query of a Voilà page.

Voilà gives the kernel of each page the query of the page's address as the environment variable ``QUERY_STRING``
(``lang=it&view=projector``): at once for a page whose kernel starts with it, once its visitor's request arrives for a
preheated kernel (:mod:`dragonkit.ui.visitor`). The parts of the kit that follow the address read it here:
the language (``?lang=``, :func:`dragonkit.i18n.requested_language`) and the view (``?view=``,
:func:`dragonkit.view.requested_projector`). The server reads a request's query the same way, through the same
functions (:mod:`dragonkit.server.app`).

>>> query_values("lang", {"QUERY_STRING": "lang=it&view=projector"})
['it']
>>> query_values("view", {})
[]
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, parse_qsl, urlencode

__all__ = ["query_values", "query_without"]


def query_values(name: str, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The values the page's address gives ``name`` (``?lang=it`` gives ``lang`` the values ``["it"]``), in order.

    Parameters
    ----------
    name : str
        A field of the query (``"lang"``, ``"view"``).
    environ : mapping of str to str
        Where ``QUERY_STRING`` is (default: this kernel's environment, where Voilà puts it).

    Returns
    -------
    list of str
        Empty when the address does not name the field, or names it with no value.
    """
    return parse_qs(environ.get("QUERY_STRING", "")).get(name, [])


def query_without(query: str, name: str) -> str:
    """``query`` with every value of ``name`` taken out, the other fields as given (blank ones kept), in order.

    >>> query_without("token=t&key=k&lang=it", "key")
    'token=t&lang=it'
    """
    return urlencode([(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != name])
