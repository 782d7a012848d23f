"""The HTML pages: live game, rulings, games, calibration, and the replay of one game."""

from __future__ import annotations

from flask import Blueprint, render_template

from webui.context import services

blueprint = Blueprint("pages", __name__)

for _path, _template in (("/", "live.html"), ("/rulings", "rulings.html"), ("/games", "games.html"),
                         ("/calibrate", "calibrate.html")):
    blueprint.add_url_rule(_path, _template.removesuffix(".html"), lambda template=_template: render_template(template))


@blueprint.get("/games/<int:game_id>")
def replay(game_id: int) -> tuple[str, int]:
    """The replay page; the not-found page (404) when the log has no such game."""
    if not services().service.store.has(game_id):
        return render_template("missing.html", message=f"There is no game {game_id} in the log."), 404
    return render_template("replay.html", game_id=game_id), 200
