"""MkDocs hooks: what the site generates from the code when it is built.

* ``docs/keys.md`` carries a marker where the key-binding reference goes; the reference is
  ``tui.keys.reference_markdown()``, so it lists exactly the bindings the code declares and a
  new game's keys appear without anyone editing the page.
* The nav's "Games" section is every registered game that has a page ``docs/<id>.md``, in
  home-screen order, so a new game adds its page and edits no shared file (``mkdocs.yml``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

GAMES_SECTION = "Games"
"""The nav section filled with the games' pages."""


def games_nav(docs_dir: str | Path) -> list[dict[str, str]]:
    """The "Games" section: ``{title: "<id>.md"}`` for each registered game with a page.

    Args:
        docs_dir: The docs folder.

    Returns:
        The nav entries, in home-screen order.
    """
    from core import registry

    return [
        {info.title: f"{info.id}.md"}
        for info in registry.games()
        if (Path(docs_dir) / f"{info.id}.md").is_file()
    ]


def on_config(config: Any, **kwargs: Any) -> Any:
    """Fill the nav's "Games" section from the registry (MkDocs ``on_config`` event).

    Args:
        config: The MkDocs configuration.
        **kwargs: The other event arguments, unused.

    Returns:
        The configuration.
    """
    for section in config.nav or ():
        if isinstance(section, dict) and GAMES_SECTION in section:
            section[GAMES_SECTION] = games_nav(config.docs_dir)
    return config


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
