"""hivecam's eyes: frames in, ``rules.observation.Observation`` out.

- ``sources``: camera, capture and folder frame sources behind one interface
- ``tilemaps`` -> ``lattice`` -> ``locate``: tile-top centres from a small network, the hex lattice, one top per cell
- ``creatures`` + ``profile``: the creature network's embeddings and a set's prototypes; ``enroll`` learns them
- ``detect``: the whole pipeline and the occlusion check; ``compare``: scoring helpers
- ``render``: the synthetic camera (scenes, art styles, hands, whole games); ``training``: trains the networks
- ``detect_command`` / ``render_command``: ``hivecam detect`` and ``hivecam render``
"""
