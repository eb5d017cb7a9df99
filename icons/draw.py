"""Draws Heddle's app icon: a loom heddle (two frame bars, wires, and the eye a warp thread runs through)."""
from PIL import Image, ImageDraw
import sys

out = sys.argv[1]
S = 1024  # draw big, downscale for smooth edges
img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
d = ImageDraw.Draw(img)

# rounded-square tile, deep indigo
d.rounded_rectangle([40, 40, S - 40, S - 40], radius=220, fill=(36, 41, 82, 255))

gold = (242, 190, 84, 255)
wire = (214, 220, 245, 255)
# the heddle frame: top and bottom shafts
d.rounded_rectangle([190, 200, S - 190, 260], radius=30, fill=gold)
d.rounded_rectangle([190, S - 260, S - 190, S - 200], radius=30, fill=gold)
# heddle wires, the centre one carries the eye
xs = [300, 412, 512, 612, 724]
for x in xs:
    if x == 512:
        continue
    d.rounded_rectangle([x - 14, 260, x + 14, S - 260], radius=14, fill=wire)
# centre wire with an eye
cx, cy = 512, S // 2
d.rounded_rectangle([cx - 16, 260, cx + 16, cy - 95], radius=16, fill=wire)
d.rounded_rectangle([cx - 16, cy + 95, cx + 16, S - 260], radius=16, fill=wire)
d.ellipse([cx - 62, cy - 110, cx + 62, cy + 110], outline=wire, width=30)
# the warp thread through the eye, running across the whole tile
thread = (108, 214, 190, 255)
d.line([(120, cy), (S - 120, cy)], fill=thread, width=26)
# re-draw the eye's front arc over the thread so it looks threaded
d.arc([cx - 62, cy - 110, cx + 62, cy + 110], start=300, end=60, fill=wire, width=30)

sizes = {"32x32.png": 32, "128x128.png": 128, "128x128@2x.png": 256, "icon.png": 512}
for name, px in sizes.items():
    img.resize((px, px), Image.LANCZOS).save(f"{out}/{name}")
img.resize((256, 256), Image.LANCZOS).save(
    f"{out}/icon.ico", sizes=[(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)]
)
