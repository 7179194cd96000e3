"""The desk's roll printer: a paper (a receipt, a seat ticket, a bag slip) as ESC/POS bytes, and those bytes sent to
a network receipt printer (raw TCP, port 9100 by default). No Django: the venue's service (venues/services/printing.py)
says which printer and records the print; the web layer builds the paper's lines from the same reads as its page.

A paper is a list of blocks, each a tuple: ("title", text), ("big", text) in double size, ("line", label, value),
("text", text) wrapped, ("void", text), ("qr", url) as the printer's own QR code (GS ( k), ("image", png) (a
signature, as raster dots), ("rule",) and ("sign", label) (a line to sign on). `render` writes them for a roll of
80 mm (48 characters a line, Font A) or 58 mm (32), in code page PC852 (ESC t 18: Latin 2, every Czech and Slovak
letter); a character PC852 lacks is written without its accent, or "?" (`printable`), then feeds and cuts (GS V).

`send` asks the printer its real-time status first (DLE EOT 1): no answer within the timeout, or "offline" (cover open,
out of paper), and nothing is sent; then the bytes, then the status again, whose answer proves the printer read every
byte before it (TCP keeps the order, and the printer answers a real-time request as it reads it)."""

from __future__ import annotations

import io
import re
import socket
import textwrap
import unicodedata
from collections.abc import Sequence

from django.utils.translation import gettext as _
from escpos.printer import Dummy
from PIL import Image

DEFAULT_PORT = 9100
TIMEOUT = 3.0  # seconds, for the connection, each status answer and the sending
CODE_PAGE = "CP852"  # ESC t 18 on Epson's table: PC852 (Latin 2)
ENCODING = "cp852"
COLUMNS = {"80": 48, "58": 32}  # Font A (12 x 24 dots) across 576 and 384 dots
QR_SIZE = {"80": 7, "58": 5}  # dots per QR module
DOTS = {"80": 576, "58": 384}  # the printable width in dots (8 a millimetre: 72 mm and 48 mm)
IMAGE_HEIGHT = 160  # dots at most: a signature 20 mm tall
STATUS = b"\x10\x04\x01"  # DLE EOT 1: the printer's status, answered at once
OFFLINE = 0x08  # bit 3 of the answer: offline (cover open, out of paper, an error)
# What PC852 lacks and a receipt often carries: said in plain characters.
PLAIN = str.maketrans(
    {
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "·": "-",
        "…": "...",
        "–": "-",
        "—": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "€": "EUR",
    }
)
HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")

Block = tuple


class PrinterError(Exception):
    """The printer did not take the paper: `reason` says why in a few words, for the desk."""

    def __init__(self, reason: str, *, offline: bool = False, sent: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offline = offline
        self.sent = sent  # the bytes had gone out when it failed: the paper may have printed


def parse_address(text: str) -> tuple[str, int]:
    """ "10.0.0.5:9100", "10.0.0.5" (port 9100), "printer.local:9101", "[fd00::5]:9100" as (host, port); ValueError
    for anything else."""
    text = (text or "").strip()
    if not text or len(text) > 255:
        raise ValueError(text)
    if text.startswith("["):
        host, _bracket, rest = text[1:].partition("]")
        if not host or not re.fullmatch(r"[0-9A-Fa-f:.]+", host) or (rest and not rest.startswith(":")):
            raise ValueError(text)
        port_text = rest[1:] if rest else ""
    else:
        host, _colon, port_text = text.partition(":")
        if not HOST.match(host) or ":" in port_text:
            raise ValueError(text)
    if port_text == "":
        return host, DEFAULT_PORT
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(text)
    return host, int(port_text)


def printable(text: str) -> str:
    """The text as PC852 can print it: typographic marks as plain ones, a letter it lacks without its accent, else "?"."""
    out = []
    for char in str(text).translate(PLAIN):
        try:
            char.encode(ENCODING)
            out.append(char)
        except UnicodeEncodeError:
            bare = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            out.append(bare if bare and all(ord(c) < 128 for c in bare) else "?")
    return "".join(out)


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters, broken between words, a word longer than a line cut."""
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def line_pair(label: str, value: str, width: int) -> list[str]:
    """A label at the left and its value at the right of one line; when both do not fit, the label on its line and
    the value (wrapped) at the right below it."""
    label, value = f"{label}:", str(value)
    if len(label) + 1 + len(value) <= width:
        return [label + " " * (width - len(label) - len(value)) + value]
    return wrap(label, width) + [row.rjust(width) for row in wrap(value, width)]


def render(blocks: Sequence[Block], roll: str = "80") -> bytes:
    """The paper as ESC/POS bytes for an 80 mm or 58 mm roll, cut at the end."""
    width = COLUMNS[roll]
    p = Dummy(profile="default")
    # The generic profile knows no paper width; the roll's, so a picture is centred on it (a copy: profiles are shared).
    p.profile.profile_data = {**p.profile.profile_data, "media": {"width": {"pixels": DOTS[roll], "mm": 72 if roll == "80" else 48}}}
    p.hw("INIT")
    p.charcode(CODE_PAGE)

    def text(rows: list[str], **style) -> None:
        p.set(**{"align": "left", "bold": False, "double_width": False, "double_height": False, "invert": False, **style})
        for row in rows:
            p.text(printable(row) + "\n")

    for block in blocks:
        kind, *values = block
        if kind == "title":
            text(wrap(values[0], width), bold=True, double_height=True, align="center")
        elif kind == "big":
            text(wrap(values[0], width // 2), bold=True, double_width=True, double_height=True, align="center")
        elif kind == "line":
            text(line_pair(values[0], values[1], width))
        elif kind == "text":
            text(wrap(values[0], width))
        elif kind == "void":
            text(wrap(values[0], width // 2), bold=True, double_width=True, double_height=True, align="center", invert=True)
        elif kind == "qr":
            p.set(align="center")
            p.qr(values[0], native=True, size=QR_SIZE[roll])
        elif kind == "image":
            p.image(picture(values[0], DOTS[roll]), center=True)
        elif kind == "rule":
            text(["-" * width])
        elif kind == "sign":
            text(["", *wrap(values[0], width), "", "_" * width])
        else:
            raise ValueError(f"not a block of a paper: {kind}")
    p.set(align="left", bold=False, double_width=False, double_height=False, invert=False)
    p.cut()
    return p.output


def picture(png: bytes, width: int) -> Image.Image:
    """A picture (a signature) in black on white, no wider than the roll's dots nor taller than IMAGE_HEIGHT."""
    source = Image.open(io.BytesIO(png))
    canvas = Image.new("RGBA", source.size, "white")
    canvas.alpha_composite(source.convert("RGBA"))
    image = canvas.convert("L")
    image.thumbnail((width, IMAGE_HEIGHT))
    return image.point(lambda level: 0 if level < 160 else 255).convert("1")


def send(address: str, data: bytes, timeout: float | None = None) -> None:
    """The bytes to the printer at `address` ("host:port"). PrinterError when it refuses the connection, does not
    answer its status within `timeout` seconds (TIMEOUT by default), says it is offline, or does not confirm the bytes."""
    host, port = parse_address(address)
    timeout = TIMEOUT if timeout is None else timeout
    sent = False
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            ask_status(connection)
            connection.sendall(data)
            sent = True
            ask_status(connection)  # its answer comes once the printer has read every byte before it
            connection.shutdown(socket.SHUT_WR)
    except PrinterError as problem:
        problem.sent = sent
        raise
    except TimeoutError:
        raise PrinterError(_("no answer within %(seconds)s seconds") % {"seconds": f"{timeout:g}"}, sent=sent) from None
    except ConnectionRefusedError:
        raise PrinterError(_("it refused the connection"), sent=sent) from None
    except socket.gaierror:
        raise PrinterError(_("its name is not known on this network"), sent=sent) from None
    except OSError as problem:
        raise PrinterError(problem.strerror or type(problem).__name__, sent=sent) from None


def ask_status(connection: socket.socket) -> None:
    connection.sendall(STATUS)
    answer = connection.recv(1)
    if not answer:
        raise PrinterError(_("it closed the connection"))
    if answer[0] & OFFLINE:
        raise PrinterError(_("it is offline (cover open or out of paper)"), offline=True)
