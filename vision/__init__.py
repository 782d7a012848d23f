"""hivecam's eyes: frames in, ``rules.observation.Observation`` out.

- ``sources``: camera, capture and folder frame sources behind one interface
- ``segment`` -> ``lattice`` -> ``locate``: tile faces, the hex lattice, one tile per cell
- ``features`` + ``calibration.appearance``: glyph features and the learned profile
- ``detect``: the whole pipeline and the occlusion check; ``compare``: scoring helpers
- ``render``: the synthetic camera (scenes, art styles, hands, whole games)
- ``detect_command`` / ``render_command``: ``hivecam detect`` and ``hivecam render``
"""
