"""The search term of ``FIND {...}``: words, "phrases", wildcards, AND / OR / AND NOT, parentheses.

Rules (SOQL and SOSL Reference, sforce_api_calls_sosl_find.htm and _examples.htm):

- A word is split into tokens like record text (:mod:`.text`); a word that splits into
  several tokens (``acme.com``, ``AB\\-C``) must match them consecutively in one field,
  like a phrase. ``"..."`` is a phrase: its tokens consecutively, in order, in one field.
- ``*`` matches zero or more characters and ``?`` exactly one, "at the middle or end" of a
  term, taking the type of the preceding character (``aa*a`` never spans letters and
  digits); a wildcard at the start of a word is ignored (leading wildcards are not
  supported). Wildcards work inside phrases too (Salesforce Help 000387524).
- Operators AND, OR, AND NOT (case-insensitive) and parentheses; "searches are evaluated
  from left to right" without precedence, so ``a OR b AND c`` is ``(a OR b) AND c`` (a
  :class:`Chain` folded left to right). Words
  with no operator between them are joined by an *implicit* AND (see :mod:`.matcher` for
  how articles relax it). To search for "and" or "or", quote them.
- ``\\`` escapes a reserved character (``& | ! ( ) { } [ ] ^ " ~ * ? : \\ ' + -``): an escaped
  ``*`` is a literal asterisk, which, like any punctuation, separates tokens.
- Terms over 4,000 characters have their operators turned into OR; over 10,000 they find
  nothing (same page, "Search term length").

Inside braces the statement's lexer has already refused unescaped reserved characters
(:func:`read_braced_term`); here the term is a list of ``(character, escaped)`` pairs. The
term language itself never fails: an operator with a missing operand, an unbalanced
parenthesis or an unclosed quote are read leniently rather than guessed into an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.emulator.sosl.errors import mismatched_character
from crmarena_sf.emulator.sosl.text import STOP_WORDS, tokens

RESERVED_IN_BRACES = frozenset("&|!{[]^~:'+-")
"""Reserved characters that are an error unescaped inside braces (``"()*?`` are term syntax)."""

OPERATORS_DROPPED_ABOVE = 4000
NOTHING_FOUND_ABOVE = 10000
MAX_DEPTH = 100
"""Deeper parentheses are read as plain separators instead of exhausting the stack."""

Chars = list[tuple[str, bool]]


@dataclass(frozen=True)
class Leaf:
    """A word or phrase: token patterns that must appear consecutively in one field."""

    pieces: tuple[str, ...]
    """Lower-cased tokens; ``*`` and ``?`` inside a piece are wildcards."""
    quoted: bool = False

    @property
    def has_wildcard(self) -> bool:
        return any("*" in p or "?" in p for p in self.pieces)

    @property
    def is_stop_word(self) -> bool:
        return not self.quoted and len(self.pieces) == 1 and self.pieces[0] in STOP_WORDS


@dataclass(frozen=True)
class Step:
    """One ``<op> operand`` of a chain; ``implicit`` marks an AND nobody wrote."""

    op: str
    operand: Term
    implicit: bool = False


@dataclass(frozen=True)
class Chain:
    """Operands joined by AND / OR / AND NOT, evaluated strictly left to right (no precedence).

    A flat chain rather than a left-deep binary tree: a 3,000-word term stays one level deep
    (only parentheses nest, at most :data:`MAX_DEPTH` levels).
    """

    first: Term
    steps: tuple[Step, ...]


Term = Leaf | Chain


@dataclass(frozen=True)
class SearchTerm:
    """A parsed search term: its tree (None when it holds no searchable token) and its text."""

    tree: Term | None
    text: str
    finds_nothing: bool = False


# ---------------------------------------------------------------------------- lexing the statement
def read_braced_term(text: str, start: int) -> tuple[Chars, int]:
    """The characters of ``{...}`` starting at ``text[start] == '{'``, and the offset past ``}``.

    Raises the lexer's ``mismatched character`` error at an unescaped reserved character, a
    trailing backslash or a missing ``}``.
    """
    chars: Chars = []
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 >= n:
                raise mismatched_character(text, n)
            chars.append((text[i + 1], True))
            i += 2
            continue
        if ch == "}":
            return chars, i + 1
        if ch in RESERVED_IN_BRACES:
            raise mismatched_character(text, i)
        chars.append((ch, False))
        i += 1
    raise mismatched_character(text, n)


def unescape_backslashes(content: str) -> Chars:
    """A quoted term's characters with ``\\x`` read as an escaped x (reserved characters allowed)."""
    chars: Chars = []
    i = 0
    while i < len(content):
        if content[i] == "\\" and i + 1 < len(content):
            chars.append((content[i + 1], True))
            i += 2
        else:
            chars.append((content[i], False))
            i += 1
    return chars


# ---------------------------------------------------------------------------- parsing the term
def parse_term(chars: Chars) -> SearchTerm:
    """The tree of a search term given as ``(character, escaped)`` pairs."""
    text = "".join(ch for ch, _ in chars).strip()
    lexemes = _lexemes(chars)
    tree = _TermParser(lexemes).parse()
    if len(text) > OPERATORS_DROPPED_ABOVE and tree is not None:
        tree = _all_or(tree)
    return SearchTerm(drop_stop_words(tree), text, finds_nothing=len(text) > NOTHING_FOUND_ABOVE)


def searchable_length(term: SearchTerm) -> int:
    """Letters and digits a term searches for (wildcards not counted)."""
    return sum(len(p.replace("*", "").replace("?", "")) for leaf in leaves(term.tree) for p in leaf.pieces)


def leaves(tree: Term | None) -> list[Leaf]:
    """Every leaf of ``tree``, left to right."""
    if tree is None:
        return []
    if isinstance(tree, Leaf):
        return [tree]
    out = leaves(tree.first)
    for step in tree.steps:
        out += leaves(step.operand)
    return out


def chain(first: Term, steps: list[Step]) -> Term:
    """``first`` followed by ``steps``; a chain of one operand is that operand."""
    return Chain(first, tuple(steps)) if steps else first


def drop_stop_words(tree: Term | None) -> Term | None:
    """Remove stop words joined to their neighbours only by implicit ANDs, keeping at least one operand."""
    if not isinstance(tree, Chain):
        return tree
    items = [Step("AND", drop_stop_words(tree.first), True)]
    items += [Step(s.op, drop_stop_words(s.operand), s.implicit) for s in tree.steps]
    droppable = [
        isinstance(item.operand, Leaf)
        and item.operand.is_stop_word
        and item.implicit
        and (i + 1 == len(items) or items[i + 1].implicit)
        for i, item in enumerate(items)
    ]
    if all(droppable):
        return chain(items[0].operand, items[1:])
    kept = [item for item, drop in zip(items, droppable) if not drop]
    return chain(kept[0].operand, kept[1:])


def _all_or(tree: Term) -> Term:
    if isinstance(tree, Leaf):
        return tree
    return Chain(_all_or(tree.first), tuple(Step("OR", _all_or(s.operand)) for s in tree.steps))


# lexemes: ("(", None) | (")", None) | ("word", chars) | ("phrase", chars)
Lexeme = tuple[str, Chars | None]


def _lexemes(chars: Chars) -> list[Lexeme]:
    out: list[Lexeme] = []
    i = 0
    n = len(chars)
    while i < n:
        ch, escaped = chars[i]
        if not escaped and ch.isspace():
            i += 1
        elif not escaped and ch in "()":
            out.append((ch, None))
            i += 1
        elif not escaped and ch == '"':
            j = i + 1
            while j < n and chars[j] != ('"', False):
                j += 1
            out.append(("phrase", chars[i + 1 : j]))
            i = j + 1
        else:
            j = i
            while j < n and not (not chars[j][1] and (chars[j][0].isspace() or chars[j][0] in '()"')):
                j += 1
            out.append(("word", chars[i:j]))
            i = j
    return out


def _operator(lexeme: Lexeme) -> str | None:
    kind, chars = lexeme
    if kind != "word" or any(escaped for _, escaped in chars):
        return None
    word = "".join(ch for ch, _ in chars).upper()
    return word if word in ("AND", "OR", "NOT") else None


class _TermParser:
    """Left-to-right reading of operands and operators; lenient where the grammar is broken."""

    def __init__(self, lexemes: list[Lexeme]) -> None:
        self.lexemes = lexemes
        self.pos = 0
        self.depth = 0

    def parse(self) -> Term | None:
        items: list[Step] = []
        while self.pos < len(self.lexemes):
            _append(items, Step("AND", self.expression(), True))
            if self.pos < len(self.lexemes):  # a stray ')': skip it and read on
                self.pos += 1
        return chain(items[0].operand, items[1:]) if items else None

    def expression(self) -> Term | None:
        items: list[Step] = []
        _append(items, Step("AND", self.operand(), True))
        while self.pos < len(self.lexemes) and self.lexemes[self.pos][0] != ")":
            op, implicit = self.operator()
            if self.pos >= len(self.lexemes) or self.lexemes[self.pos][0] == ")":
                break  # a dangling operator is ignored
            _append(items, Step(op, self.operand(), implicit))
        return chain(items[0].operand, items[1:]) if items else None

    def operator(self) -> tuple[str, bool]:
        word = _operator(self.lexemes[self.pos])
        if word == "AND":
            self.pos += 1
            if self.pos < len(self.lexemes) and _operator(self.lexemes[self.pos]) == "NOT":
                self.pos += 1
                return "AND NOT", False
            return "AND", False
        if word == "OR":
            self.pos += 1
            return "OR", False
        return "AND", True

    def operand(self) -> Term | None:
        while self.pos < len(self.lexemes):
            kind, chars = self.lexemes[self.pos]
            if kind == "(":
                self.pos += 1
                if self.depth >= MAX_DEPTH:
                    continue
                self.depth += 1
                inner = self.expression()
                self.depth -= 1
                if self.pos < len(self.lexemes) and self.lexemes[self.pos][0] == ")":
                    self.pos += 1
                return inner
            if kind == ")":
                return None
            if kind == "word" and _operator(self.lexemes[self.pos]) in ("AND", "OR"):
                self.pos += 1  # an operator with no left operand is ignored
                continue
            self.pos += 1
            return _leaf(chars, quoted=kind == "phrase")
        return None


def _append(items: list[Step], step: Step) -> None:
    """Add a step to a chain being read: a missing operand drops its operator, and nothing negates nothing."""
    if step.operand is None:
        return
    if not items and step.op == "AND NOT":
        return
    items.append(step)


def _leaf(chars: Chars, quoted: bool) -> Leaf | None:
    """The token patterns of a word or phrase (rules of :func:`.text.tokens`); None without letters or digits."""
    text = "".join(ch for ch, _ in chars)
    pieces = tokens(text, lambda i: not chars[i][1] and chars[i][0] in "*?")
    if not pieces:
        return None
    return Leaf(tuple(pieces), quoted=quoted)
