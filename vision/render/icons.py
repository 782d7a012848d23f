"""Third-party icon sets used as tile-top art: which icon stands for each creature, and a pool of others.

The icons are not committed: ``benchmarks/fetch_art.py`` installs the sets from npm (Iconify JSON)
and rasterises the icons named here to RGBA PNGs under ``var/art/<set>/<icon>.png``. Emoji sets draw
colourful creatures; ``ph``, ``mdi`` and ``fluent-hc`` are single-colour shapes, like the Carbon edition.
Licences are listed in the README's "Art credits". Noto Emoji is deliberately absent: it is the art of
a held-out test set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


def icon_png(set_name: str, icon: str) -> Path:
    """Where ``benchmarks/fetch_art.py`` puts one rasterised icon."""
    return ART_DIR / set_name / f"{icon}.png"


def creature_png(set_name: str, bug: Bug, weight: str = "") -> Path:
    """The rasterised icon that stands for ``bug`` in a set (in one of the set's weights)."""
    return icon_png(set_name, ICON_SETS[set_name].creatures[bug] + weight)


def icon_pool(set_name: str) -> list[str]:
    """Cached PNG paths of up to ``POOL_SIZE`` non-creature icons of a set (regular weight), for training."""
    icon_set = ICON_SETS[set_name]
    creature_icons = set(icon_set.creatures.values())
    paths = [icon_png(set_name, n) for n in icon_set.pool_candidates if n not in creature_icons]
    return [str(p) for p in paths if p.exists()][:POOL_SIZE]
