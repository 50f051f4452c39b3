"""The text of an SGF file from its bytes, in the character set its root ``CA`` names.
{#count.replay}

The bytes are decoded before the SGF is read: a multi-byte character set can put ``]`` or ``\\``
in the second byte of a character (Big5 許 is ``B3 5C``), which a reader of the raw bytes would
take for the end of a value or an escape.
"""

import codecs
import re

from jpdtools.errors import InputError, Location

# Names records use, read as the codec that decodes them best (a superset where there is one).
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "euc-cn": "gb18030", "big5": "cp950"}
_CA = re.compile(rb"CA\s*\[([^\]]*)\]")
_FIRST_MOVE = re.compile(rb";\s*[BW]\s*\[")


class CharsetError(InputError):
    """A CA[] naming a character set Python does not know."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message, location, code="sgf-charset")


def declared_charset(data: bytes) -> str | None:
    """The ``CA`` value of the file's root (before its first move), or None."""
    first_move = _FIRST_MOVE.search(data)
    m = _CA.search(data, 0, first_move.start() if first_move else len(data))
    return m.group(1).decode("ascii", errors="replace").strip() if m else None


def codec_for(charset: str, path: str = "") -> str:
    """The Python codec for an SGF ``CA`` value. Raises CharsetError."""
    name = charset.strip().lower()
    name = _SUPERSETS.get(name, name)
    try:
        codec = codecs.lookup(name).name
        b"(".decode(codec, errors="replace")  # a codec that is not a text encoding (hex, rot13) refuses
    except LookupError as err:
        what = "is not a text encoding" if "text encoding" in str(err) else "is not a known character set"
        raise CharsetError(f"CA[{charset}] {what}", Location(path)) from None
    except (UnicodeError, ValueError):
        raise CharsetError(f"CA[{charset}] is not a character set jpd can decode", Location(path)) from None
    return codec


def decode_sgf(data: bytes, path: str = "") -> str:
    """The text of an SGF file: in its ``CA`` charset (undecodable bytes replaced); without one,
    UTF-8, or Latin-1 when the bytes are not UTF-8. Raises CharsetError for an unknown ``CA``."""
    charset = declared_charset(data)
    if charset is not None:
        try:
            return data.decode(codec_for(charset, path), errors="replace")
        except (UnicodeError, ValueError) as err:  # a codec that fails whatever the errors handler
            raise CharsetError(f"CA[{charset}] does not decode this file: {err}", Location(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
