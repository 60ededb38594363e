#pragma once
// Plain geometry in points (1/72 inch), y pointing down as on a screen.
#include <vector>

namespace exportlens::layout {

struct Point {
  double x = 0;
  double y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

struct Size {
  double width = 0;
  double height = 0;
  friend bool operator==(const Size&, const Size&) = default;
};

struct Rect {
  double x = 0;  // left
  double y = 0;  // top
  double width = 0;
  double height = 0;

  double right() const { return x + width; }
  double bottom() const { return y + height; }
  Point centre() const { return {x + width / 2, y + height / 2}; }
  /// True when p lies inside or on the border, allowing `slack` points.
  bool contains(Point p, double slack = 0) const {
    return p.x >= x - slack && p.x <= right() + slack && p.y >= y - slack && p.y <= bottom() + slack;
  }
  bool contains(const Rect& r, double slack = 0) const {
    return r.x >= x - slack && r.right() <= right() + slack && r.y >= y - slack &&
           r.bottom() <= bottom() + slack;
  }
  /// True when the interiors overlap (touching borders do not count).
  bool intersects(const Rect& r) const {
    return x < r.right() && r.x < right() && y < r.bottom() && r.y < bottom();
  }
  static Rect around(Point centre, Size size) {
    return {centre.x - size.width / 2, centre.y - size.height / 2, size.width, size.height};
  }
};

}  // namespace exportlens::layout
