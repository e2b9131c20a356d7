"""A software twin behind a real pseudo-terminal or its in-memory link, and waiting on conditions
without sleeping."""

import time

import pytest

from companion.panel.driver import open_panel
from companion.panel.protocol import LineAssembler
from companion.panel.session import ButtonPress, PanelStatus
from companion.panel.twin import MemoryTwinPort, PanelTwin, PtyTwinPort


def wait_until(condition, timeout=5.0, interval=0.005):
    """Poll ``condition`` until it is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)


class Collector:
    """Everything a panel delivered, split into presses and statuses."""

    def __init__(self, panel):
        self.panel = panel
        self.presses = []
        self.statuses = []

    def pump(self, timeout=0.01):
        event = self.panel.next_event(timeout)
        while event is not None:
            if isinstance(event, ButtonPress):
                self.presses.append(event)
            elif isinstance(event, PanelStatus):
                self.statuses.append(event)
            event = self.panel.next_event(0)

    def wait_presses(self, count, timeout=5.0):
        deadline = time.monotonic() + timeout
        while len(self.presses) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.presses)} of {count} presses within {timeout} s")
            self.pump(0.05)

    def wait_status(self, kind, timeout=5.0, count=1):
        deadline = time.monotonic() + timeout
        while sum(status.kind is kind for status in self.statuses) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind} status within {timeout} s: {self.statuses}")
            self.pump(0.05)


@pytest.fixture
def pty_twin(tmp_path):
    twin = PanelTwin(seed=11)
    port = PtyTwinPort(tmp_path / "ttyPANEL")
    twin.attach(port)
    yield twin, str(port.link_path)
    twin.close()


@pytest.fixture
def pty_panel(pty_twin):
    twin, path = pty_twin
    panel = open_panel(path)
    yield twin, panel, Collector(panel)
    panel.close()


class MemoryTerminal:
    """The host end of a twin's in-memory link, line by line (no driver in between)."""

    def __init__(self, twin):
        port = MemoryTwinPort()
        twin.attach(port)
        self.end = port.connect()
        self.assembler = LineAssembler()
        self.pending = []

    def send(self, raw):
        self.end.write(raw)

    def line(self, timeout=5.0):
        """The next whole line from the twin (without its end)."""
        deadline = time.monotonic() + timeout
        while not self.pending:
            if time.monotonic() > deadline:
                raise AssertionError(f"no line from the twin within {timeout} s")
            self.pending += self.assembler.feed(self.end.read(4096))
        return self.pending.pop(0)

    def lines(self, count, timeout=5.0):
        return [self.line(timeout) for _ in range(count)]


@pytest.fixture
def memory_twin():
    """A twin of four seats without unprompted beats, and a terminal on its in-memory link."""
    twin = PanelTwin(seed=12, heartbeat_interval=3600.0)
    terminal = MemoryTerminal(twin)
    yield twin, terminal
    twin.close()
