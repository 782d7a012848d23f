"""Import boardspace.net Hive game records (SGF) as ``GameRecord``s.

Boardspace writes one SGF node per action: ``pick``/``pickb`` then ``dropb`` (or a whole
``move``; ``pmove``/``pdropb`` for Pillbug throws), ``pass``, ``resign``, and ``done`` to
end the turn. A turn may pick and drop several times before ``done``: only its net effect
counts. Newer records leave out forced passes (the same player simply moves again) and
older ones may open with the Queen, so such records are imported with
``RuleOptions(queen_may_open=True)``. Archived games are never cut short by repetition.

Boardspace cells are (column letter, row number); as axial cells they are
``(column, -row)``, shifted so that the first piece stands on (0, 0). The Mzinga-style
hint after the cell (``/wB1``, ``.``) is not needed and not used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .board import Board
from .gametype import GameType, RuleOptions
from .hexgrid import Hex
from .move import PASS, GameState, Move, NotationError, Outcome, Termination
from .pieces import Bug, Colour, Piece
from .record import GameRecord


class SgfError(NotationError):
    """An SGF file that cannot be imported; the message names the line and the problem."""


# ------------------------------------------------------------------ SGF syntax
@dataclass
class _Node:
    number: int  # 1-based position in the file
    line: int
    props: list[tuple[str, str]] = field(default_factory=list)

    def where(self) -> str:
        return f"line {self.line} (node {self.number})"


_PROPERTY = re.compile(r"[A-Z][A-Z0-9]*", re.IGNORECASE)


def _parse_nodes(text: str) -> list[_Node]:
    """The nodes of a single-line-of-play SGF game tree, with their properties."""
    pos, line, size = 0, 1, len(text)
    nodes: list[_Node] = []

    def skip_space() -> None:
        nonlocal pos, line
        while pos < size and text[pos].isspace():
            line += text[pos] == "\n"
            pos += 1

    skip_space()
    if pos >= size or text[pos] != "(":
        raise SgfError(f"line {line}: an SGF game starts with '(' (is this an SGF file?)")
    pos += 1
    while True:
        skip_space()
        if pos >= size:
            raise SgfError(f"line {line}: the file ends inside the game (truncated?): no closing ')'")
        char = text[pos]
        if char == ")":
            pos += 1
            break
        if char == "(":
            raise SgfError(f"line {line}: variations (nested '(') are not supported")
        if char == ";":
            nodes.append(_Node(len(nodes) + 1, line))
            pos += 1
            continue
        match = _PROPERTY.match(text, pos)
        if match is None or not nodes:
            raise SgfError(f"line {line}: unexpected {char!r} where a property such as P0[...] belongs")
        name, pos = match.group(), match.end()
        skip_space()
        if pos >= size or text[pos] != "[":
            raise SgfError(f"line {line}: property {name} has no [value]")
        while pos < size and text[pos] == "[":
            start_line, pos, chars = line, pos + 1, []
            while pos < size and text[pos] != "]":
                if text[pos] == "\\" and pos + 1 < size:
                    pos += 1
                line += text[pos] == "\n"
                chars.append(text[pos])
                pos += 1
            if pos >= size:
                raise SgfError(f"line {start_line}: the value of {name} is never closed with ']' (truncated?)")
            pos += 1
            nodes[-1].props.append((name, "".join(chars)))
            skip_space()
    skip_space()
    if pos < size:
        raise SgfError(f"line {line}: unexpected text after the end of the game")
    return nodes


# --------------------------------------------------------------- header fields
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WIN_PATTERNS = [re.compile(p, re.IGNORECASE) for p in (
    r"^game won by (.+)$", r"^partie gagnée par (.+)$", r"^partida ganada por (.+)$",
    r"^игру выиграл\(а\) (.+?)\.?$", r"^(.+) hat gewonnen$", r"^de partij is gewonnen door (.+)$")]
_DRAW_TEXTS = {"the game is a draw", "la partie est nulle"}
# Boardspace's name for an anonymous player, as it appears in results in several languages.
_GUEST_WORDS = {"guest", "invitado"}


def _game_type(variant: str, node: _Node) -> GameType:
    """``Hive`` is the base game; ``Hive-PLM`` and the like add Pillbug, Ladybug, Mosquito."""
    head, _, letters = variant.strip().partition("-")
    if head.lower() != "hive" or not set(letters.upper()) <= set("MLP"):
        raise SgfError(f"{node.where()}: unsupported variant SU[{variant}]")
    return GameType.parse("Base+" + letters.upper() if letters else "Base")


def _pgn_date(text: str, game_name: str) -> str:
    """``YYYY.MM.DD`` from a DT[] value such as ``Tue Mar 31 10:06:56 PDT 2020`` or the game name."""
    words = re.findall(r"[^\W\d_]+|\d+:\d+(?::\d+)?|\d+", text)
    year = next((w for w in words if re.fullmatch(r"\d{4}", w)), None)
    month = next((_MONTHS.index(w[:3].lower()) + 1 for w in words if w[:3].lower() in _MONTHS), None)
    day = next((w for w in words if re.fullmatch(r"\d{1,2}", w) and 1 <= int(w) <= 31), None)
    if year and month and day:
        return f"{year}.{month:02d}.{int(day):02d}"
    found = re.search(r"(\d{4})-(\d{2})-(\d{2})", game_name)
    return ".".join(found.groups()) if found else "????.??.??"


def _name_key(name: str) -> str:
    """A player name as boardspace varies it in results: robots get a digit, guests a number."""
    key = re.sub(r"\d+$", "", name.strip().lower())
    return "guest" if key in _GUEST_WORDS else key


def _stated_result(text: str, names: dict[Colour, str]) -> GameState | None:
    """What RE[] says: a win for the named player, a draw, or None when it cannot be read."""
    text = text.strip()
    if text.lower() in _DRAW_TEXTS:
        return GameState.DRAW
    for pattern in _WIN_PATTERNS:
        found = pattern.match(text)
        if found:
            winner = found.group(1).strip()
            exact = [c for c, n in names.items() if n.lower() == winner.lower()]
            loose = [c for c, n in names.items() if _name_key(n) == _name_key(winner)]
            match = exact if len(exact) == 1 else loose
            if len(match) == 1:
                return GameState.won_by(match[0])
    return None


# --------------------------------------------------------------------- actions
@dataclass
class _Action:
    node: _Node
    player: int
    command: str
    args: list[str]
    clock_ms: int | None


@dataclass
class _Turn:
    player: int
    actions: list[_Action]

    @property
    def node(self) -> _Node:
        """Where the turn's last action before ``done`` is (its move, usually)."""
        acting = [a for a in self.actions if a.command != "done"]
        return (acting or self.actions)[-1].node


_PLAYER = re.compile(r"P([01])")
_DIGITS = re.compile(r"[0-9]{1,15}")  # clocks (ms) and rows: ASCII digits of a sane length
# Commands that move no piece: ending the turn, passing, resigning, and draw offers.
_OTHER_COMMANDS = {"done", "pass", "resign", "acceptdraw", "offerdraw", "declinedraw"}


def _actions(nodes: list[_Node]) -> tuple[dict[str, str], dict[int, str], list[_Action]]:
    """Header properties, players' names, and every numbered action in order."""
    header: dict[str, str] = {}
    names: dict[int, str] = {}
    actions: list[_Action] = []
    for node in nodes:
        clock = next((v for k, v in node.props if k == "TM"), None)
        if clock is not None and not _DIGITS.fullmatch(clock.strip()):
            raise SgfError(f"{node.where()}: TM[{clock}] is not a number of milliseconds")
        for key, value in node.props:
            player = _PLAYER.fullmatch(key)
            if player is None:
                if key != "TM":
                    header.setdefault(key, value.strip())
                continue
            words = value.split()
            if not words:
                raise SgfError(f"{node.where()}: empty {key}[]")
            if words[0] == "id":
                names[int(player.group(1))] = " ".join(value.strip()[2:].strip().strip('"').split())
            elif words[0] == "time":
                header[f"{key}time"] = " ".join(words[1:])
            elif words[0].isdigit() and len(words) > 1:
                actions.append(_Action(node, int(player.group(1)), words[1].lower(), words[2:],
                                       int(clock) if clock is not None else None))
            else:
                raise SgfError(f"{node.where()}: cannot read {key}[{value}]")
    return header, names, actions


def _turns(actions: list[_Action]) -> list[_Turn]:
    """Actions grouped into turns, each ended by ``done``."""
    turns: list[_Turn] = []
    current: list[_Action] = []
    for action in actions:
        if action.command == "start":
            continue
        if current and action.player != current[0].player:
            raise SgfError(f"{action.node.where()}: P{action.player} acts before "
                           f"P{current[0].player}'s turn is done")
        current.append(action)
        if action.command == "done":
            turns.append(_Turn(action.player, current))
            current = []
    if current:
        raise SgfError(f"{current[-1].node.where()}: the last turn is never done (truncated?)")
    return turns


# -------------------------------------------------------------------- replay
class _Replay:
    """Plays the turns of one game into a ``GameRecord``."""

    def __init__(self, record: GameRecord, white: int) -> None:
        self.record = record
        self.board = Board(record.game_type, record.options)  # mirrors the record's moves
        self.white = white
        self.origin: tuple[int, int] | None = None  # boardspace (column, -row) of the first piece
        self.clocks = {0: 0, 1: 0}

    def colour(self, player: int) -> Colour:
        return Colour.WHITE if player == self.white else Colour.BLACK

    def cell(self, action: _Action, col: str, row: str) -> Hex:
        if not re.fullmatch(r"[A-Za-z]", col) or not _DIGITS.fullmatch(row):
            raise SgfError(f"{action.node.where()}: {col} {row} is not a board cell (letter and number)")
        raw = (ord(col.upper()) - ord("A"), -int(row))
        if self.origin is None:
            self.origin = raw
        return (raw[0] - self.origin[0], raw[1] - self.origin[1])

    def play(self, turn: _Turn) -> None:
        move, shown, commands = self.net_effect(turn)
        if move is not None:
            self.append(turn, move, shown)
        elif "pass" in commands or not commands & {"resign", "acceptdraw"}:
            self.append(turn, PASS, "pass")  # ``pass``, or a turn that is only ``done``
        try:
            if "resign" in commands:
                self.record.resign(self.colour(turn.player))
            elif "acceptdraw" in commands:
                self.record.agree_draw()
        except ValueError as exc:
            raise SgfError(f"{turn.node.where()}: {exc}") from None

    def net_effect(self, turn: _Turn) -> tuple[Move | None, str, set[str]]:
        """The one piece a turn moved (with where the file put it), and the commands it used."""
        board = self.board
        local: dict[Piece, Hex | None] = {}
        spots: dict[Piece, str] = {}  # where each piece was put, as the file writes it
        holding: Piece | None = None
        for action in turn.actions:
            if action.clock_ms is not None:
                self.clocks[action.player] = action.clock_ms
            command, args, where = action.command, action.args, action.node.where()
            try:
                if command in ("pick", "pickb"):
                    if holding is not None:
                        raise SgfError(f"{where}: picks up {args[-1]} while holding {holding}")
                    holding = _piece(action, args[-1])
                    now = local.get(holding, board.position_of(holding))
                    if command == "pickb" and now != self.cell(action, args[0], args[1]):
                        raise SgfError(f"{where}: {holding} is not at {args[0]} {args[1]}")
                    if command == "pick" and now is not None:
                        raise SgfError(f"{where}: {holding} is not in the hand")
                elif command in ("dropb", "pdropb"):
                    piece = _piece(action, args[0])
                    if piece is not holding:
                        raise SgfError(f"{where}: drops {piece} but holds {holding}")
                    local[piece], spots[piece] = self.cell(action, args[1], args[2]), f"{args[1]} {args[2]}"
                    holding = None
                elif command in ("move", "pmove"):
                    piece = _piece(action, args[1])
                    local[piece], spots[piece] = self.cell(action, args[2], args[3]), f"{args[2]} {args[3]}"
                elif command not in _OTHER_COMMANDS:
                    raise SgfError(f"{where}: unknown command {command!r}")
            except IndexError:
                raise SgfError(f"{where}: {command} is missing arguments") from None
        if holding is not None:
            raise SgfError(f"{turn.node.where()}: {holding} is picked up and never put down")
        changed = [(p, c) for p, c in local.items() if c != board.position_of(p)]
        if len(changed) > 1:
            moved = ", ".join(str(p) for p, _ in changed)
            raise SgfError(f"{turn.node.where()}: one turn moves several pieces ({moved})")
        commands = {a.command for a in turn.actions}
        if not changed:
            return None, "", commands
        piece, dest = changed[0]
        return Move(piece, dest), f"{piece} to {spots[piece]}", commands

    def append(self, turn: _Turn, move: Move, shown: str) -> None:
        board = self.board
        mover = self.colour(turn.player)
        if mover is not board.turn:
            if board.legal_moves != [PASS]:
                raise SgfError(f"{turn.node.where()}: {mover.title} plays twice in a row, but "
                               f"{board.turn.title} had legal moves, so no pass was forced")
            self.record.append(PASS)
            board.push(PASS)
        ply = len(self.record.moves) + 1
        try:
            entry = self.record.append(move, timestamp=(self.clocks[0] + self.clocks[1]) / 1000
                                       if any(a.clock_ms is not None for a in turn.actions) else None)
        except ValueError as exc:  # IllegalMoveError (with the rule broken) included
            raise SgfError(f"{turn.node.where()}: move {ply} ({mover.title}: {shown}) "
                           f"is rejected: {exc}") from exc
        board.push(entry.move)


def _piece(action: _Action, name: str) -> Piece:
    try:
        return Piece.parse(name)
    except ValueError as exc:
        raise SgfError(f"{action.node.where()}: {exc}") from None


def _opens_with_queen(turns: list[_Turn]) -> bool:
    """Whether a player's first turn puts down the Queen (allowed only by the older rules)."""
    first: dict[int, str] = {}
    for turn in turns:
        for action in turn.actions:
            index = {"dropb": 0, "move": 1}.get(action.command)
            if index is not None and index < len(action.args) and turn.player not in first:
                first[turn.player] = action.args[index]
    return any(name[1:2] == Bug.QUEEN.value for name in first.values())


# ------------------------------------------------------------------ public API
def read_sgf(text: str) -> GameRecord:
    """Import one boardspace Hive SGF game; raise ``SgfError`` naming the line and problem."""
    nodes = _parse_nodes(text.lstrip("\ufeff"))
    if not nodes:
        raise SgfError("line 1: the game tree has no nodes")
    header, names, actions = _actions(nodes)
    root = nodes[0]
    if header.get("GM", "27") != "27":
        raise SgfError(f"{root.where()}: GM[{header['GM']}] is not Hive (boardspace writes GM[27])")
    game_type = _game_type(header.get("SU", "Hive"), root)
    white = next((int(a.args[0][1]) for a in actions if a.command == "start"
                  and a.args and re.fullmatch(r"P[01]", a.args[0])), 0)
    turns = _turns(actions)
    options = RuleOptions(queen_may_open=_opens_with_queen(turns), repetition_draw=False)
    colour_names = {Colour.WHITE: names.get(white, ""), Colour.BLACK: names.get(1 - white, "")}
    record = GameRecord(game_type, options, White=colour_names[Colour.WHITE],
                        Black=colour_names[Colour.BLACK],
                        Date=_pgn_date(header.get("DT", ""), header.get("GN", "")))
    for key, tag in (("DT", "SgfDate"), ("GN", "SgfGameName"), ("RE", "SgfResult"),
                     (f"P{white}time", "WhiteTime"), (f"P{1 - white}time", "BlackTime")):
        if header.get(key):
            record.set_tag(tag, " ".join(header[key].split()))  # a tag is one line
    replay = _Replay(record, white)
    for turn in turns:
        replay.play(turn)
    stated = _stated_result(header.get("RE", ""), colour_names)
    if stated is not None and record.result.is_over and stated is not record.result:
        raise SgfError(f"RE[{header['RE']}] does not match how the moves end ({record.result.value})")
    if stated is not None and not record.result.is_over:
        record.declare(Outcome.from_state(stated, Termination.REPORTED))
    return record


def load_sgf(path: str | Path) -> GameRecord:
    """Read and import an SGF file (UTF-8 with or without BOM; Latin-1 as a fallback)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return read_sgf(text)
    except SgfError as exc:
        raise SgfError(f"{path}: {exc}") from exc
