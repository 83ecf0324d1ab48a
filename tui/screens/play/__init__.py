"""The puzzle screen's plain collaborators: each one job of :class:`tui.screens.puzzle.PuzzleScreen`,
written and tested without a running app.

* :mod:`.hooks`: what a game screen may declare or override, with its default
  (:class:`~.hooks.GameHooks`, a base of the screen);
* :mod:`.records`: the level's saved game, play clock, autoplay mark, scores and results in
  the arcade store (:class:`~.records.LevelRecords`);
* :mod:`.history`: playing a move, undo, redo and restart, and what the message line says;
* :mod:`.levels`: the next level, a level opened by its ID, the editor's round trip
  (:class:`~.levels.LevelNav`);
* :mod:`.digits`: numbered moves typed as digits with a timer (:class:`~.digits.DigitEntry`);
* :mod:`.keys`: which key runs a binding (for ``keys_for``), over declared or active bindings;
* :mod:`.bindings`: the keys every game screen has;
* :mod:`.lines`: the header and message line widgets, and the header's text;
* :mod:`.messages`: the message line's text and its transient timer
  (:class:`~.messages.MessageLine`);
* :mod:`.outcome`: which outcome dialog a move opens, and what its buttons run;
* :mod:`.hints`: what a hint is, which hint worker's result may be shown, when ``t`` starts
  none.

The screen itself keeps what needs Textual: the session reactive and its one render path, the
actions, the hint worker (its one ``@work`` method and its result handler), the dialogs.
"""
