"""``python -m tui``: the same entry point as the ``termarcade`` command (see :mod:`tui.entry`)."""

from tui.entry import main

if __name__ == "__main__":
    main()
