"""Third-party icon sets used as tile-top art: which icon stands for each creature, and a pool of others.

The icons are not committed: ``benchmarks/fetch_art.py`` installs the sets from npm (Iconify JSON)
and rasterises the icons named here to RGBA PNGs under ``var/art/<set>/<icon>.png``. Emoji sets draw
colourful creatures; ``ph``, ``mdi`` and ``fluent-hc`` are single-colour shapes, like the Carbon edition.
Pool sets (``POOL_SETS``) are only ever training art: random icons of them make up sets that no
style draws. Licences are listed in the README's "Art credits". Noto Emoji is deliberately absent: it is the art of
a held-out test set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rules.pieces import Bug

ART_DIR = Path(__file__).resolve().parents[2] / "var" / "art"
FETCH_SCRIPT = "benchmarks/fetch_art.py"
POOL_SIZE = 80


@dataclass(frozen=True)
class IconSet:
    """One npm icon set: its package, licence, creature icons, pool candidates and weights."""

    name: str  # folder under var/art, and the art style's name
    package: str  # npm package holding the set's Iconify JSON
    licence: str
    creatures: dict[Bug, str]
    pool_candidates: tuple[str, ...]
    shape_only: bool  # single-colour glyphs, recoloured when drawn
    weights: tuple[str, ...] = ("",)  # icon-name suffixes that draw the same icon in other line weights

    def icon_names(self) -> list[str]:
        """Every icon (creatures and pool candidates, in every weight) the set's art may use."""
        bases = list(self.creatures.values()) + [n for n in self.pool_candidates if n not in self.creatures.values()]
        return [base + weight for base in bases for weight in self.weights]


EMOJI_CREATURES = {
    Bug.QUEEN: "honeybee", Bug.BEETLE: "beetle", Bug.GRASSHOPPER: "cricket", Bug.SPIDER: "spider",
    Bug.ANT: "ant", Bug.MOSQUITO: "mosquito", Bug.LADYBUG: "lady-beetle", Bug.PILLBUG: "cockroach",
}
EMOJI_POOL = tuple("""
dog-face cat-face mouse-face hamster rabbit-face fox bear panda koala tiger-face lion cow-face pig-face frog
monkey-face chicken penguin bird baby-chick eagle duck owl bat wolf horse-face unicorn turtle snake lizard
t-rex octopus squid shrimp crab tropical-fish dolphin spouting-whale shark crocodile elephant giraffe
hedgehog snail butterfly worm scorpion spiral-shell cherry-blossom rose sunflower tulip seedling
evergreen-tree palm-tree cactus four-leaf-clover maple-leaf mushroom red-apple lemon banana grapes
strawberry cherries carrot pineapple watermelon star crescent-moon snowflake fire droplet umbrella key
bell anchor crown gem-stone rocket airplane guitar light-bulb ghost robot
""".split())
PH_POOL = tuple("""
cat dog bird fish fish-simple rabbit horse cow paw-print feather leaf flower flower-lotus flower-tulip tree
tree-evergreen tree-palm plant cactus acorn orange carrot pepper avocado grains shrimp ghost skull star sun
moon cloud snowflake drop fire lightning heart anchor key bell umbrella crown diamond club spade house
rocket airplane bicycle boat car guitar music-note camera cube puzzle-piece lightbulb hourglass shield
sword mountains waves tooth eye hand footprints alien robot smiley cookie pizza coffee ice-cream cake
""".split())
MDI_POOL = tuple("""
cat dog rabbit fish bird owl duck penguin turtle snake elephant horse cow pig sheep paw jellyfish dolphin
shark tortoise kangaroo koala panda unicorn rodent leaf flower flower-tulip tree pine-tree palm-tree cactus
mushroom sprout clover carrot apple fruit-cherries fruit-grapes fruit-pineapple fruit-watermelon star
weather-sunny moon-waning-crescent snowflake water fire flash heart anchor key bell umbrella crown diamond
cards-club cards-spade home rocket airplane bicycle sail-boat car guitar-acoustic music-note camera cube
puzzle lightbulb timer-sand horseshoe shield sword waves tooth eye alien robot ghost skull feather
""".split())

ICON_SETS: dict[str, IconSet] = {s.name: s for s in (
    IconSet("twemoji", "@iconify-json/twemoji", "CC BY 4.0", EMOJI_CREATURES, EMOJI_POOL, False),
    IconSet("openmoji", "@iconify-json/openmoji", "CC BY-SA 4.0", EMOJI_CREATURES, EMOJI_POOL, False),
    IconSet("fluent", "@iconify-json/fluent-emoji", "MIT", EMOJI_CREATURES, EMOJI_POOL, False),
    IconSet("fluent-flat", "@iconify-json/fluent-emoji-flat", "MIT", EMOJI_CREATURES, EMOJI_POOL, False),
    IconSet("fluent-hc", "@iconify-json/fluent-emoji-high-contrast", "MIT", EMOJI_CREATURES, EMOJI_POOL, True),
    IconSet("ph", "@iconify-json/ph", "MIT", {
        Bug.QUEEN: "butterfly", Bug.BEETLE: "bug-beetle", Bug.GRASSHOPPER: "leaf", Bug.SPIDER: "snowflake",
        Bug.ANT: "paw-print", Bug.MOSQUITO: "feather", Bug.LADYBUG: "flower", Bug.PILLBUG: "spiral",
    }, PH_POOL, True, ("", "-bold", "-fill")),
    IconSet("mdi", "@iconify-json/mdi", "Apache 2.0", {
        Bug.QUEEN: "bee", Bug.BEETLE: "bug", Bug.GRASSHOPPER: "rabbit", Bug.SPIDER: "spider",
        Bug.ANT: "turtle", Bug.MOSQUITO: "butterfly", Bug.LADYBUG: "ladybug", Bug.PILLBUG: "snail",
    }, MDI_POOL, True),
)}


@dataclass(frozen=True)
class PoolSet:
    """An icon set used only to train: its icons stand in for the creatures of made-up sets, so the
    creature network meets many more sets than there are styles. ``look_of`` is the icon style
    whose looks (faces, ink, glyph size) its tiles are drawn in."""

    name: str
    package: str
    licence: str
    look_of: str


POOL_SETS: dict[str, PoolSet] = {s.name: s for s in (
    PoolSet("emojione", "@iconify-json/emojione", "CC BY 4.0", "twemoji"),
    PoolSet("fxemoji", "@iconify-json/fxemoji", "Apache 2.0", "twemoji"),
    PoolSet("streamline-emojis", "@iconify-json/streamline-emojis", "CC BY 4.0", "twemoji"),
    PoolSet("emojione-monotone", "@iconify-json/emojione-monotone", "CC BY 4.0", "ph"),
    PoolSet("tabler", "@iconify-json/tabler", "MIT", "ph"),
    PoolSet("icon-park-outline", "@iconify-json/icon-park-outline", "Apache 2.0", "ph"),
)}


def icon_png(set_name: str, icon: str) -> Path:
    """Where ``benchmarks/fetch_art.py`` puts one rasterised icon."""
    return ART_DIR / set_name / f"{icon}.png"


def creature_png(set_name: str, bug: Bug, weight: str = "") -> Path:
    """The rasterised icon that stands for ``bug`` in a set (in one of the set's weights)."""
    return icon_png(set_name, ICON_SETS[set_name].creatures[bug] + weight)


def icon_pool(set_name: str) -> list[str]:
    """Cached PNG paths of up to ``POOL_SIZE`` non-creature icons of a set (regular weight), for
    training; a pool set's are all the icons ``benchmarks/fetch_art.py`` drew of it."""
    if set_name in POOL_SETS:
        return [str(p) for p in sorted((ART_DIR / set_name).glob("*.png"))][:POOL_SIZE]
    icon_set = ICON_SETS[set_name]
    creature_icons = set(icon_set.creatures.values())
    paths = [icon_png(set_name, n) for n in icon_set.pool_candidates if n not in creature_icons]
    return [str(p) for p in paths if p.exists()][:POOL_SIZE]


def made_up_set(rng: np.random.Generator, sources: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A set that no style draws: eight random icons of one of ``sources`` (icon styles or pool
    sets) as its creatures, in ``Bug`` order, and the icon style whose look draws it."""
    pools = {name: pool for name in sources if len(pool := icon_pool(name)) >= len(Bug)}
    if not pools:
        raise ValueError(f"no icon art for made-up sets from {', '.join(sources)}; run {FETCH_SCRIPT}")
    name = sorted(pools)[int(rng.integers(len(pools)))]
    icons = tuple(str(p) for p in rng.choice(pools[name], len(Bug), replace=False))
    return (POOL_SETS[name].look_of if name in POOL_SETS else name), icons
