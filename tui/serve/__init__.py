"""Serving the arcade to many players: ``termarcade serve --ssh`` and ``--web``.

Layout:

* :mod:`.cli` - the ``serve`` command and its options;
* :mod:`.running` - start-up, logging and shutdown of the SSH server;
* :mod:`.ssh` - the asyncssh server: one session channel per connection, everything else
  refused;
* :mod:`.arcade` - who is playing, admission (limits per server and per address), goodbyes;
* :mod:`.process` - one process per player on its own pseudo-terminal, forked from a
  pre-loaded fork server;
* :mod:`.child` - what runs in that process: the served app with the player's own store and
  its CPU limit;
* :mod:`.spec` - what the server hands a session process, and its exit statuses;
* :mod:`.limits` - the limits, the input rate limiter and player names;
* :mod:`.hostkey` - the SSH host key, made on first run and kept;
* :mod:`.web` - the same app in browsers through textual-serve (the ``web`` extra).

Served apps never touch the host's files by path (``ArcadeApp.served``): levels a player makes
go to their own store.
"""
