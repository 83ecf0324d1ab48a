"""MkDocs hooks: pages whose content is generated from the code when the site is built.

``docs/keys.md`` carries a marker where the key-binding reference goes; the reference is
``tui.keys.reference_markdown()``, so it lists exactly the bindings the code declares and a
new game's keys appear without anyone editing the page.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- binding-reference -->"
"""Where the generated key-binding reference is put."""


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Replace the marker with the generated reference (MkDocs ``on_page_markdown`` event).

    Args:
        markdown: The page's Markdown source.
        page: The page being built.
        **kwargs: The other event arguments (config, files), unused.

    Returns:
        The Markdown to render.
    """
    if MARKER not in markdown:
        return markdown
    from tui.keys import reference_markdown

    return markdown.replace(MARKER, reference_markdown())
