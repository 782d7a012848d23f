"""The synthetic camera: Hive positions and whole games rendered as 1280x720 frames with ground truth.

``scene.render_position`` draws one frame (``tiles`` the tiles, ``objects`` cups and phones,
``hand`` the arm, ``lighting`` lamps, shadows and glare, ``surfaces`` the tables and sensor
faults, ``camera`` the pose and lens, ``canvas`` the picture and its labels); ``game.game_frames``
a game played by hand; ``art`` the creature styles; ``world.random_world`` and
``positions.random_position`` draw the wider physical world and positions as people lay them.
"""
