"""Which actions a served session may run (``termarcade serve``: every player is a stranger).

Textual runs an *action* (a method ``action_NAME`` of the app, a screen or a widget) for a key
binding, a ``[@click=...]`` in rendered markup, a button, the command palette and
``run_action`` strings alike, and some of its built-in actions reach the host's files
(``screenshot`` writes an SVG where its arguments say) or its programs (``open_url`` starts a
web browser on the host). Hiding them from the palette is not enough: any markup a player
manages to get drawn can name them. So a served app checks every action where Textual
dispatches it (:meth:`tui.app.ArcadeApp._dispatch_action`) against an allowlist:

* an action the target node itself declares in its bindings, with the same arguments
  (everything a screen or widget offers by key, which is also all the palette lists);
* an action bound with an explicit namespace (``app.help`` on a screen) by a node in the
  current screen's binding chain, resolved to the same target and arguments;
* one of :data:`TEXTUAL_ACTIONS`, the few Textual internals needed to play, without arguments.

Anything else (``screenshot``, ``toggle`` of an attribute, ``push_screen``, ``notify``,
``simulate_key``, ``suspend_process``, ``open_link``, ``link``, ...) is refused and logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual import actions

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode

__all__ = ["TEXTUAL_ACTIONS", "action_allowed", "declared_actions"]

TEXTUAL_ACTIONS = frozenset(
    {
        # moving around and leaving
        "focus_next",
        "focus_previous",
        "back",
        "quit",
        "help_quit",
        # the command palette and the keys panel it offers
        "command_palette",
        "show_help_panel",
        "hide_help_panel",
        "maximize",
        "minimize",
        "blur",
        # scrolling any scrollable widget (its own bindings, also by mouse wheel)
        "scroll_up",
        "scroll_down",
        "scroll_left",
        "scroll_right",
        "scroll_home",
        "scroll_end",
        "page_up",
        "page_down",
        "page_left",
        "page_right",
        # harmless: the player's own terminal beeps or gets the selection (OSC 52)
        "bell",
        "copy_text",
    }
)
"""Textual's own actions a served player may run (without arguments) on any node. Not here, so
refused unless a node declares them in its bindings: ``screenshot`` (writes a file on the
host), ``toggle``/``add_class``/``remove_class``/``toggle_class`` (any attribute or style of
any node), ``push_screen``/``switch_screen``/``switch_mode``, ``focus`` (by selector),
``notify`` (text of the clicker's choosing), ``simulate_key``, ``suspend_process``,
``pop_screen`` and ``dismiss`` (on the bottom screen they end the session: ``back`` is the
safe one; a modal declares its own ``dismiss``),
``change_theme``/``toggle_dark`` (the palette's "Theme" entry covers themes), ``link`` and
``open_link`` (a URL opened on the host)."""


def _parsed(action: str) -> tuple[str, str, tuple[object, ...]] | None:
    try:
        return actions.parse(action)
    except actions.ActionError:
        return None


def declared_actions(node: DOMNode) -> Iterator[tuple[str, str, tuple[object, ...]]]:
    """The actions a node's bindings name (class ``BINDINGS`` and bindings added at run time).

    Args:
        node: A Textual app, screen or widget.

    Yields:
        ``(namespace, action name, arguments)`` for each binding ("" for no namespace).
    """
    for _key, binding in node._bindings:
        parsed = _parsed(binding.action)
        if parsed is not None:
            yield parsed


def _resolves_to(app: App[Any], node: DOMNode, namespace: str, target: DOMNode) -> bool:
    """Whether ``namespace`` (as written in a binding of ``node``) names ``target``."""
    if not namespace:
        return node is target
    return getattr(app, namespace, None) is target if namespace in app._action_targets else False


def _chain_nodes(app: App[Any]) -> Iterable[DOMNode]:
    try:
        return [node for node, _bindings in app.screen._binding_chain]
    except Exception:  # no screen yet (starting) or the stack is being torn down
        return [app]


def action_allowed(app: App[Any], target: DOMNode, name: str, params: tuple[object, ...]) -> bool:
    """Whether a served app may run an action (see the module's docstring for the rules).

    Args:
        app: The running app.
        target: The node the action resolved to.
        name: The action's name (without ``action_``).
        params: Its arguments.

    Returns:
        True when the action is on the allowlist.
    """
    if name in TEXTUAL_ACTIONS and not params:
        return True
    for node in (target, *_chain_nodes(app)):
        for namespace, declared, arguments in declared_actions(node):
            same = declared == name and tuple(arguments) == tuple(params)
            if same and _resolves_to(app, node, namespace, target):
                return True
    return False
