"""Camera: which part of the map the town view shows and at what zoom.

Map space is pixels of the unscaled map; screen space is pixels of the view
rectangle. The camera position is the map point at the view's top-left corner.
"""

from __future__ import annotations

ZOOM_LEVELS = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)  # discrete so scaled map chunks can be cached
PAN_SPEED = 600.0  # screen pixels per wall-second for arrow keys / WASD


class Camera:
    def __init__(self, map_w: int, map_h: int, view_w: int, view_h: int, zoom: float = 1.0) -> None:
        self.map_w, self.map_h = map_w, map_h
        self.view_w, self.view_h = view_w, view_h
        self.zoom_index = min(range(len(ZOOM_LEVELS)), key=lambda i: abs(ZOOM_LEVELS[i] - zoom))
        self.x = 0.0
        self.y = 0.0
        self.clamp()

    @property
    def zoom(self) -> float:
        return ZOOM_LEVELS[self.zoom_index]

    def resize(self, view_w: int, view_h: int) -> None:
        cx, cy = self.center()
        self.view_w, self.view_h = view_w, view_h
        self.center_on(cx, cy)

    def to_screen(self, mx: float, my: float) -> tuple[float, float]:
        return (mx - self.x) * self.zoom, (my - self.y) * self.zoom

    def to_map(self, sx: float, sy: float) -> tuple[float, float]:
        return sx / self.zoom + self.x, sy / self.zoom + self.y

    def center(self) -> tuple[float, float]:
        return self.x + self.view_w / self.zoom / 2, self.y + self.view_h / self.zoom / 2

    def center_on(self, mx: float, my: float) -> None:
        self.x = mx - self.view_w / self.zoom / 2
        self.y = my - self.view_h / self.zoom / 2
        self.clamp()

    def pan_screen(self, dx: float, dy: float) -> None:
        """Move the view by screen pixels (a drag of +dx moves the map right, camera left)."""
        self.x -= dx / self.zoom
        self.y -= dy / self.zoom
        self.clamp()

    def zoom_by(self, steps: int, anchor: tuple[float, float] | None = None) -> None:
        """Change zoom by whole levels, keeping the map point under `anchor` (screen) fixed."""
        ax, ay = anchor if anchor is not None else (self.view_w / 2, self.view_h / 2)
        mx, my = self.to_map(ax, ay)
        self.zoom_index = max(0, min(len(ZOOM_LEVELS) - 1, self.zoom_index + steps))
        self.x = mx - ax / self.zoom
        self.y = my - ay / self.zoom
        self.clamp()

    def clamp(self) -> None:
        """Keep the view inside the map; centre the map when it is smaller than the view."""
        vis_w, vis_h = self.view_w / self.zoom, self.view_h / self.zoom
        self.x = (self.map_w - vis_w) / 2 if vis_w >= self.map_w else max(0.0, min(self.x, self.map_w - vis_w))
        self.y = (self.map_h - vis_h) / 2 if vis_h >= self.map_h else max(0.0, min(self.y, self.map_h - vis_h))

    def visible_rect(self) -> tuple[float, float, float, float]:
        """Map-space rectangle (x, y, w, h) the view shows."""
        return self.x, self.y, self.view_w / self.zoom, self.view_h / self.zoom
