"""``python -m tui``: the same entry point as the ``termarcade`` command."""

from tui.cli import main

if __name__ == "__main__":
    main(prog_name="termarcade")
