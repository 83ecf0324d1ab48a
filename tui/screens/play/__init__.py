"""The puzzle screen's plain collaborators: each one job of :class:`tui.screens.puzzle.PuzzleScreen`,
written and tested without a running app.

* :mod:`.records`: the level's saved game, play clock, autoplay mark, scores and results in
  the arcade store (:class:`~.records.LevelRecords`);
* :mod:`.digits`: numbered moves typed as digits with a timer (:class:`~.digits.DigitEntry`);
* :mod:`.keys`: which key runs a binding (for ``keys_for``), over declared or active bindings;
* :mod:`.lines`: the header and message line widgets, and the header's text;
* :mod:`.outcome`: which outcome dialog a move opens;
* :mod:`.hints`: what a hint is, and which hint worker's result may be shown.

The screen itself keeps what needs Textual: the session reactive and its one render path, the
actions, the hint worker (its one ``@work`` method and its result handler), the dialogs.
"""
