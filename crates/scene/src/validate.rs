//! Validation: the raw TOML structure into a [`Scene`], each value checked against the bounds
//! the world's setters share (`collide_world::limits::Bound`), each problem a [`SceneError`]
//! naming the line and the field.

use std::fmt::Display;
use std::ops::Range;

use collide_world::{Aabb, Real, Surface, Vec2};
use toml::Spanned;

use crate::errors::SceneError;
use crate::level::{parse_level, parse_rows};
use crate::locate::*;
use crate::random_grid::random_grid;
use crate::raw::*;
use collide_world::limits::{
    MAX_BALLS, MAX_EVENTS_PER_BODY, MAX_GRID_CELLS, MAX_GRID_SIDE, MAX_RECTS,
};
use collide_world::Filter;
use collide_world::LevelError;
use collide_world::ShapeDesc;
use collide_world::{BallDesc, GridDesc, RectDesc, RectKind, Scene, SpawnDesc, StepConfig, Walls};

// What a number must satisfy: the bounds shared with the world's setters
// (`collide_world::limits::Bound`).
use collide_world::limits::Bound as Rule;
use collide_world::FlipperDesc;

/// Offset → line, counted on demand (only errors and a few keys need a line): no table of
/// line starts, whose 8 bytes per line would be 8 times the size of a text of empty lines.
pub(super) struct LineIndex<'a> {
    pub(super) text: &'a str,
}

impl<'a> LineIndex<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Self { text }
    }

    /// 1-based line of a byte offset.
    pub(super) fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        1 + self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    }

    /// Byte offset of the start of the line holding `offset`.
    pub(super) fn line_start(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    }
}

/// Everything needed to turn a problem into a [`SceneError`].
pub(super) struct Ctx<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
    /// The text parsed again to name the field of an error: `text` itself, or a copy with the
    /// same offsets whose bodies and blank runs are collapsed (`pieces.rs`).
    pub(super) tree_text: &'a str,
    pub(super) lines: LineIndex<'a>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(file: &'a str, text: &'a str) -> Self {
        Self {
            file,
            text,
            tree_text: text,
            lines: LineIndex::new(text),
        }
    }

    pub(super) fn line(&self, span: &Range<usize>) -> usize {
        self.lines.line(span.start)
    }

    pub(super) fn err(
        &self,
        span: &Range<usize>,
        field: &str,
        message: impl Display,
    ) -> SceneError {
        SceneError::Field {
            file: self.file.to_owned(),
            line: self.line(span),
            field: field.to_owned(),
            message: message.to_string(),
        }
    }

    pub(super) fn syntax_error(&self, e: &toml::de::Error) -> SceneError {
        let offset = e.span().map_or(0, |s| s.start).min(self.text.len());
        let line = self.lines.line(offset);
        let line_start = self.lines.line_start(offset);
        let column = self
            .text
            .get(line_start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        SceneError::Syntax {
            file: self.file.to_owned(),
            line,
            column,
            field: field_at_line(self.text, line),
            message: e.message().to_owned(),
        }
    }

    pub(super) fn schema_error(&self, e: &toml::de::Error) -> SceneError {
        let span = e.span().unwrap_or(0..0);
        let missing = backquoted_after(e.message(), "missing field `");
        // A missing field's span is its table's (the header, or the inline table): only an
        // exact match names the table; none means the root (span 0..0).
        let mut field = locate(self.tree_text, &span, missing.is_some());
        if let Some(missing) = missing {
            if !field.is_empty() {
                field.push('.');
            }
            field.push_str(missing);
        }
        if field.is_empty() {
            field.push_str("(document)");
        }
        SceneError::Field {
            file: self.file.to_owned(),
            line: self.line(&span),
            field,
            message: e.message().to_owned(),
        }
    }

    pub(super) fn num(&self, v: &S<f64>, field: &str, rule: Rule) -> Result<f64, SceneError> {
        let x = *v.get_ref();
        rule.check(x)
            .map_err(|e| self.err(&v.span(), field, e.to_string()))
    }

    pub(super) fn opt_num(
        &self,
        v: &Option<S<f64>>,
        field: &str,
        rule: Rule,
        default: f64,
    ) -> Result<f64, SceneError> {
        v.as_ref().map_or(Ok(default), |v| self.num(v, field, rule))
    }

    /// An array of exactly `N` numbers, each satisfying `rule`.
    pub(super) fn array<const N: usize>(
        &self,
        v: &S<Vec<f64>>,
        field: &str,
        rule: Rule,
        what: &str,
    ) -> Result<[f64; N], SceneError> {
        let items = v.get_ref();
        if items.len() != N {
            return Err(self.err(
                &v.span(),
                field,
                format!(
                    "expected an array of {N} numbers {what}, found {} numbers",
                    items.len()
                ),
            ));
        }
        let mut out = [0.0; N];
        for (i, (&x, o)) in items.iter().zip(out.iter_mut()).enumerate() {
            if let Err(e) = rule.check(x) {
                return Err(self.err(&v.span(), field, format!("element {i} of {what}: {e}")));
            }
            *o = x;
        }
        Ok(out)
    }

    pub(super) fn vec2(
        &self,
        v: &S<Vec<f64>>,
        field: &str,
        rule: Rule,
    ) -> Result<Vec2, SceneError> {
        let [x, y] = self.array::<2>(v, field, rule, "[x, y]")?;
        Ok(Vec2::new(x, y))
    }

    /// A body's or cell kind's own restitution ([`Rule::Restitution`]), if given.
    pub(super) fn opt_restitution(
        &self,
        v: &Option<S<f64>>,
        field: &str,
    ) -> Result<Option<f64>, SceneError> {
        v.as_ref()
            .map(|v| self.num(v, field, Rule::Restitution))
            .transpose()
    }

    /// A set of layers (`layers` or `mask`, see [`collide_world::Filter`]), or `default`.
    pub(super) fn bits(
        &self,
        v: Option<&S<RawBits>>,
        field: &str,
        default: u32,
    ) -> Result<u32, SceneError> {
        let Some(v) = v else { return Ok(default) };
        match v.get_ref() {
            RawBits::Int(n) => u32::try_from(*n).map_err(|_| {
                self.err(
                    &v.span(),
                    field,
                    format!(
                        "expected an integer from 0 to {} (32 bits), found {n}",
                        u32::MAX
                    ),
                )
            }),
            RawBits::Bits(list) => list.iter().try_fold(0u32, |acc, &k| {
                if (0..32).contains(&k) {
                    Ok(acc | 1 << k)
                } else {
                    Err(self.err(
                        &v.span(),
                        field,
                        format!("expected bit indices from 0 to 31, found {k}"),
                    ))
                }
            }),
        }
    }

    /// A body's or cell kind's filter from its `layers` and `mask` keys (`prefix` names
    /// them: `ball[3].`, `grid.wall_`).
    pub(super) fn filter(
        &self,
        layers: Option<&S<RawBits>>,
        mask: Option<&S<RawBits>>,
        prefix: &str,
    ) -> Result<Filter, SceneError> {
        let d = Filter::DEFAULT;
        Ok(Filter {
            layers: self.bits(layers, &format!("{prefix}layers"), d.layers)?,
            mask: self.bits(mask, &format!("{prefix}mask"), d.mask)?,
        })
    }

    pub(super) fn opt_vec2(
        &self,
        v: &Option<S<Vec<f64>>>,
        field: &str,
    ) -> Result<Vec2, SceneError> {
        v.as_ref()
            .map_or(Ok(Vec2::ZERO), |v| self.vec2(v, field, Rule::Coord))
    }

    pub(super) fn build(
        &self,
        raw: RawScene,
        resolve_level: &dyn Fn(&str) -> Result<String, std::io::Error>,
    ) -> Result<Scene, SceneError> {
        let shapes = self.shapes(&raw)?;
        let flippers = self.flippers(&raw)?;
        let name = raw
            .name
            .map_or_else(|| file_stem(self.file), Spanned::into_inner);

        let world = raw.world.get_ref();
        let size = self.vec2(&world.size, "world.size", Rule::Positive)?;
        let walls = match &world.walls {
            None => Walls::ALL,
            Some(list) => self.walls(list.get_ref())?,
        };

        let grid = match &raw.grid {
            None => None,
            Some(g) => Some(self.grid(g, resolve_level)?),
        };

        if let Some(b) = raw.ball.get(MAX_BALLS) {
            return Err(self.err(
                &b.span(),
                &format!("ball[{MAX_BALLS}]"),
                format!("too many balls: at most {MAX_BALLS} are allowed"),
            ));
        }
        let balls = raw
            .ball
            .iter()
            .enumerate()
            .map(|(i, b)| self.ball(b.get_ref(), i))
            .collect::<Result<Vec<_>, _>>()?;

        if let Some(r) = raw.rect.get(MAX_RECTS) {
            return Err(self.err(
                &r.span(),
                &format!("rect[{MAX_RECTS}]"),
                format!("too many rects: at most {MAX_RECTS} are allowed"),
            ));
        }
        let rects = raw
            .rect
            .iter()
            .enumerate()
            .map(|(i, r)| self.rect(r.get_ref(), i))
            .collect::<Result<Vec<_>, _>>()?;

        let spawn = match &raw.spawn {
            None => None,
            Some(s) => Some(self.spawn(s.get_ref(), balls.len())?),
        };

        let step = match &raw.step {
            None => StepConfig::default(),
            Some(s) => self.step(s.get_ref())?,
        };

        Ok(Scene {
            name,
            size,
            walls,
            grid,
            balls,
            rects,
            shapes,
            flippers,
            spawn,
            step,
        })
    }

    /// The `[[flipper]]` tables: angles in degrees, angular speed in degrees per second
    /// (converted to radians for [`FlipperDesc`]).
    pub(super) fn flippers(&self, raw: &RawScene) -> Result<Vec<FlipperDesc>, SceneError> {
        use collide_world::limits::{MAX_FLIPPERS, MAX_FLIPPER_ANGLE, MAX_FLIPPER_ANGULAR_SPEED};
        if let Some(fl) = raw.flipper.get(MAX_FLIPPERS) {
            return Err(self.err(
                &fl.span(),
                &format!("flipper[{MAX_FLIPPERS}]"),
                format!("too many flippers: at most {MAX_FLIPPERS} are allowed"),
            ));
        }
        let mut out = Vec::with_capacity(raw.flipper.len());
        for (i, fl) in raw.flipper.iter().enumerate() {
            let f = |k: &str| format!("flipper[{i}].{k}");
            let r = fl.get_ref();
            let max_deg = MAX_FLIPPER_ANGLE.to_degrees();
            let angle = |v: &S<f64>, field: &str| {
                let x = *v.get_ref();
                if x.abs() <= max_deg {
                    Ok(x.to_radians().clamp(-MAX_FLIPPER_ANGLE, MAX_FLIPPER_ANGLE))
                } else {
                    Err(self.err(
                        &v.span(),
                        field,
                        format!("expected an angle between -720 and 720 degrees, found {x:?}"),
                    ))
                }
            };
            let speed = *r.angular_speed.get_ref();
            // 10⁴ rad/s is 572 957.8 degrees/s: the documented whole number, 572 958, is
            // accepted (and clamped back to 10⁴ rad/s below).
            let max_speed = MAX_FLIPPER_ANGULAR_SPEED.to_degrees().ceil();
            if !(speed > 0.0 && speed <= max_speed) {
                return Err(self.err(
                    &r.angular_speed.span(),
                    &f("angular_speed"),
                    format!(
                        "expected a number > 0 (and <= {max_speed:.0}) degrees per second, found {speed:?}"
                    ),
                ));
            }
            out.push(FlipperDesc {
                pivot: self.vec2(&r.pivot, &f("pivot"), Rule::Coord)?,
                length: self.num(&r.length, &f("length"), Rule::Positive)?,
                radius: self.num(&r.radius, &f("radius"), Rule::NonNeg)?,
                rest_angle: angle(&r.rest_angle, &f("rest_angle"))?,
                active_angle: angle(&r.active_angle, &f("active_angle"))?,
                // Never above the bound: a rounding up is clamped back.
                angular_speed: speed.to_radians().min(MAX_FLIPPER_ANGULAR_SPEED),
                surface: Surface {
                    restitution: self.opt_restitution(&r.restitution, &f("restitution"))?,
                    filter: self.filter(r.layers.as_ref(), r.mask.as_ref(), &f(""))?,
                    ..Surface::DEFAULT
                },
            });
        }
        Ok(out)
    }

    /// The `[[segment]]`, `[[polyline]]`, `[[circle]]` and `[[polygon]]` tables, in that order
    /// (a polyline's segments in its order, no obstacle at its straight joints; no obstacle at
    /// a polygon's vertex where another polygon of the same layers and mask continues an edge
    /// flat, [`crate::polygon_corners`]).
    pub(super) fn shapes(&self, raw: &RawScene) -> Result<Vec<ShapeDesc>, SceneError> {
        use collide_world::polyline_segments;
        use collide_world::ShapeKind;
        let mut out = Vec::new();
        let room = |out: &Vec<ShapeDesc>, span: &Range<usize>, field: &str| {
            if out.len() >= collide_world::limits::MAX_SHAPES {
                Err(self.err(
                    span,
                    field,
                    format!(
                        "too many shapes: at most {} are allowed",
                        collide_world::limits::MAX_SHAPES
                    ),
                ))
            } else {
                Ok(())
            }
        };
        for (i, sg) in raw.segment.iter().enumerate() {
            let f = |k: &str| format!("segment[{i}].{k}");
            room(&out, &sg.span(), &f("a"))?;
            let r = sg.get_ref();
            let (a, b) = (
                self.vec2(&r.a, &f("a"), Rule::Coord)?,
                self.vec2(&r.b, &f("b"), Rule::Coord)?,
            );
            out.push(ShapeDesc {
                surface: Surface {
                    restitution: self.opt_restitution(&r.restitution, &f("restitution"))?,
                    filter: self.filter(r.layers.as_ref(), r.mask.as_ref(), &f(""))?,
                    one_way: flag(&r.one_way),
                    ..Surface::DEFAULT
                },
                ..ShapeDesc::segment(a, b)
            });
        }
        for (i, pl) in raw.polyline.iter().enumerate() {
            let f = |k: &str| format!("polyline[{i}].{k}");
            let r = pl.get_ref();
            let pts = r.points.get_ref();
            if pts.len() < 2 {
                return Err(self.err(
                    &r.points.span(),
                    &f("points"),
                    "a polyline needs at least two points".to_string(),
                ));
            }
            let mut points = Vec::with_capacity(pts.len());
            for (k, p) in pts.iter().enumerate() {
                points.push(self.vec2(p, &f(&format!("points[{k}]")), Rule::Coord)?);
            }
            let closed = r.closed.as_ref().is_some_and(|c| *c.get_ref());
            let restitution = self.opt_restitution(&r.restitution, &f("restitution"))?;
            let filter = self.filter(r.layers.as_ref(), r.mask.as_ref(), &f(""))?;
            let one_way = flag(&r.one_way);
            for (segment, ends) in polyline_segments(&points, closed) {
                room(&out, &pl.span(), &f("points"))?;
                out.push(ShapeDesc {
                    kind: ShapeKind::Segment { segment, ends },
                    surface: Surface {
                        restitution,
                        filter,
                        sensor: false,
                        one_way,
                    },
                });
            }
        }
        for (i, c) in raw.circle.iter().enumerate() {
            let f = |k: &str| format!("circle[{i}].{k}");
            room(&out, &c.span(), &f("center"))?;
            let r = c.get_ref();
            if let (Some(o), true) = (&r.one_way, flag(&r.sensor)) {
                if *o.get_ref() {
                    return Err(self.err(
                        &o.span(),
                        &f("one_way"),
                        "a sensor cannot be a one-way platform",
                    ));
                }
            }
            out.push(ShapeDesc {
                surface: Surface {
                    restitution: self.opt_restitution(&r.restitution, &f("restitution"))?,
                    filter: self.filter(r.layers.as_ref(), r.mask.as_ref(), &f(""))?,
                    sensor: flag(&r.sensor),
                    one_way: flag(&r.one_way),
                },
                ..ShapeDesc::circle(
                    self.vec2(&r.center, &f("center"), Rule::Coord)?,
                    self.num(&r.radius, &f("radius"), Rule::Positive)?,
                )
            });
        }
        self.polygons(raw, &mut out, room)?;
        Ok(out)
    }

    /// The `[[polygon]]` tables, appended to `out` (`room` checks the count), each group of
    /// equal filters laid edge to edge ([`crate::polygon_corners`]).
    fn polygons(
        &self,
        raw: &RawScene,
        out: &mut Vec<ShapeDesc>,
        room: impl Fn(&Vec<ShapeDesc>, &Range<usize>, &str) -> Result<(), SceneError>,
    ) -> Result<(), SceneError> {
        use collide_world::{polygon_corners, ConvexPolygon, PolygonCorners, ShapeKind};
        let first = out.len();
        for (i, pg) in raw.polygon.iter().enumerate() {
            let f = |k: &str| format!("polygon[{i}].{k}");
            room(out, &pg.span(), &f("points"))?;
            let r = pg.get_ref();
            let mut points = Vec::with_capacity(r.points.get_ref().len());
            for (k, p) in r.points.get_ref().iter().enumerate() {
                points.push(self.vec2(p, &f(&format!("points[{k}]")), Rule::Coord)?);
            }
            let polygon = ConvexPolygon::new(&points)
                .map_err(|e| self.err(&r.points.span(), &f("points"), e))?;
            let desc = ShapeDesc::chain_polygon(polygon, PolygonCorners::ALL);
            out.push(ShapeDesc {
                surface: Surface {
                    restitution: self.opt_restitution(&r.restitution, &f("restitution"))?,
                    filter: self.filter(r.layers.as_ref(), r.mask.as_ref(), &f(""))?,
                    one_way: flag(&r.one_way),
                    ..Surface::DEFAULT
                },
                ..desc
            });
        }
        let added = &mut out[first..];
        let polys: Vec<_> = added.iter().filter_map(|d| d.kind.polygon()).collect();
        let mut groups: Vec<Filter> = added.iter().map(|d| d.surface.filter).collect();
        groups.sort_by_key(|f| (f.layers, f.mask));
        groups.dedup();
        for filter in groups {
            let idx: Vec<usize> = (0..added.len())
                .filter(|&k| added[k].surface.filter == filter)
                .collect();
            let group: Vec<_> = idx.iter().map(|&k| polys[k]).collect();
            for (&k, corners) in idx.iter().zip(polygon_corners(&group)) {
                added[k] = ShapeDesc {
                    kind: ShapeKind::Polygon {
                        polygon: polys[k],
                        corners,
                    },
                    ..added[k]
                };
            }
        }
        Ok(())
    }

    pub(super) fn walls(&self, list: &[S<String>]) -> Result<Walls, SceneError> {
        let mut walls = Walls::NONE;
        for (i, side) in list.iter().enumerate() {
            let field = format!("world.walls[{i}]");
            let slot = match side.get_ref().as_str() {
                "left" => &mut walls.left,
                "top" => &mut walls.top,
                "right" => &mut walls.right,
                "bottom" => &mut walls.bottom,
                other => {
                    return Err(self.err(
                        &side.span(),
                        &field,
                        format!(
                            "unknown wall side `{other}`; expected \"left\", \"top\", \"right\" \
                             or \"bottom\""
                        ),
                    ))
                }
            };
            if *slot {
                return Err(self.err(
                    &side.span(),
                    &field,
                    format!("wall side `{}` is listed twice", side.get_ref()),
                ));
            }
            *slot = true;
        }
        Ok(walls)
    }

    pub(super) fn grid(
        &self,
        g: &S<RawGrid>,
        resolve_level: &dyn Fn(&str) -> Result<String, std::io::Error>,
    ) -> Result<GridDesc, SceneError> {
        let raw = g.get_ref();
        let cell = self.num(&raw.cell, "grid.cell", Rule::Positive)?;
        let wall_restitution =
            self.opt_restitution(&raw.wall_restitution, "grid.wall_restitution")?;
        let brick_restitution =
            self.opt_restitution(&raw.brick_restitution, "grid.brick_restitution")?;
        let wall_filter = self.filter(
            raw.wall_layers.as_ref(),
            raw.wall_mask.as_ref(),
            "grid.wall_",
        )?;
        let brick_filter = self.filter(
            raw.brick_layers.as_ref(),
            raw.brick_mask.as_ref(),
            "grid.brick_",
        )?;
        let sensor_filter = self.filter(
            raw.sensor_layers.as_ref(),
            raw.sensor_mask.as_ref(),
            "grid.sensor_",
        )?;
        let origin = match &raw.origin {
            None => Vec2::ZERO,
            Some(o) => self.vec2(o, "grid.origin", Rule::Coord)?,
        };

        // Exactly one source of cells.
        let mut sources: Vec<(&str, Range<usize>)> = Vec::new();
        if let Some(r) = &raw.rows {
            sources.push(("grid.rows", r.span()));
        }
        if let Some(l) = &raw.level {
            sources.push(("grid.level", l.span()));
        }
        if let Some(r) = &raw.random {
            sources.push(("grid.random", r.span()));
        }
        match sources.as_slice() {
            [] => {
                return Err(self.err(
                    &g.span(),
                    "grid",
                    "a grid needs its cells: one of `rows = [...]`, `level = \"file.dat\"` or a \
                     [grid.random] table",
                ))
            }
            [_] => {}
            [(first, _), (second, span), ..] => {
                return Err(self.err(
                    span,
                    second,
                    format!("`{first}` and `{second}` both give the grid's cells; keep only one"),
                ))
            }
        }

        let grid = if let Some(rows) = &raw.rows {
            let list = rows.get_ref();
            parse_rows(list.iter().map(|r| r.get_ref().as_str())).map_err(|source| {
                // The level's "line" is the 1-based index of the row.
                let (line, field) = match list.get(source.line().saturating_sub(1)) {
                    Some(r) if !matches!(source, LevelError::Empty) => (
                        self.line(&r.span()),
                        format!("grid.rows[{}]", source.line() - 1),
                    ),
                    _ => (self.line(&rows.span()), "grid.rows".to_owned()),
                };
                SceneError::Level {
                    file: self.file.to_owned(),
                    line,
                    field,
                    path: "grid.rows".to_owned(),
                    source,
                }
            })?
        } else if let Some(level) = &raw.level {
            let path = level.get_ref();
            let line = self.line(&level.span());
            let text = resolve_level(path).map_err(|source| SceneError::LevelIo {
                file: self.file.to_owned(),
                line,
                field: "grid.level".to_owned(),
                path: path.clone(),
                source,
            })?;
            parse_level(&text).map_err(|source| SceneError::Level {
                file: self.file.to_owned(),
                line,
                field: "grid.level".to_owned(),
                path: path.clone(),
                source,
            })?
        } else if let Some(random) = &raw.random {
            self.random(random.get_ref(), cell, origin)?
        } else {
            // Unreachable: exactly one source was checked above. Report it rather than panic.
            return Err(self.err(&g.span(), "grid", "a grid needs its cells"));
        };
        Ok(GridDesc {
            cell,
            origin,
            wall_restitution,
            brick_restitution,
            wall_filter,
            brick_filter,
            sensor_filter,
            ..grid
        })
    }

    pub(super) fn random(
        &self,
        r: &RawRandom,
        cell: Real,
        origin: Vec2,
    ) -> Result<GridDesc, SceneError> {
        let cols = *r.cols.get_ref();
        let rows = *r.rows.get_ref();
        for (v, field) in [(&r.cols, "grid.random.cols"), (&r.rows, "grid.random.rows")] {
            let n = *v.get_ref();
            if n == 0 || n > MAX_GRID_SIDE {
                return Err(self.err(
                    &v.span(),
                    field,
                    format!("expected 1 to {MAX_GRID_SIDE} cells, found {n}"),
                ));
            }
        }
        let fits = matches!(cols.checked_mul(rows), Some(n) if n <= MAX_GRID_CELLS);
        if !fits {
            return Err(self.err(
                &r.rows.span(),
                "grid.random.rows",
                format!(
                    "the grid would have {cols} x {rows} cells, more than the limit of \
                     {MAX_GRID_CELLS}"
                ),
            ));
        }
        let fill = self.num(&r.fill, "grid.random.fill", Rule::Unit)?;
        let seed = r.seed.as_ref().map_or(1, |s| *s.get_ref());
        random_grid(cols, rows, fill, seed, cell, origin).ok_or_else(|| {
            self.err(
                &r.rows.span(),
                "grid.random",
                "the grid is larger than the limits",
            )
        })
    }

    pub(super) fn ball(&self, b: &RawBall, i: usize) -> Result<BallDesc, SceneError> {
        let f = |k: &str| format!("ball[{i}].{k}");
        Ok(BallDesc {
            pos: self.vec2(&b.pos, &f("pos"), Rule::Coord)?,
            vel: self.opt_vec2(&b.vel, &f("vel"))?,
            radius: self.num(&b.radius, &f("radius"), Rule::NonNeg)?,
            density: self.opt_num(&b.density, &f("density"), Rule::NonNeg, 1.0)?,
            surface: Surface {
                restitution: self.opt_restitution(&b.restitution, &f("restitution"))?,
                filter: self.filter(b.layers.as_deref(), b.mask.as_deref(), &f(""))?,
                ..Surface::DEFAULT
            },
            gravity_scale: self.opt_num(
                &b.gravity_scale,
                &f("gravity_scale"),
                Rule::GravityScale,
                1.0,
            )?,
        })
    }

    pub(super) fn rect(&self, r: &RawRect, i: usize) -> Result<RectDesc, SceneError> {
        let f = |k: &str| format!("rect[{i}].{k}");
        let min = self.vec2(&r.min, &f("min"), Rule::Coord)?;
        let max = self.vec2(&r.max, &f("max"), Rule::Coord)?;
        if min.x > max.x || min.y > max.y {
            return Err(self.err(
                &r.max.span(),
                &f("max"),
                format!(
                    "min [{}, {}] must not be greater than max [{}, {}] (min is the top-left \
                     corner, max the bottom-right; y grows down)",
                    min.x, min.y, max.x, max.y
                ),
            ));
        }
        // A "sensor" moves with its velocity as a kinematic rectangle does.
        let (kind, sensor) = match &r.kind {
            None => (RectKind::Static, false),
            Some(k) => match k.get_ref().as_str() {
                "static" => (RectKind::Static, false),
                "kinematic" => (RectKind::Kinematic, false),
                "dynamic" => (RectKind::Dynamic, false),
                "sensor" => (RectKind::Kinematic, true),
                other => {
                    return Err(self.err(
                        &k.span(),
                        &f("kind"),
                        format!(
                            "unknown rect kind `{other}`; expected \"static\", \"kinematic\", \
                             \"dynamic\" or \"sensor\""
                        ),
                    ))
                }
            },
        };
        let one_way = r.one_way.as_deref().is_some_and(|o| *o.get_ref());
        if let (Some(o), true) = (&r.one_way, one_way) {
            if sensor || kind == RectKind::Dynamic {
                return Err(self.err(
                    &o.span(),
                    &f("one_way"),
                    "only a static or kinematic rect can be a one-way platform",
                ));
            }
        }
        let vel = self.opt_vec2(&r.vel, &f("vel"))?;
        if kind == RectKind::Static && vel != Vec2::ZERO {
            if let Some(v) = &r.vel {
                return Err(self.err(
                    &v.span(),
                    &f("vel"),
                    "a static rect cannot move; give it kind = \"kinematic\" or \"dynamic\"",
                ));
            }
        }
        Ok(RectDesc {
            aabb: Aabb::new(min, max),
            vel,
            kind,
            density: self.opt_num(&r.density, &f("density"), Rule::NonNeg, 1.0)?,
            surface: Surface {
                restitution: self.opt_restitution(&r.restitution, &f("restitution"))?,
                filter: self.filter(r.layers.as_deref(), r.mask.as_deref(), &f(""))?,
                sensor,
                one_way,
            },
        })
    }

    pub(super) fn spawn(
        &self,
        s: &RawSpawn,
        explicit_balls: usize,
    ) -> Result<SpawnDesc, SceneError> {
        let count = *s.count.get_ref();
        let room = MAX_BALLS.saturating_sub(explicit_balls);
        if count > room {
            return Err(self.err(
                &s.count.span(),
                "spawn.count",
                format!(
                    "too many balls: {count} spawned + {explicit_balls} explicit, at most \
                     {MAX_BALLS} are allowed"
                ),
            ));
        }
        let region = match &s.region {
            None => None,
            Some(r) => {
                let [x0, y0, x1, y1] =
                    self.array::<4>(r, "spawn.region", Rule::Coord, "[x0, y0, x1, y1]")?;
                if x0 > x1 || y0 > y1 {
                    return Err(self.err(
                        &r.span(),
                        "spawn.region",
                        format!("[x0, y0, x1, y1] needs x0 <= x1 and y0 <= y1, found [{x0}, {y0}, {x1}, {y1}]"),
                    ));
                }
                Some(Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1)))
            }
        };
        Ok(SpawnDesc {
            count,
            radius: self.num(&s.radius, "spawn.radius", Rule::NonNeg)?,
            speed: self.num(&s.speed, "spawn.speed", Rule::NonNeg)?,
            density: self.opt_num(&s.density, "spawn.density", Rule::NonNeg, 1.0)?,
            seed: s.seed.as_ref().map_or(1, |v| *v.get_ref()),
            region,
            surface: Surface {
                restitution: self.opt_restitution(&s.restitution, "spawn.restitution")?,
                filter: self.filter(s.layers.as_ref(), s.mask.as_ref(), "spawn.")?,
                ..Surface::DEFAULT
            },
        })
    }

    pub(super) fn step(&self, s: &RawStep) -> Result<StepConfig, SceneError> {
        let d = StepConfig::default();
        let max_events_per_body = match &s.max_events_per_body {
            None => d.max_events_per_body,
            Some(v) => {
                let n = *v.get_ref();
                if n == 0 || n > MAX_EVENTS_PER_BODY {
                    return Err(self.err(
                        &v.span(),
                        "step.max_events_per_body",
                        format!("expected 1 to {MAX_EVENTS_PER_BODY}, found {n}"),
                    ));
                }
                n
            }
        };
        Ok(StepConfig {
            dt: self.opt_num(&s.dt, "step.dt", Rule::Positive, d.dt)?,
            ball_ball: s.ball_ball.as_ref().map_or(d.ball_ball, |v| *v.get_ref()),
            restitution: self.opt_num(
                &s.restitution,
                "step.restitution",
                Rule::Unit,
                d.restitution,
            )?,
            destructible_bricks: s
                .destructible_bricks
                .as_ref()
                .map_or(d.destructible_bricks, |v| *v.get_ref()),
            max_events_per_body,
            gravity: self.opt_vec2(&s.gravity, "step.gravity")?,
            sleep: s.sleep.as_ref().map_or(d.sleep, |v| *v.get_ref()),
        })
    }
}

/// A boolean field's value, `false` when absent.
fn flag(v: &Option<S<bool>>) -> bool {
    v.as_ref().is_some_and(|b| *b.get_ref())
}
