"""The synthetic camera: Hive positions and whole games rendered as 1280x720 frames with ground truth.

``scene.render_position`` draws one frame; ``game.game_frames`` a game played by hand;
``art`` holds the two procedural creature styles, ``camera`` the pose and lens, ``hand``
the arm, ``surfaces`` the tables, light and sensor noise.
"""
