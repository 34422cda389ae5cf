"""Units every layer shares (ARCHITECTURE conventions), defined once."""

DAY_S = 86400.0  # game seconds per day: day d starts at t = DAY_S·d
TILE_PX = 32  # map tile size in px: tile = (int(x) // TILE_PX, int(y) // TILE_PX)
