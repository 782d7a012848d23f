"""The live referee: turns a stream of camera observations into a checked game record.

>>> from rules.referee import Referee, RefereeConfig
>>> ref = Referee("Base+MLP", config=RefereeConfig(stable_seconds=0.3))
>>> ref.board.turn.value, ref.pending()
('w', None)

Modules: ``referee`` (the ``Referee``: state, a person's decisions, typed accessors), ``view``
(the typed values the accessors return), ``table`` (the table's position, to start from it),
``events`` (what it reports), ``config``, ``stability`` (when a view has settled),
``registration`` (camera lattice to game cells), ``scene`` (a view cell by cell),
``inference`` (which legal moves explain a view), ``attempts`` (the illegal move someone
tried), ``synthetic`` (frames of a game for tests and benchmarks, and a noise injector).
"""

from .config import RefereeConfig
from .events import (Event, GameOverEvent, IllegalEvent, MisreadEvent, MoveEvent,
                     NeedsConfirmationEvent, PassEvent, QueenDueEvent, TakebackEvent, UndoEvent,
                     ViewEvent)
from .referee import Referee

__all__ = ["Event", "GameOverEvent", "IllegalEvent", "MisreadEvent", "MoveEvent",
           "NeedsConfirmationEvent", "PassEvent", "QueenDueEvent", "Referee", "RefereeConfig",
           "TakebackEvent", "UndoEvent", "ViewEvent"]
