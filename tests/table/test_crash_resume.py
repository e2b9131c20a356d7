"""Kill the demo process at random moments, resume it, and lose nothing acknowledged.

`companion demo --ack` prints an ACK line once the panel shows a verdict, after its journal line
was fsynced. Each run is killed with SIGKILL after a random number of accepted moves and a random
delay; every acknowledged event must then be in the journal as acknowledged, the game resumes with
`--resume`, and the finished record replays cleanly to the same line of play as an uninterrupted
game with the same seed (the bots draw from (seed, move number), and the director straightens
and presses again when the camera misreads, so the line of play does not depend on the kills).
"""

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from companion.demo_record import accepted_moves
from companion.record.replay import load_timeline
from tests.table.conftest import REFERENCE_SEED

pytestmark = pytest.mark.slow

TURNS = 8
ACK = re.compile(r"^ACK (\w+) event=(\d+) hash=(\S+)$")


def demo_command(out, resume=False):
    where = ["--resume", str(out)] if resume else ["--out", str(out)]
    return [sys.executable, "-m", "companion", "demo", "--headless", *where,
            "--seed", str(REFERENCE_SEED), "--speed", "1000", "--sloppy", "0.25", "--fps", "2.5",
            "--plain-camera", "--camera-size", "1280x720", "--max-turns", str(TURNS), "--ack"]


class Run:
    """One demo process whose ACK lines are collected as they come."""

    def __init__(self, command):
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=env)
        self.acks: list[tuple[str, int, str]] = []
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                match = ACK.match(line.strip())
                if match:
                    self.acks.append((match[1], int(match[2]), match[3]))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def greens(self):
        return sum(1 for verdict, _, _ in self.acks if verdict == "green")

    def wait_for_greens(self, count, timeout=60.0):
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.greens() < count and self.process.poll() is None:
                left = deadline - time.monotonic()
                assert left > 0, f"no {count} accepted moves in time: {self.lines[-5:]}"
                self.changed.wait(min(left, 0.2))

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.reader.join(timeout=10)

    def finish(self, timeout=120.0):
        self.process.wait(timeout=timeout)
        self.reader.join(timeout=10)
        return self.process.returncode


def check_acknowledged_events_stand(record, acks):
    """Every ACKed event is in the journal with the hash it had when the lights answered."""
    timeline = load_timeline(record)
    assert timeline.stopped_at is None, timeline.problems
    hashes = {step.event.number: step.event.state_hash for step in timeline.steps}
    for verdict, number, state_hash in acks:
        if number == 0:  # the layout, read before the game record begins
            continue
        assert hashes.get(number) == state_hash, (verdict, number, state_hash)
    greens = [number for verdict, number, _ in acks if verdict == "green"]
    if greens:
        standing_at_last_ack = [n for n in timeline.standing if n <= greens[-1]]
        assert standing_at_last_ack, "an acknowledged move was lost"


def test_killed_games_resume_without_losing_acknowledged_moves(tmp_path, reference_game):
    rng = random.Random(20261122)
    out = tmp_path / "demo"
    kills = 0
    run = Run(demo_command(out))
    try:
        for _ in range(2):
            run.wait_for_greens(run.greens() + rng.randint(1, 3))
            time.sleep(rng.uniform(0.0, 0.6))
            if run.process.poll() is not None:
                break
            run.kill()
            kills += 1
            check_acknowledged_events_stand(out / "record", run.acks)
            run = Run(demo_command(out, resume=True))
        assert run.finish() == 0, run.lines[-5:]
    finally:
        if run.process.poll() is None:
            run.kill()
    assert kills == 2, "both kills landed before the game reached its last turn"
    timeline = load_timeline(out / "record")
    assert timeline.stopped_at is None
    assert len(timeline.standing) == TURNS
    _, reference = reference_game
    assert accepted_moves(out / "record") == reference.moves[:TURNS]
