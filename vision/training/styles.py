"""Which art styles the networks may learn from, and which stay blind (scored, never trained or tuned on)."""

from vision.render.art import STYLES

BLIND_STYLES = ("openmoji", "mdi")  # a coloured emoji set and a shape-only silhouette set
TRAINING_STYLES = tuple(s for s in STYLES if s not in BLIND_STYLES)
