"""A table that speaks (``--voice``): the announcements of :mod:`companion.voice_words` read
aloud by a local text-to-speech engine (Debian's espeak-ng), without ever holding up the referee.

The table's control thread only hands the latest snapshot to :meth:`Voice.heard`, which works out
the words and puts them on a small queue; a background thread of its own speaks them one at a
time. The queue is bounded and drops what has gone stale: once the next turn is announced, a
rejection or question still waiting is not read out late. An engine that hangs is killed after a
while, and an engine that is missing is said once at the start; the table then goes on silently.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.display.snapshot import Snapshot
from companion.voice_words import Announcement, Announcer

if TYPE_CHECKING:
    from companion.table import Table

#: Announcements waiting at most; the oldest droppable one goes when another comes.
QUEUE_SIZE = 4
#: Kinds that start something new (a move, a turn, the end): waiting questions and rejections
#: are stale once one of these comes.
FRESH_KINDS = frozenset({"move", "turn", "result"})
#: Kinds that a newer announcement of a fresh kind (or a newer problem) makes stale.
STALE_KINDS = frozenset({"reject", "ask", "info", "turn", "hint"})
#: The engine's program; Debian package espeak-ng.
ESPEAK = "espeak-ng"
#: Longest an engine may take for a sentence before it is killed: a second a word, at least 10.
SECONDS_PER_WORD = 1.0
MIN_TIMEOUT_S = 10.0


class Engine(Protocol):
    """Something that says a sentence aloud and returns when it has been said."""

    def say(self, text: str) -> None: ...


class EspeakEngine:
    """espeak-ng run once per sentence; with ``wav`` set, the sound goes to that file instead of
    the speakers (``espeak-ng -w FILE``). A run that outlives its timeout is killed."""

    def __init__(self, program: str = ESPEAK, wav: Path | None = None,
                 words_per_minute: int = 165) -> None:
        self.program = program
        self.wav = wav
        self.words_per_minute = words_per_minute

    def say(self, text: str) -> None:
        """Speak ``text``; errors of the engine (no sound card) are ignored: the screen has it."""
        command = [self.program, "-s", str(self.words_per_minute)]
        if self.wav is not None:
            command += ["-w", str(self.wav)]
        timeout = max(MIN_TIMEOUT_S, SECONDS_PER_WORD * len(text.split()))
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            subprocess.run([*command, "--", text], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, check=False)


class Speaker:
    """A background thread reading announcements to an engine from a bounded queue that drops
    stale ones; :meth:`put` never waits for the engine."""

    def __init__(self, engine: Engine, size: int = QUEUE_SIZE) -> None:
        self.engine = engine
        self.size = size
        self.spoken: list[str] = []
        self.dropped: list[str] = []
        self._waiting: deque[Announcement] = deque()
        self._ready = threading.Condition()
        self._stopped = False
        self._speaking = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def put(self, announcement: Announcement) -> None:
        """Queue ``announcement``, dropping those it makes stale and the oldest when full."""
        with self._ready:
            if announcement.kind in FRESH_KINDS or announcement.kind in ("reject", "ask"):
                self._drop(lambda waiting: waiting.kind in STALE_KINDS)
            while len(self._waiting) >= self.size:
                droppable = [item for item in self._waiting if item.kind != "result"]
                oldest = droppable[0] if droppable else self._waiting[0]
                self._waiting.remove(oldest)
                self.dropped.append(oldest.text)
            self._waiting.append(announcement)
            self._ready.notify()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until everything queued has been said (or ``timeout`` s); whether it was."""
        with self._ready:
            return self._ready.wait_for(lambda: not self._waiting and not self._speaking,
                                        timeout=timeout)

    def stop(self) -> None:
        """Stop the thread after the sentence being said; what waits is dropped."""
        with self._ready:
            self._stopped = True
            self._ready.notify_all()
        self._thread.join(timeout=0.5)

    def _drop(self, stale: Callable[[Announcement], bool]) -> None:
        for item in [item for item in self._waiting if stale(item)]:
            self._waiting.remove(item)
            self.dropped.append(item.text)

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._stopped or bool(self._waiting))
                if self._stopped:
                    return
                announcement = self._waiting.popleft()
                self._speaking = True
            try:
                self.engine.say(announcement.text)
            finally:
                with self._ready:
                    self._speaking = False
                    self.spoken.append(announcement.text)
                    self._ready.notify_all()


class Voice:
    """Turns each snapshot the table shows into announcements for a :class:`Speaker`."""

    def __init__(self, speaker: Speaker, log: Path | None = None) -> None:
        self.speaker = speaker
        self.log = log
        self._announcer = Announcer()
        self._lock = threading.Lock()

    def heard(self, snapshot: Snapshot) -> list[Announcement]:
        """Queue what changed since the last snapshot; returns at once with the words queued."""
        with self._lock:
            said = self._announcer.hear(snapshot)
        for announcement in said:
            self.speaker.put(announcement)
        if self.log is not None and said:
            with self.log.open("a", encoding="utf-8") as log:
                log.writelines(f"{item.kind}\t{item.text}\n" for item in said)
        return said

    def attach(self, table: Table) -> None:
        """Hear every snapshot ``table`` shows after an event (from its control thread)."""
        def hear(changed: Table) -> None:
            self.heard(changed.snapshot)

        table.on_change(hear)

    def say(self, announcement: Announcement) -> None:
        """Queue an announcement that is no change of the screen (a hint's move)."""
        self.speaker.put(announcement)

    def close(self, linger_s: float = 0.0) -> None:
        """Let what is queued be said for up to ``linger_s`` seconds, then stop."""
        if linger_s > 0:
            self.speaker.wait_idle(linger_s)
        self.speaker.stop()


def open_voice(program: str = ESPEAK, log: Path | None = None,
               tell: Callable[[str], None] = print) -> Voice | None:
    """A voice speaking through ``program``, or None after one sentence told to the players
    when it is not installed (the table then goes on silently)."""
    found = shutil.which(program)
    if found is None:
        tell(f"--voice: {program} is not installed (Debian: apt-get install espeak-ng), so the "
             "table will not speak; the screen shows everything.")
        return None
    return Voice(Speaker(EspeakEngine(found)), log)
