"""Make the fonts the printable sheets embed: DejaVu Sans and DejaVu Sans Bold cut down to Latin text.

Run once, with the matplotlib that ships DejaVu Sans (``pip install matplotlib``); the result is
committed in ``src/canasta/sheets/fonts/`` (about 45 KB a style, against 700 KB for the whole
fonts), so ``canasta[sheets]`` needs nothing but fpdf2.  The fonts are renamed "DejaVu Sans
Canasta", as the Bitstream Vera licence asks of modified copies (see ``fonts/LICENSE``).

    python scripts/subset-sheet-fonts.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
TARGET = Path(__file__).resolve().parents[1] / "src" / "canasta" / "sheets" / "fonts"
UNICODES = ("U+0020-007E,U+00A0-00FF,U+0152-0153,U+0160-0161,U+0178,U+017D-017E,U+0192,U+02C6,U+02DC,"
            "U+2010-2027,U+2030,U+2039-203A,U+20AC,U+2122,U+2190-2193,U+2212,U+2264-2265,U+2660-2667")
"""Basic Latin, Latin-1, the rest of Windows-1252, dashes, bullets and quotes, arrows, <= >=, card suits."""
FAMILY = "DejaVu Sans Canasta"


def main() -> None:
    for source, style in (("DejaVuSans.ttf", "Book"), ("DejaVuSans-Bold.ttf", "Bold")):
        options = subset.Options()
        options.layout_features = ["kern"]
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        font = TTFont(SOURCE / source)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
        subsetter.subset(font)
        postscript = f"{FAMILY.replace(' ', '')}-{style}"
        for record in font["name"].names:
            if record.nameID in (1, 16):
                record.string = FAMILY
            elif record.nameID in (3, 4):
                record.string = f"{FAMILY} {style}" if style != "Book" else FAMILY
            elif record.nameID == 6:
                record.string = postscript
        out = TARGET / source.replace("DejaVuSans", "DejaVuSansCanasta")
        font.save(out)
        print(f"{out}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
