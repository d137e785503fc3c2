# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A shell command line read by the POSIX shell grammar, as far as a route needs it.

Long because: the lexer and the parser are one pass over one command line, and each rule
of the grammar it follows is written beside the code that applies it.

What is read (POSIX.1-2017, XCU 2 "Shell Command Language"; bash 5.2 manual, "Shell
Syntax" and "Shell Commands"):

* **Quoting** (2.2): ``'...'`` keeps every character; ``"..."`` keeps all but ``\\``
  before ``$ ` " \\`` or a newline; ``$'...'`` (bash "ANSI-C Quoting") decodes its escapes;
  an unquoted ``\\`` keeps the next character, and ``\\`` + newline is removed.
* **Comments** (2.3, rule 9): an unquoted ``#`` starting a word starts a comment to the
  end of the line.
* **Operators** (2.3, 2.9): ``&& || ; & | |&`` and newlines separate commands; ``( )``
  make a subshell, ``{ ... ; }`` a group in the same shell.
* **Redirections** (2.7): ``[n]< [n]> [n]>> [n]>| [n]<> [n]>& [n]<&``, bash's ``&> &>>``
  and ``<<<`` (here-string), and here-documents ``<<WORD`` / ``<<-WORD`` (2.7.4: the body
  is the lines after the next newline up to a line that is WORD, leading tabs removed with
  ``<<-``). A snippet header holds a command put on one line (newlines became ``"; "``,
  ``snippet_rules.one_line_command``): a here-document there ends at a ``"; "``-separated
  part that is WORD.
* **Expansions** stay as written (``$VAR``, ``${...}``, ``$(...)``, backquotes): a word
  holding one is marked ``dynamic``; its value cannot be known before it runs.
* **Compound commands** (2.9.4: ``if for while until case select``, function definitions,
  ``[[ ]]`` and ``(( ))``) are not modelled: a command line holding one is read as one
  opaque command, compared word for word.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Command", "ParseError", "Redirect", "Word", "parse"]

_OPERATORS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n")
_REDIRECTS = ("<<<", "<<-", "&>>", "<<", "<>", "<&", ">>", ">&", ">|", "&>", "<", ">")
_BLANKS = " \t\r"
_METACHARACTERS = set(_BLANKS) | set("\n;&|()<>")
_MAX_HEREDOCS = 16
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}\Z")
_OPERATOR_STARTS = frozenset("&|;()\n")
_PLAIN = re.compile(r"[^\s;&|()<>'\"\\$`]+")
#: Reserved words that open a compound command (2.4) and other forms not modelled.
_COMPOUND = frozenset({"if", "for", "while", "until", "case", "select", "function", "[[", "(("})
_ANSI_C = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b"}
_ANSI_C |= {"f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


class ParseError(ValueError):
    """The line is not a complete shell command (an unclosed quote or parenthesis)."""


class Word(NamedTuple):
    value: str  # after quote removal
    raw: str  # as written
    dynamic: bool = False  # holds an expansion whose value is not known before it runs


class Redirect(NamedTuple):
    operator: str  # one of _REDIRECTS
    target: str  # the file, fd, here-string, or here-document body ("" when unknown)
    fd: str = ""
    dynamic: bool = False


class Command(NamedTuple):
    """One command of a line: a simple command (``words``), a subshell or group (``body``,
    ``kind`` "(" or "{") or an opaque compound command (``kind`` "?", its ``words``)."""

    kind: str  # "simple" | "(" | "{" | "?"
    words: tuple[Word, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    body: tuple[Command, ...] = ()
    after_pipe: bool = False  # reads the output of the command before it


class _Token(NamedTuple):
    kind: str  # "word" | "op" | "redirect"
    word: Word | None = None
    op: str = ""
    redirect: Redirect | None = None


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.pending: list[tuple[int, bool]] = []  # here-documents waiting for a body
        self.heredocs = 0
        self.tokens: list[_Token] = []

    def run(self) -> list[_Token]:
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in _BLANKS:
                self.at += 1
            elif text.startswith("\\\n", self.at):
                self.at += 2
            elif char == "#":
                # to the end of the line; on a line put on one line (a snippet header, where
                # "; " stands for a line break) to the next "; " as well
                ends = [e for e in (text.find("\n", self.at), text.find("; ", self.at)) if e >= 0]
                self.at = min(ends) if ends else len(text)
                if text.startswith("; ", self.at):
                    self.tokens.append(_Token("op", op=";"))
                    self.at += 1
            elif char == "\n":
                self.at += 1
                self.tokens.append(_Token("op", op="\n"))
                self._bodies()
            elif char in "<>&" and self._redirect(None):
                continue
            elif char in _OPERATOR_STARTS and (
                op := next((o for o in _OPERATORS if text.startswith(o, self.at)), None)
            ):
                self.at += len(op)
                if op == ";" and self.pending and "\n" not in text[self.at :]:
                    self._one_line_bodies()
                self.tokens.append(_Token("op", op=op))
            else:
                self._word()
        if self.pending:
            for index, _ in self.pending:  # a here-document without its body
                self._set_body(index, "", dynamic=True)
        return self.tokens

    def _redirect(self, fd: str | None) -> bool:
        text = self.text
        op = next((r for r in _REDIRECTS if text.startswith(r, self.at)), None)
        if op is None:
            return False
        self.at += len(op)
        while self.at < len(text) and text[self.at] in _BLANKS:
            self.at += 1
        if self.at >= len(text) or text[self.at] in _METACHARACTERS:
            raise ParseError("a redirection without its target")
        word = self._read_word()
        redirect = Redirect(op, word.value, fd or "", word.dynamic)
        self.tokens.append(_Token("redirect", redirect=redirect))
        if op in ("<<", "<<-"):
            self.heredocs += 1
            if self.heredocs > _MAX_HEREDOCS:
                raise ParseError("too many here-documents")
            self.pending.append((len(self.tokens) - 1, op == "<<-"))
        return True

    def _word(self) -> None:
        start = self.at
        word = self._read_word()
        following = self.text[self.at : self.at + 1]
        fd = word.raw.isdigit() and following in ("<", ">") and start == self.at - len(word.raw)
        if fd and self._redirect(word.raw):  # "2>&1": the fd number belongs to the redirect
            return
        self.tokens.append(_Token("word", word=word))

    def _read_word(self) -> Word:
        text = self.text
        start = self.at
        value: list[str] = []
        dynamic = False
        while self.at < len(text) and text[self.at] not in _METACHARACTERS:
            plain = _PLAIN.match(text, self.at)
            if plain is not None:  # a run of ordinary characters, in one step
                value.append(plain.group())
                self.at = plain.end()
                continue
            char = text[self.at]
            if char == "\\":
                if text.startswith("\\\n", self.at):
                    self.at += 2
                    continue
                escaped = text[self.at + 1 : self.at + 2]
                value.append("\\$" if escaped == "$" else escaped)
                self.at += 2
            elif char == "'":
                end = text.find("'", self.at + 1)
                if end < 0:
                    raise ParseError("an unclosed single quote")
                # a "$" quoted is a dollar sign, not an expansion: written as "\$", as the
                # same literal in double quotes would be
                value.append(text[self.at + 1 : end].replace("$", "\\$"))
                self.at = end + 1
            elif text.startswith("$'", self.at):
                value.append(self._ansi_c())
            elif char == '"':
                part, expands = self._double_quoted()
                value.append(part)
                dynamic |= expands
            elif char == "$" or char == "`":
                value.append(self._expansion())
                dynamic = True
            else:
                value.append(char)
                self.at += 1
        return Word("".join(value), text[start : self.at], dynamic)

    def _ansi_c(self) -> str:
        text = self.text
        self.at += 2
        out: list[str] = []
        while self.at < len(text) and text[self.at] != "'":
            if text[self.at] == "\\" and self.at + 1 < len(text):
                escape = text[self.at + 1]
                out.append(_ANSI_C.get(escape, "\\" + escape))
                self.at += 2
            else:
                out.append(text[self.at])
                self.at += 1
        if self.at >= len(text):
            raise ParseError("an unclosed $'")
        self.at += 1
        return "".join(out)

    def _double_quoted(self) -> tuple[str, bool]:
        text = self.text
        self.at += 1
        out: list[str] = []
        expands = False
        while self.at < len(text) and text[self.at] != '"':
            char = text[self.at]
            if char == "\\" and self.at + 1 < len(text):
                following = text[self.at + 1]
                if following == "\n":
                    pass
                elif following == "$":
                    out.append("\\$")
                elif following in '`"\\':
                    out.append(following)
                else:
                    out.append("\\" + following)
                self.at += 2
            elif char == "$" or char == "`":
                out.append(self._expansion())
                expands = True
            else:
                out.append(char)
                self.at += 1
        if self.at >= len(text):
            raise ParseError("an unclosed double quote")
        self.at += 1
        return "".join(out), expands

    def _expansion(self) -> str:
        """``$NAME``, ``${...}``, ``$(...)``, ``$((...))`` or a backquoted command, as
        written."""
        text = self.text
        start = self.at
        if text[self.at] == "`":
            end = text.find("`", self.at + 1)
            if end < 0:
                raise ParseError("an unclosed backquote")
            self.at = end + 1
            return text[start : self.at]
        self.at += 1
        if self.at < len(text) and text[self.at] in "({":
            opening = text[self.at]
            closing = ")" if opening == "(" else "}"
            depth = 0
            quote = ""
            while self.at < len(text):
                char = text[self.at]
                if quote:
                    if char == quote:
                        quote = ""
                    elif char == "\\" and quote == '"':
                        self.at += 1
                elif char in "'\"":
                    quote = char
                elif char == "\\":
                    self.at += 1
                elif char == opening:
                    depth += 1
                elif char == closing:
                    depth -= 1
                    if depth == 0:
                        self.at += 1
                        written = text[start : self.at]
                        simple = _BRACED.match(written)  # "${T}" is "$T"
                        return "$" + simple.group(1) if simple else written
                self.at += 1
            raise ParseError("an unclosed expansion")
        while self.at < len(text) and (text[self.at].isalnum() or text[self.at] == "_"):
            self.at += 1
        if self.at == start + 1 and self.at < len(text) and text[self.at] in "@*#?$!-":
            self.at += 1  # a special parameter
        return text[start : self.at]

    def _bodies(self) -> None:
        """Here-document bodies: the lines after the newline just read (2.7.4)."""
        text = self.text
        for index, strip_tabs in self.pending:
            delimiter = self.tokens[index].redirect.target  # type: ignore[union-attr]
            lines: list[str] = []
            while self.at < len(text):
                end = text.find("\n", self.at)
                line = text[self.at :] if end < 0 else text[self.at : end]
                self.at = len(text) if end < 0 else end + 1
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delimiter:
                    break
                lines.append(line)
            else:
                self._set_body(index, "\n".join(lines), dynamic=True)  # never closed
                continue
            self._set_body(index, "\n".join(lines))
        self.pending = []

    def _one_line_bodies(self) -> None:
        """Here-documents of a line put on one line: the ``"; "``-separated parts after the
        operator, up to a part that is the delimiter."""
        for index, _ in self.pending:
            delimiter = self.tokens[index].redirect.target  # type: ignore[union-attr]
            rest = self.text[self.at :]
            parts = rest[1:].split("; ") if rest.startswith(" ") else rest.split("; ")
            if delimiter not in parts:
                # the delimiter is the last line: "; EOF" may end the text or a part
                parts = [*parts[:-1], *parts[-1].split(";", 1)] if parts else parts
            if delimiter not in [part.strip() for part in parts]:
                self._set_body(index, "", dynamic=True)
                continue
            end = [part.strip() for part in parts].index(delimiter)
            self._set_body(index, "\n".join(parts[:end]))
            consumed = "; ".join(parts[: end + 1])
            self.at += len(consumed) + (1 if rest.startswith(" ") else 0)
        self.pending = []

    def _set_body(self, index: int, body: str, *, dynamic: bool = False) -> None:
        redirect = self.tokens[index].redirect
        assert redirect is not None
        redirect = redirect._replace(target=body, dynamic=dynamic)
        self.tokens[index] = _Token("redirect", redirect=redirect)


def parse(text: str) -> tuple[Command, ...]:
    """The commands of ``text`` in the order they run; raises :class:`ParseError` when
    it is not a complete command line."""
    tokens = _Lexer(text).run()
    if any(_compound(tokens, at) for at in range(len(tokens))):
        return (Command(kind="?", words=tuple(_written(t) for t in tokens)),)
    commands, at = _list(tokens, 0, closing=None)
    if at != len(tokens):
        raise ParseError("an unmatched closing parenthesis")
    return commands


def _written(token: _Token) -> Word:
    """A token of an opaque command as written: words, operators and redirections alike."""
    if token.word is not None:
        return token.word
    if token.redirect is not None:
        written = f"{token.redirect.fd}{token.redirect.operator}{token.redirect.target}"
        return Word(written, written, token.redirect.dynamic)
    return Word(token.op, token.op)


def _compound(tokens: list[_Token], at: int) -> bool:
    """A reserved word opening a compound command, where a command starts (2.4: "the
    first word of a command"), or a function definition (``name() {``)."""
    token = tokens[at]
    if token.kind != "word" or token.word is None:
        return False
    first = at == 0 or (tokens[at - 1].kind == "op" and tokens[at - 1].op != ")")
    if first and token.word.raw in _COMPOUND:
        return True
    following = tokens[at + 1 : at + 3]
    return first and [t.op for t in following] == ["(", ")"]


_MAX_NESTING = 32


def _list(
    tokens: list[_Token], at: int, closing: str | None, depth: int = 0
) -> tuple[tuple[Command, ...], int]:
    if depth > _MAX_NESTING:
        raise ParseError("subshells nested too deep")
    commands: list[Command] = []
    words: list[Word] = []
    redirects: list[Redirect] = []
    after_pipe = False

    def flush() -> None:
        if words or redirects:
            commands.append(Command("simple", tuple(words), tuple(redirects), (), after_pipe))
        words.clear()
        redirects.clear()

    while at < len(tokens):
        token = tokens[at]
        if token.kind == "word" and token.word is not None:
            if not words and token.word.raw == "{":
                body, at = _list(tokens, at + 1, "}", depth + 1)
                commands.append(Command("{", body=body, after_pipe=after_pipe))
                continue
            if closing == "}" and not words and token.word.raw == "}":
                return tuple(commands), at + 1
            words.append(token.word)
            at += 1
        elif token.kind == "redirect" and token.redirect is not None:
            redirects.append(token.redirect)
            at += 1
        elif token.op == "(":
            if words:
                raise ParseError("a parenthesis inside a command")
            body, at = _list(tokens, at + 1, ")", depth + 1)
            commands.append(Command("(", body=body, after_pipe=after_pipe))
        elif token.op == ")":
            if closing != ")":
                raise ParseError("an unmatched closing parenthesis")
            flush()
            return tuple(commands), at + 1
        else:
            flush()
            after_pipe = token.op in ("|", "|&")
            at += 1
            if after_pipe:
                continue
    if closing is not None:
        raise ParseError("an unclosed " + closing)
    flush()
    return tuple(commands), at
