"""Driving Debian's Firefox ESR for the browser tests, over WebDriver BiDi (W3C).

Firefox speaks WebDriver BiDi itself (`--remote-debugging-port`), so no geckodriver (which Debian
does not package) and no Playwright browser download is needed. Playwright's own BiDi Firefox
channel (`moz-firefox`) cannot be used: Playwright 1.65 sends `emulation.setMediaFeaturesOverride`
when it opens a context, a command Firefox ESR 153 does not have. The few commands the tests need
are spoken here directly over a minimal websocket client (RFC 6455, text frames only).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse


def firefox_path() -> str | None:
    for name in ("firefox-esr", "firefox"):
        found = shutil.which(name)
        if found:
            return found
    return None


class WebSocket:
    """A blocking websocket client: text messages in and out, pings answered."""

    def __init__(self, url: str, timeout: float = 30):
        parts = urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the websocket handshake was cut off")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the websocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)  # clients mask every frame (RFC 6455 5.3)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode())

    def receive(self) -> str:
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(length)
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise ConnectionError("the websocket closed")
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._send_frame(0x8, b"")
        self.sock.close()


class Firefox:
    """One headless Firefox with one tab, driven over WebDriver BiDi."""

    def __init__(self, executable: str, viewport: tuple[int, int] = (1280, 800)):
        self.profile = tempfile.mkdtemp(prefix="strategium-firefox-")
        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-remote",
                "--remote-debugging-port",
                "0",
                "--profile",
                self.profile,
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        url = self._listening_url()
        self.ws = WebSocket(f"{url}/session")
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.version = self.command("session.new", {"capabilities": {}})["capabilities"][
            "browserVersion"
        ]
        self.command("session.subscribe", {"events": ["log.entryAdded"]})
        self.context = self.command("browsingContext.getTree", {})["contexts"][0]["context"]
        width, height = viewport
        self.command(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": {"width": width, "height": height}},
        )

    def _listening_url(self, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                return found.group(1)
        self.process.kill()
        raise RuntimeError("Firefox did not open its WebDriver BiDi port")

    def command(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == self.next_id:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message['error']}: {message.get('message')}")
                return message["result"]

    def goto(self, url: str) -> None:
        self.command(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def js(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression (awaited) in the page; a DOM node is true."""
        wrapped = (
            f"(async () => {{ const v = await ({expression}); "
            "return JSON.stringify(v instanceof Node ? true : v); })()"
        )
        result = self.command(
            "script.evaluate",
            {
                "expression": wrapped,
                "target": {"context": self.context},
                "awaitPromise": True,
            },
        )
        if result["type"] == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        value = result["result"]
        return json.loads(value["value"]) if value["type"] == "string" else None

    def wait_for(self, expression: str, timeout: float = 15) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.js(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true: {expression}")
            time.sleep(0.1)

    def click(self, selector: str) -> None:
        self.wait_for(f"document.querySelector({json.dumps(selector)})")
        self.js(f"document.querySelector({json.dumps(selector)}).click()")

    def fill(self, selector: str, value: str) -> None:
        self.wait_for(f"document.querySelector({json.dumps(selector)})")
        self.js(f"document.querySelector({json.dumps(selector)}).value = {json.dumps(value)}")

    def pointer_drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 6):
        """Press the mouse at `start`, move to `end` in `steps`, release (viewport pixels)."""
        moves = [
            {
                "type": "pointerMove",
                "x": round(start[0] + (end[0] - start[0]) * i / steps),
                "y": round(start[1] + (end[1] - start[1]) * i / steps),
                "duration": 20,
            }
            for i in range(1, steps + 1)
        ]
        self.command(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": [
                            {"type": "pointerMove", "x": round(start[0]), "y": round(start[1])},
                            {"type": "pointerDown", "button": 0},
                            *moves,
                            {"type": "pointerUp", "button": 0},
                        ],
                    }
                ],
            },
        )

    def press(self, key: str) -> None:
        self.command(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {
                        "type": "key",
                        "id": "keyboard",
                        "actions": [
                            {"type": "keyDown", "value": key},
                            {"type": "keyUp", "value": key},
                        ],
                    }
                ],
            },
        )

    def screenshot(self, path: Path) -> None:
        data = self.command(
            "browsingContext.captureScreenshot", {"context": self.context, "origin": "document"}
        )["data"]
        path.write_bytes(base64.b64decode(data))

    def script_errors(self) -> list[str]:
        """Uncaught errors and console errors the page logged."""
        return [
            event["params"].get("text", "")
            for event in self.events
            if event["method"] == "log.entryAdded" and event["params"].get("level") == "error"
        ]

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError, ConnectionError):
            self.command("browser.close", {})
        self.ws.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
