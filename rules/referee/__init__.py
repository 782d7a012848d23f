"""The live referee: turns a stream of camera observations into a checked game record.

>>> from rules.referee import Referee, RefereeConfig
>>> ref = Referee("Base+MLP", config=RefereeConfig(stable_seconds=0.3))
>>> ref.board.turn.value, ref.pending()
('w', None)

Modules: ``referee`` (the ``Referee``: state, a person's decisions, typed accessors),
``events`` (what it reports), ``view`` (what the page shows, as values: the move list,
what is pending and the ways out, the camera's reading), ``table`` (the position on the table,
to start from), ``config``, ``stability`` (when a view has settled),
``registration`` (camera lattice to game cells), ``scene`` (a view cell by cell),
``inference`` (which legal moves explain a view), ``attempts`` (the illegal move someone
tried), ``doubt`` (when a move out of turn is more likely the camera's mistake),
``identity`` (a tile recorded as the wrong creature: the game retold with it renamed),
``synthetic`` (frames of a game for tests and benchmarks, and a noise injector).
"""

from .config import RefereeConfig
from .doubt import NOTHING
from .events import (Event, GameOverEvent, IllegalEvent, MisreadEvent, MoveEvent,
                     NeedsConfirmationEvent, PassEvent, QueenDueEvent, RenamedEvent, TakebackEvent,
                     UndoEvent, ViewEvent)
from .referee import Referee
from .table import Question, TablePosition, table_position
from .view import Difference, Entry, MoveEntry, Pending, SeenPiece, SeenStack

__all__ = ["Difference", "Entry", "Event", "GameOverEvent", "IllegalEvent", "MisreadEvent", "MoveEntry",
           "MoveEvent", "NOTHING", "NeedsConfirmationEvent", "PassEvent", "Pending", "QueenDueEvent", "Question", "Referee",
           "RefereeConfig", "RenamedEvent", "SeenPiece", "SeenStack", "TablePosition", "TakebackEvent", "UndoEvent",
           "ViewEvent", "table_position"]
