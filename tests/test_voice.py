"""The table's voice (issue 22, item 5): real espeak-ng speech written to a WAV, a speaker that
never holds up the referee even when its engine hangs, stale announcements dropped, a missing
engine said once, and ``--voice`` through the command line on the simulated table."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import wave
from pathlib import Path

import numpy as np
import pytest

from companion.display.snapshot import Message, Snapshot
from companion.voice import EspeakEngine, Speaker, Voice, open_voice
from companion.voice_words import Announcement

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (scripts/system-packages.sh)")


class HungEngine:
    """An engine that never finishes a sentence until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()

    def say(self, text: str) -> None:
        self.started.set()
        self.release.wait()


@needs_espeak
def test_espeak_ng_writes_real_speech_to_a_wav(tmp_path: Path) -> None:
    wav = tmp_path / "said.wav"
    EspeakEngine(wav=wav).say("Player 1 played c3 to d5. Player 2's turn.")
    with wave.open(str(wav)) as sound:
        frames, rate, width = sound.getnframes(), sound.getframerate(), sound.getsampwidth()
        samples = np.frombuffer(sound.readframes(frames), dtype=np.int16)
    assert width == 2 and rate >= 8000
    assert frames / rate > 1.0, "two sentences last more than a second"
    loud = np.abs(samples.astype(np.int32)) > 1000
    assert loud.mean() > 0.1, "the file holds sound, not silence"


def test_a_hung_engine_never_delays_the_caller_and_the_queue_stays_bounded() -> None:
    engine = HungEngine()
    voice = Voice(Speaker(engine, size=4))
    answered: list[bool] = []

    def forty_turns() -> None:
        for turn in range(40):
            snapshot = Snapshot(message=Message(f"Player {turn % 2 + 1} played a{turn}-b{turn}."),
                                to_move=2 - turn % 2, targets=frozenset({"a1"}),
                                last_moves=(f"{turn % 2 + 1}: a{turn}-b{turn}",))
            answered.append(bool(voice.heard(snapshot)))

    caller = threading.Thread(target=forty_turns, daemon=True)
    try:
        caller.start()
        assert engine.started.wait(5.0)
        caller.join(10.0)
        assert not engine.release.is_set(), "the engine is still hung"
        assert not caller.is_alive(), "a call waited for the hung engine"
        assert answered == [True] * 40
        assert len(voice.speaker.spoken) == 0 and len(voice.speaker.dropped) > 30
    finally:
        engine.release.set()
        voice.close()


def test_a_rejection_superseded_by_the_next_turn_is_not_read_out_late() -> None:
    engine = HungEngine()
    speaker = Speaker(engine)
    try:
        speaker.put(Announcement("info", "Layout confirmed."))  # being said, engine hung
        assert engine.started.wait(2.0)
        speaker.put(Announcement("reject", "That is not a legal move. Put back c3."))
        speaker.put(Announcement("move", "Player 1 played c3 to d5."))
        speaker.put(Announcement("turn", "Player 2's turn."))
        assert speaker.dropped == ["That is not a legal move. Put back c3."]
        engine.release.set()
        assert speaker.wait_idle(2.0)
        assert speaker.spoken == ["Layout confirmed.", "Player 1 played c3 to d5.",
                                  "Player 2's turn."]
    finally:
        engine.release.set()
        speaker.stop()


def test_a_missing_engine_is_said_in_one_sentence_and_the_table_goes_on() -> None:
    told: list[str] = []
    assert open_voice(program="no-such-speech-engine", tell=told.append) is None
    assert len(told) == 1 and "will not speak" in told[0] and told[0].count(".") <= 2


@needs_espeak
def test_demo_with_voice_speaks_the_game_on_the_simulated_table(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--headless", "--voice", "--max-turns", "3",
         "--plain-camera", "--camera-size", "1280x720", "--fps", "2.5", "--speed", "1000",
         "--seed", "3", "--out", str(out)],
        capture_output=True, text=True, timeout=240,
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin",
             "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert result.returncode == 0, result.stderr
    assert f"What the table said (--voice): {out / 'voice.txt'}" in result.stdout
    lines = [line.split("\t") for line in (out / "voice.txt").read_text().splitlines()]
    kinds = [kind for kind, _ in lines]
    assert kinds.count("move") == 3 and "turn" in kinds
    spoken = [text for kind, text in lines if kind == "move"]
    assert spoken[0].startswith("Player 1 played") and "Player 2 played" in spoken[1]
    confirmed = next(i for i, (_, text) in enumerate(lines) if "Layout confirmed" in text)
    assert kinds.index("turn") > confirmed  # not while the layout is being checked
