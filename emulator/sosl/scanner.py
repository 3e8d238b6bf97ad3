"""A character scanner for SOSL statements: words, numbers, string literals, punctuation.

SOSL's outer grammar is small (``FIND``, ``IN``, ``RETURNING``, ``WITH``, ``LIMIT``), but
its pieces are lexed differently (a braced search term, SOQL text inside ``RETURNING``'s
parentheses), so the parser reads the statement through this scanner instead of a fixed
token list. Every method works at the current offset; errors name the token found there.
"""

from __future__ import annotations

from crmarena_sf.emulator.sosl.errors import SoslSyntaxError, unexpected_token

_WORD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_WORD_CHARS = _WORD_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_STRING_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


class Scanner:
    """Reads a statement left to right; ``pos`` is the offset of the next unread character."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    # ------------------------------------------------------------------ looking
    def skip_space(self) -> None:
        text, n, i = self.text, len(self.text), self.pos
        while i < n and text[i].isspace():
            i += 1
        self.pos = i

    def at_end(self) -> bool:
        self.skip_space()
        return self.pos >= len(self.text)

    def peek_char(self) -> str | None:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else None

    def peek_word(self) -> str | None:
        """The word (identifier) at the current offset, upper-cased, or None."""
        self.skip_space()
        end = self._word_end(self.pos)
        return self.text[self.pos : end].upper() if end > self.pos else None

    def next_token(self) -> tuple[str | None, int]:
        """The text and offset of the next token, for error messages (None at the end)."""
        self.skip_space()
        i = self.pos
        if i >= len(self.text):
            return None, len(self.text.rstrip())
        end = self._word_end(i)
        if end == i and self.text[i] in _DIGITS:
            end = i
            while end < len(self.text) and self.text[end] in _DIGITS:
                end += 1
        return self.text[i : max(end, i + 1)], i

    def unexpected(self) -> SoslSyntaxError:
        """``unexpected token`` at the next token."""
        token, offset = self.next_token()
        return unexpected_token(self.text, token, offset)

    # ------------------------------------------------------------------ taking
    def take_word(self, *words: str) -> str | None:
        """Consume the next word if it is one of ``words`` (case-insensitive); return it upper-cased."""
        word = self.peek_word()
        if word is not None and word in words:
            self.pos = self._word_end(self.pos)
            return word
        return None

    def expect_word(self, *words: str) -> str:
        word = self.take_word(*words)
        if word is None:
            raise self.unexpected()
        return word

    def identifier(self) -> tuple[str, int]:
        """An identifier as written, and its offset."""
        self.skip_space()
        end = self._word_end(self.pos)
        if end == self.pos:
            raise self.unexpected()
        start, self.pos = self.pos, end
        return self.text[start:end], start

    def take_char(self, ch: str) -> bool:
        if self.peek_char() == ch:
            self.pos += 1
            return True
        return False

    def expect_char(self, ch: str) -> int:
        if self.peek_char() != ch:
            raise self.unexpected()
        self.pos += 1
        return self.pos - 1

    def integer(self) -> tuple[int, int]:
        """A non-negative integer literal and its offset."""
        self.skip_space()
        start = end = self.pos
        while end < len(self.text) and self.text[end] in _DIGITS:
            end += 1
        if end == start or (end < len(self.text) and self.text[end] in _WORD_CHARS):
            raise self.unexpected()
        self.pos = end
        return int(self.text[start:end]), start

    def string_literal(self) -> tuple[str, int]:
        """A ``'...'`` literal, unescaped, and its offset; a bad escape is Salesforce's string error."""
        self.skip_space()
        start = self.pos
        if self.peek_char() != "'":
            raise self.unexpected()
        out: list[str] = []
        i = start + 1
        while i < len(self.text):
            ch = self.text[i]
            if ch == "'":
                self.pos = i + 1
                return "".join(out), start
            if ch == "\\":
                nxt = self.text[i + 1] if i + 1 < len(self.text) else ""
                if nxt not in _STRING_ESCAPES:
                    raise SoslSyntaxError(
                        "MALFORMED_SEARCH",
                        f"Invalid string literal '{self.text[start + 1 : self._string_end(start)]}'. "
                        f"Illegal character sequence '\\{nxt}' in string literal.",
                        start,
                    )
                out.append(_STRING_ESCAPES[nxt])
                i += 2
                continue
            out.append(ch)
            i += 1
        raise unexpected_token(self.text, None, len(self.text.rstrip()))

    def skip_balanced_until(self, stop_words: tuple[str, ...]) -> int:
        """Move past text (strings and parentheses balanced) up to a top-level stop word or the end."""
        depth = 0
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                return self.pos
            ch = self.text[self.pos]
            if depth == 0 and self.peek_word() in stop_words:
                return self.pos
            if ch == "'":
                self.pos = self._string_end(self.pos) + 1
            elif ch == "(":
                depth += 1
                self.pos += 1
            elif ch == ")":
                if depth == 0:
                    return self.pos
                depth -= 1
                self.pos += 1
            else:
                end = self._word_end(self.pos)
                self.pos = end if end > self.pos else self.pos + 1

    # ------------------------------------------------------------------ helpers
    def _word_end(self, i: int) -> int:
        text, n = self.text, len(self.text)
        if i >= n or text[i] not in _WORD_START:
            return i
        while i < n and text[i] in _WORD_CHARS:
            i += 1
        return i

    def _string_end(self, start: int) -> int:
        """Offset of the quote closing the literal opened at ``start`` (or the end of the text)."""
        i = start + 1
        while i < len(self.text):
            if self.text[i] == "\\":
                i += 2
                continue
            if self.text[i] == "'":
                return i
            i += 1
        return len(self.text)
