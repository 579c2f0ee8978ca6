//! Parsing a TOML scene text ([`from_toml_str`]): whole, or in pieces for large texts.

use serde::Deserialize;
use toml::Spanned;

use collide_world::Scene;

use crate::errors::SceneError;
use crate::limits::MAX_SCENE_BYTES;
use crate::raw::*;
use crate::validate::*;

/// Parses a TOML scene (format: `docs/scene-format.md`).
///
/// # Arguments
/// - `text`: the TOML text (at most [`MAX_SCENE_BYTES`] bytes).
/// - `file`: the file name used in errors; its stem is the scene's name unless the text
///   has a `name` key.
/// - `resolve_level`: maps the path of `grid.level = "..."`, as written, to the level
///   text (a file reader relative to the scene's directory, or a lookup in embedded
///   levels). Texts longer than [`crate::MAX_LEVEL_BYTES`] are refused.
///
/// # Errors
/// A [`SceneError`] naming `file`, the line and the field: TOML syntax, unknown or missing
/// keys, wrong types, out-of-range values, unknown wall sides or rect kinds, limits, an
/// unreadable or invalid level. Never panics.
///
/// ```
/// use collide_world::Vec2;
/// let no_levels = |p: &str| -> Result<String, std::io::Error> {
///     Err(std::io::Error::new(std::io::ErrorKind::NotFound, p.to_owned()))
/// };
/// let s = collide_scene::from_toml_str("[world]\nsize = [64, 48]\n", "box.toml", &no_levels).unwrap();
/// assert_eq!((s.name.as_str(), s.size), ("box", Vec2::new(64.0, 48.0)));
///
/// let e = collide_scene::from_toml_str("[world]\nsize = [64, -48]\n", "box.toml", &no_levels);
/// let e = e.unwrap_err();
/// assert_eq!((e.line(), e.field()), (Some(2), Some("world.size")));
/// ```
pub fn from_toml_str(
    text: &str,
    file: &str,
    resolve_level: &dyn Fn(&str) -> Result<String, std::io::Error>,
) -> Result<Scene, SceneError> {
    let len = text.len() as u64;
    if len > MAX_SCENE_BYTES {
        return Err(SceneError::TooLarge {
            file: file.to_owned(),
            len,
            max: MAX_SCENE_BYTES,
        });
    }
    let ctx = Ctx::new(file, text);
    let raw = if text.len() >= PIECES_FROM {
        match crate::pieces::split(text) {
            Some(pieces) => parse_in_pieces(&ctx, &pieces)?,
            None => parse_whole(&ctx)?,
        }
    } else {
        parse_whole(&ctx)?
    };
    ctx.build(raw, resolve_level)
}

// ---------------------------------------------------------------------------------------------
// Parsing: whole, or in pieces

/// Texts from this size on are parsed in pieces (`pieces.rs`): the `toml` crate's tree
/// costs about 50 bytes per byte of text.
const PIECES_FROM: usize = 256 * 1024;

/// The whole text at once.
fn parse_whole(ctx: &Ctx<'_>) -> Result<RawScene, SceneError> {
    let de = toml::Deserializer::parse(ctx.text).map_err(|e| ctx.syntax_error(&e))?;
    RawScene::deserialize(de).map_err(|e| ctx.schema_error(&e))
}

/// The bodies of one group of `[[ball]]` / `[[rect]]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "[[ball]] and [[rect]] tables")]
struct RawBodies {
    #[serde(default)]
    ball: Vec<S<RawBall>>,
    #[serde(default)]
    rect: Vec<S<RawRect>>,
}

/// `v` with its span moved `by` bytes later.
fn shifted<T>(v: S<T>, by: usize) -> S<T> {
    let span = v.span();
    Spanned::new(span.start + by..span.end + by, v.into_inner())
}

fn shifted_opt<T>(v: Option<S<T>>, by: usize) -> Option<S<T>> {
    v.map(|v| shifted(v, by))
}

/// The main part and each group of bodies parsed alone (`pieces.rs`), the bodies' spans
/// moved to their places in the text: the same raw scene as [`parse_whole`], errors included
/// (an error in a group is reported at its line of the text, its table counted among all).
fn parse_in_pieces(ctx: &Ctx<'_>, pieces: &crate::pieces::Pieces) -> Result<RawScene, SceneError> {
    // Same offsets as the text: spans, lines and fields come out as for the whole text.
    let main_ctx = Ctx {
        tree_text: &pieces.main,
        ..Ctx::new(ctx.file, ctx.text)
    };
    let de = toml::Deserializer::parse(&pieces.main).map_err(|e| main_ctx.syntax_error(&e))?;
    let mut raw = RawScene::deserialize(de).map_err(|e| main_ctx.schema_error(&e))?;
    if !pieces.groups.is_empty() && (!raw.ball.is_empty() || !raw.rect.is_empty()) {
        // Bodies both as tables and inline: the whole parse says what is wrong.
        return parse_whole(ctx);
    }
    let mut lines_before = 0;
    let mut counted_to = 0;
    for g in &pieces.groups {
        let group_text = &ctx.text[g.clone()];
        let Some(collapsed) = crate::pieces::collapse(group_text) else {
            return parse_whole(ctx);
        };
        lines_before += ctx.text.as_bytes()[counted_to..g.start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted_to = g.start;
        let group_ctx = Ctx {
            tree_text: &collapsed,
            ..Ctx::new(ctx.file, group_text)
        };
        let (balls, rects) = (raw.ball.len(), raw.rect.len());
        let placed = |e: SceneError| e.moved(lines_before, balls, rects);
        let de = toml::Deserializer::parse(&collapsed)
            .map_err(|e| placed(group_ctx.syntax_error(&e)))?;
        let bodies = RawBodies::deserialize(de).map_err(|e| placed(group_ctx.schema_error(&e)))?;
        let by = g.start;
        raw.ball.extend(bodies.ball.into_iter().map(|b| {
            let span = b.span();
            let b = b.into_inner();
            Spanned::new(
                span.start + by..span.end + by,
                RawBall {
                    pos: shifted(b.pos, by),
                    vel: shifted_opt(b.vel, by),
                    radius: shifted(b.radius, by),
                    density: shifted_opt(b.density, by),
                    restitution: shifted_opt(b.restitution, by),
                    gravity_scale: shifted_opt(b.gravity_scale, by),
                    layers: b.layers.map(|v| Box::new(shifted(*v, by))),
                    mask: b.mask.map(|v| Box::new(shifted(*v, by))),
                },
            )
        }));
        raw.rect.extend(bodies.rect.into_iter().map(|r| {
            let span = r.span();
            let r = r.into_inner();
            Spanned::new(
                span.start + by..span.end + by,
                RawRect {
                    min: shifted(r.min, by),
                    max: shifted(r.max, by),
                    vel: shifted_opt(r.vel, by),
                    kind: shifted_opt(r.kind, by),
                    density: shifted_opt(r.density, by),
                    restitution: shifted_opt(r.restitution, by),
                    layers: r.layers.map(|v| Box::new(shifted(*v, by))),
                    mask: r.mask.map(|v| Box::new(shifted(*v, by))),
                    one_way: r.one_way.map(|v| Box::new(shifted(*v, by))),
                },
            )
        }));
    }
    Ok(raw)
}

/// A scene parsed from `text` both ways: whole, and in pieces (for the tests of
/// `pieces.rs`: the two must agree, errors included).
#[cfg(test)]
pub(crate) fn parse_both(text: &str) -> (Result<Scene, SceneError>, Result<Scene, SceneError>) {
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    let ctx = Ctx::new("big.toml", text);
    let whole = parse_whole(&ctx).and_then(|raw| ctx.build(raw, &no_levels));
    let pieces = match crate::pieces::split(text) {
        Some(p) => parse_in_pieces(&ctx, &p).and_then(|raw| ctx.build(raw, &no_levels)),
        None => parse_whole(&ctx).and_then(|raw| ctx.build(raw, &no_levels)),
    };
    (whole, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{scene_from_level, LevelError, DEFAULT_BALLS};
    use crate::limits::MAX_LEVEL_BYTES;
    use crate::locate::*;
    use crate::random_grid::random_grid;
    use collide_world::limits::{MAX_BALLS, MAX_RECTS};
    use collide_world::Surface;
    use collide_world::{
        Aabb, BallDesc, Cell, Filter, GridDesc, RectDesc, RectKind, SpawnDesc, StepConfig, Vec2,
        Walls,
    };
    use std::io;

    const LEVEL_OK: &str = "###\n#R#\n###\n";
    const LEVEL_RAGGED: &str = "###\n##\n###\n";

    fn levels(path: &str) -> Result<String, io::Error> {
        match path {
            "lv.dat" => Ok(LEVEL_OK.to_owned()),
            "bad.dat" => Ok(LEVEL_RAGGED.to_owned()),
            "huge.dat" => Ok(" ".repeat(MAX_LEVEL_BYTES as usize + 1)),
            _ => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no level `{path}`"),
            )),
        }
    }

    fn parse(text: &str) -> Result<Scene, SceneError> {
        from_toml_str(text, "test.toml", &levels)
    }

    #[track_caller]
    fn err(text: &str) -> SceneError {
        match parse(text) {
            Ok(s) => panic!("expected an error, got {s:?}"),
            Err(e) => e,
        }
    }

    /// Asserts the error names test.toml, `line` and `field`, and returns its message.
    #[track_caller]
    fn at(text: &str, line: usize, field: &str) -> String {
        let e = err(text);
        assert_eq!(e.file(), Some("test.toml"), "{e}");
        assert_eq!((e.line(), e.field()), (Some(line), Some(field)), "{e}");
        let shown = e.to_string();
        assert!(shown.starts_with(&format!("test.toml:{line}")), "{shown}");
        assert!(shown.contains(&format!("`{field}`")), "{shown}");
        shown
    }

    const WORLD: &str = "[world]\nsize = [640, 480]\n";

    const FULL: &str = r#"name = "full"
[world]
size = [640.0, 480]
walls = ["left", "top", "right"]
[grid]
cell = 10.0
origin = [5.0, 6.0]
rows = ['#####', '#   #', '#RYG#']
[[ball]]
pos = [50.0, 60.0]
vel = [120.0, -30.0]
radius = 3.0
density = 2.5
[[ball]]
pos = [70, 80]
radius = 0
[[rect]]
min = [200.0, 400.0]
max = [280.0, 406.0]
vel = [10.0, 0.0]
kind = "kinematic"
density = 3.0
[[rect]]
min = [1, 2]
max = [3, 4]
[[rect]]
min = [10, 20]
max = [30, 40]
kind = "dynamic"
vel = [-1, 1]
[[rect]]
min = [0, 0]
max = [0, 0]
kind = "static"
[spawn]
count = 1000
radius = 3.0
speed = 144.0
seed = 7
region = [0.0, 0.0, 640.0, 470.0]
density = 0.5
[step]
dt = 0.01
ball_ball = false
restitution = 0.9
destructible_bricks = false
max_events_per_body = 100
gravity = [0.0, 500.0]
sleep = false
"#;

    #[test]
    fn full_round_of_every_key() {
        let s = parse(FULL).unwrap();
        let v = Vec2::new;
        let e = Cell::Empty;
        let w = Cell::Wall;
        let want = Scene {
            name: "full".into(),
            size: v(640.0, 480.0),
            walls: Walls {
                left: true,
                top: true,
                right: true,
                bottom: false,
            },
            grid: Some(GridDesc {
                cell: 10.0,
                origin: v(5.0, 6.0),
                cols: 5,
                rows: 3,
                #[rustfmt::skip]
                cells: vec![
                    w, w, w, w, w,
                    w, e, e, e, w,
                    w, Cell::Brick(b'R'), Cell::Brick(b'Y'), Cell::Brick(b'G'), w,
                ],
                wall_restitution: None,
                brick_restitution: None,
                brick_filter: Filter::DEFAULT,
                sensor_filter: Filter::DEFAULT,
                wall_filter: Filter::DEFAULT,
            }),
            balls: vec![
                BallDesc {
                    pos: v(50.0, 60.0),
                    vel: v(120.0, -30.0),
                    radius: 3.0,
                    density: 2.5,
                    surface: Surface::DEFAULT,
                    gravity_scale: 1.0,
                },
                BallDesc {
                    pos: v(70.0, 80.0),
                    vel: Vec2::ZERO,
                    radius: 0.0,
                    density: 1.0,
                    surface: Surface::DEFAULT,
                    gravity_scale: 1.0,
                },
            ],
            rects: vec![
                RectDesc {
                    aabb: Aabb::new(v(200.0, 400.0), v(280.0, 406.0)),
                    vel: v(10.0, 0.0),
                    kind: RectKind::Kinematic,
                    density: 3.0,
                    surface: Surface::DEFAULT,
                },
                RectDesc {
                    aabb: Aabb::new(v(1.0, 2.0), v(3.0, 4.0)),
                    vel: Vec2::ZERO,
                    kind: RectKind::Static,
                    density: 1.0,
                    surface: Surface::DEFAULT,
                },
                RectDesc {
                    aabb: Aabb::new(v(10.0, 20.0), v(30.0, 40.0)),
                    vel: v(-1.0, 1.0),
                    kind: RectKind::Dynamic,
                    density: 1.0,
                    surface: Surface::DEFAULT,
                },
                RectDesc {
                    aabb: Aabb::new(Vec2::ZERO, Vec2::ZERO),
                    vel: Vec2::ZERO,
                    kind: RectKind::Static,
                    density: 1.0,
                    surface: Surface::DEFAULT,
                },
            ],
            shapes: Vec::new(),
            flippers: Vec::new(),
            spawn: Some(SpawnDesc {
                count: 1000,
                radius: 3.0,
                speed: 144.0,
                density: 0.5,
                seed: 7,
                region: Some(Aabb::new(Vec2::ZERO, v(640.0, 470.0))),
                surface: Surface::DEFAULT,
            }),
            step: StepConfig {
                dt: 0.01,
                ball_ball: false,
                restitution: 0.9,
                destructible_bricks: false,
                max_events_per_body: 100,
                gravity: v(0.0, 500.0),
                sleep: false,
            },
        };
        assert_eq!(s, want);
    }

    #[test]
    fn defaults() {
        let s = parse(WORLD).unwrap();
        let want = Scene {
            name: "test".into(),
            size: Vec2::new(640.0, 480.0),
            ..Scene::default()
        };
        assert_eq!(s, want);
        assert_eq!(s.walls, Walls::ALL);
        assert_eq!(s.step, StepConfig::default());
        let s = parse(
            "[world]\nsize = [1, 1]\nwalls = []\n[spawn]\ncount = 2\nradius = 1\nspeed = 3\n",
        )
        .unwrap();
        assert_eq!(s.walls, Walls::NONE);
        let sp = s.spawn.unwrap();
        assert_eq!(
            (sp.count, sp.seed, sp.density, sp.region),
            (2, 1, 1.0, None)
        );
        // Inline tables work as well as headers.
        let s = parse("world = { size = [3, 4], walls = [\"bottom\"] }\n").unwrap();
        assert_eq!(
            s.walls,
            Walls {
                bottom: true,
                ..Walls::NONE
            }
        );
    }

    #[test]
    fn grid_from_level_and_random() {
        let s = parse(&format!("{WORLD}[grid]\ncell = 9\nlevel = \"lv.dat\"\n")).unwrap();
        let g = s.grid.unwrap();
        assert_eq!((g.cols, g.rows, g.cell, g.origin), (3, 3, 9.0, Vec2::ZERO));
        assert_eq!(g.cells[4], Cell::Brick(b'R'));
        let s = parse(&format!(
            "{WORLD}[grid]\ncell = 25\norigin = [1, 2]\n[grid.random]\ncols = 40\nrows = 40\nfill = 0.15\nseed = 12345\n"
        ))
        .unwrap();
        let g = s.grid.unwrap();
        assert_eq!(
            g,
            random_grid(40, 40, 0.15, 12345, 25.0, Vec2::new(1.0, 2.0)).unwrap()
        );
    }

    // ---- errors -----------------------------------------------------------------------------

    #[test]
    fn syntax_errors() {
        let m = at(
            "[world]\nsize = [640, 480]\nwalls = [\"left\" \"top\"]\n",
            3,
            "world.walls",
        );
        assert!(m.contains("TOML syntax error"), "{m}");
        let e = err("[world]\nsize = [640, 480]\nwalls = [\"left\" \"top\"]\n");
        assert!(matches!(e, SceneError::Syntax { column: 17, .. }), "{e:?}");
        at("[world\nsize = [1, 1]\n", 1, "world");
        at(
            &format!(
                "{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\n[[ball]]\npos = [1, 1]\nradius = \n"
            ),
            8,
            "ball[1].radius",
        );
        // Duplicate keys are syntax errors too.
        at("[world]\nsize = [1, 1]\nsize = [2, 2]\n", 3, "world.size");
        at("= 3\n", 1, "(document)");
        // Nesting deep enough to overflow a naive recursive parser.
        let deep = format!("{WORLD}x = {}\n", "[".repeat(100_000));
        let e = err(&deep);
        assert!(matches!(e, SceneError::Syntax { line: 3, .. }), "{e}");
    }

    #[test]
    fn unknown_keys() {
        let m = at("[world]\nsize = [1, 1]\n[wrld]\n", 3, "wrld");
        assert!(m.contains("unknown field `wrld`"), "{m}");
        at("[world]\nsize = [1, 1]\ncolour = 3\n", 3, "world.colour");
        at(
            &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\n[[ball]]\npos = [1, 1]\nradius = 1\nmass = 2\n"),
            9,
            "ball[1].mass",
        );
        at(
            &format!(
                "{WORLD}[grid]\ncell = 1\n[grid.random]\ncols = 4\nrows = 4\nfill = 0\nx = 1\n"
            ),
            9,
            "grid.random.x",
        );
        at("world = { size = [1, 1], z = 1 }\n", 1, "world.z");
        at(
            &format!("{WORLD}[step]\nball_balls = false\n"),
            4,
            "step.ball_balls",
        );
    }

    #[test]
    fn missing_keys_and_wrong_types() {
        at(
            &format!("{WORLD}\n[[ball]]\npos = [1, 1]\n"),
            4,
            "ball[0].radius",
        );
        let m = at("name = \"x\"\n", 1, "world");
        assert!(m.contains("missing field `world`"), "{m}");
        at("[world]\nwalls = []\n", 1, "world.size");
        at("[world]\nsize = \"big\"\n", 2, "world.size");
        at("[world]\nsize = [1, \"a\"]\n", 2, "world.size[1]");
        at("world = 5\n", 1, "world");
        at(
            &format!("{WORLD}[spawn]\ncount = -1\nradius = 1\nspeed = 1\n"),
            4,
            "spawn.count",
        );
        at(
            &format!("{WORLD}[spawn]\ncount = 1\nradius = 1\nspeed = 1\nseed = -1\n"),
            7,
            "spawn.seed",
        );
        at(
            &format!("{WORLD}[step]\nball_ball = 1\n"),
            4,
            "step.ball_ball",
        );
        at(&format!("{WORLD}ball = 3\n"), 3, "world.ball"); // still inside [world]
        at(&format!("ball = 3\n{WORLD}"), 1, "ball");
        at(
            &format!("{WORLD}[ball]\npos = [1, 1]\nradius = 1\n"),
            3,
            "ball",
        );
    }

    #[test]
    fn wall_sides_and_rect_kinds() {
        let m = at(
            "[world]\nsize = [1, 1]\nwalls = [\"left\",\n  \"up\"]\n",
            4,
            "world.walls[1]",
        );
        assert!(m.contains("unknown wall side `up`"), "{m}");
        let m = at(
            "[world]\nsize = [1, 1]\nwalls = [\"left\", \"left\"]\n",
            3,
            "world.walls[1]",
        );
        assert!(m.contains("twice"), "{m}");
        let m = at(
            &format!("{WORLD}[[rect]]\nmin = [0, 0]\nmax = [1, 1]\nkind = \"moving\"\n"),
            6,
            "rect[0].kind",
        );
        assert!(m.contains("unknown rect kind `moving`"), "{m}");
        at(
            &format!("{WORLD}[[rect]]\nmin = [0, 0]\nmax = [1, 1]\nvel = [1, 0]\n"),
            6,
            "rect[0].vel",
        );
    }

    #[test]
    fn bad_numbers() {
        let ball = |r: &str| format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = {r}\n");
        for r in ["nan", "inf", "-inf", "-1", "1e10"] {
            at(&ball(r), 5, "ball[0].radius");
        }
        at(
            &format!("{WORLD}[[ball]]\npos = [1, nan]\nradius = 1\n"),
            4,
            "ball[0].pos",
        );
        at(
            &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\ndensity = -0.5\n"),
            6,
            "ball[0].density",
        );
        at(
            &format!("{WORLD}[[ball]]\npos = [1, 1]\nvel = [inf, 0]\nradius = 1\n"),
            5,
            "ball[0].vel",
        );
        at(
            &format!("{WORLD}[[ball]]\npos = [1, 1, 1]\nradius = 1\n"),
            4,
            "ball[0].pos",
        );
        at(
            &format!("{WORLD}[[rect]]\nmin = [0, 0]\nmax = [1, 1]\ndensity = nan\n"),
            6,
            "rect[0].density",
        );
        for size in ["[0, 10]", "[10, -1]", "[inf, 1]", "[nan, 1]", "[1]"] {
            at(&format!("[world]\nsize = {size}\n"), 2, "world.size");
        }
        let spawn = "[spawn]\ncount = 1\nradius = 1\nspeed = 1\n";
        at(&format!("{WORLD}{spawn}density = -1\n"), 7, "spawn.density");
        at(
            &format!("{WORLD}[spawn]\ncount = 1\nradius = -3\nspeed = 1\n"),
            5,
            "spawn.radius",
        );
        at(
            &format!("{WORLD}[spawn]\ncount = 1\nradius = 3\nspeed = nan\n"),
            6,
            "spawn.speed",
        );
        at(
            &format!("{WORLD}{spawn}region = [0, 0, 10]\n"),
            7,
            "spawn.region",
        );
        at(
            &format!("{WORLD}{spawn}region = [10, 0, 0, 10]\n"),
            7,
            "spawn.region",
        );
        at(
            &format!("{WORLD}[grid]\ncell = 1\norigin = [nan, 0]\nrows = [\"#\"]\n"),
            5,
            "grid.origin",
        );
        at(
            &format!("{WORLD}[grid]\ncell = 1\n[grid.random]\ncols = 4\nrows = 4\nfill = 1.5\n"),
            8,
            "grid.random.fill",
        );
    }

    #[test]
    fn step_values() {
        for dt in ["0", "-0.01", "nan", "inf"] {
            let m = at(&format!("{WORLD}[step]\ndt = {dt}\n"), 4, "step.dt");
            assert!(m.contains("expected"), "{m}");
        }
        at(
            &format!("{WORLD}[step]\nrestitution = 1.5\n"),
            4,
            "step.restitution",
        );
        at(
            &format!("{WORLD}[step]\nmax_events_per_body = 0\n"),
            4,
            "step.max_events_per_body",
        );
        for g in ["[0, 1e300]", "[nan, 981]", "[0]", "[0, 981, 1]"] {
            at(
                &format!("{WORLD}[step]\ngravity = {g}\n"),
                4,
                "step.gravity",
            );
        }
        let s = parse(&format!("{WORLD}[step]\ngravity = [-3.5, 981]\n")).unwrap();
        assert_eq!(s.step.gravity, Vec2::new(-3.5, 981.0));
        at(
            &format!("{WORLD}[step]\nmax_events_per_body = 65537\n"),
            4,
            "step.max_events_per_body",
        );
        at(
            &format!("{WORLD}[step]\nmax_events_per_body = 5000000000\n"),
            4,
            "step.max_events_per_body",
        );
    }

    #[test]
    fn restitutions_are_read_per_body_and_cell_kind() {
        let text = format!(
            "{WORLD}[grid]\ncell = 10\nrows = [\"#R\"]\nwall_restitution = 0.5\n\
             brick_restitution = 2\n[[ball]]\npos = [100, 100]\nradius = 3\nrestitution = 0\n\
             [[ball]]\npos = [200, 100]\nradius = 3\n[[rect]]\nmin = [0, 300]\n\
             max = [10, 310]\nrestitution = 1.5\n[spawn]\ncount = 2\nradius = 1\nspeed = 1\n\
             restitution = 10\n"
        );
        let s = parse(&text).unwrap();
        let g = s.grid.as_ref().unwrap();
        assert_eq!(
            (g.wall_restitution, g.brick_restitution),
            (Some(0.5), Some(2.0))
        );
        assert_eq!(s.balls[0].surface.restitution, Some(0.0));
        assert_eq!(s.balls[1].surface.restitution, None);
        assert_eq!(s.rects[0].surface.restitution, Some(1.5));
        assert_eq!(s.spawn.unwrap().surface.restitution, Some(10.0));
        // Read in pieces, the same scene.
        let (whole, pieces) = parse_both(&text);
        assert_eq!(whole.unwrap(), pieces.unwrap());
    }

    #[test]
    fn bad_restitutions_name_their_field_and_line() {
        for bad in ["-0.5", "10.5", "nan", "inf", "-inf"] {
            let m = at(
                &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\nrestitution = {bad}\n"),
                6,
                "ball[0].restitution",
            );
            assert!(m.contains("expected"), "{m}");
            at(
                &format!("{WORLD}[[rect]]\nmin = [0, 0]\nmax = [1, 1]\nrestitution = {bad}\n"),
                6,
                "rect[0].restitution",
            );
            for kind in ["wall", "brick"] {
                at(
                    &format!(
                        "{WORLD}[grid]\ncell = 1\nrows = [\"#\"]\n{kind}_restitution = {bad}\n"
                    ),
                    6,
                    &format!("grid.{kind}_restitution"),
                );
            }
            at(
                &format!("{WORLD}[spawn]\ncount = 1\nradius = 1\nspeed = 1\nrestitution = {bad}\n"),
                7,
                "spawn.restitution",
            );
        }
        let m = at(
            &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\nrestitution = 11\n"),
            6,
            "ball[0].restitution",
        );
        assert!(
            m.contains("expected a number between 0 and 10, found 11"),
            "{m}"
        );
        // The world's own restitution keeps its [0, 1] bound.
        at(
            &format!("{WORLD}[step]\nrestitution = 1.5\n"),
            4,
            "step.restitution",
        );
    }

    #[test]
    fn rect_min_greater_than_max() {
        let m = at(
            &format!("{WORLD}[[rect]]\nmin = [10, 0]\nmax = [5, 8]\n"),
            5,
            "rect[0].max",
        );
        assert!(m.contains("must not be greater"), "{m}");
        at(
            &format!("{WORLD}[[rect]]\nmin = [0, 9]\n\nmax = [5, 8]\n"),
            6,
            "rect[0].max",
        );
    }

    #[test]
    fn grid_errors() {
        for cell in ["0", "-1", "nan"] {
            at(
                &format!("{WORLD}[grid]\ncell = {cell}\nrows = [\"#\"]\n"),
                4,
                "grid.cell",
            );
        }
        // Non-rectangular rows: the line of the offending row.
        let text =
            format!("{WORLD}[grid]\ncell = 1\nrows = [\n  \"###\",\n  \"# #\",\n  \"##\",\n]\n");
        let e = err(&text);
        assert_eq!(
            (e.line(), e.field()),
            (Some(8), Some("grid.rows[2]")),
            "{e}"
        );
        match &e {
            SceneError::Level { source, .. } => {
                assert_eq!(
                    *source,
                    LevelError::Ragged {
                        line: 3,
                        found: 2,
                        expected: 3
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        at(
            &format!("{WORLD}[grid]\ncell = 1\nrows = []\n"),
            5,
            "grid.rows",
        );
        // No source, two sources.
        let m = at(&format!("{WORLD}[grid]\ncell = 1\n"), 3, "grid");
        assert!(m.contains("needs its cells"), "{m}");
        at(
            &format!("{WORLD}[grid]\ncell = 1\nrows = [\"#\"]\nlevel = \"lv.dat\"\n"),
            6,
            "grid.level",
        );
    }

    #[test]
    fn level_file_errors() {
        let e = err(&format!("{WORLD}[grid]\ncell = 9\nlevel = \"nope.dat\"\n"));
        assert_eq!((e.line(), e.field()), (Some(5), Some("grid.level")), "{e}");
        match &e {
            SceneError::LevelIo { path, source, .. } => {
                assert_eq!(path, "nope.dat");
                assert_eq!(source.kind(), io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
        let e = err(&format!("{WORLD}[grid]\ncell = 9\n\nlevel = \"bad.dat\"\n"));
        assert_eq!((e.line(), e.field()), (Some(6), Some("grid.level")), "{e}");
        match &e {
            SceneError::Level { path, source, .. } => {
                assert_eq!(path, "bad.dat");
                assert_eq!(source.line(), 2); // the level's own line
            }
            other => panic!("{other:?}"),
        }
        let e = err(&format!("{WORLD}[grid]\ncell = 9\nlevel = \"huge.dat\"\n"));
        assert!(
            matches!(
                &e,
                SceneError::Level {
                    source: LevelError::TooLarge { .. },
                    line: 5,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn limits() {
        let m = at(
            &format!("{WORLD}[grid]\ncell = 1\n[grid.random]\ncols = 70000\nrows = 4\nfill = 0\n"),
            6,
            "grid.random.cols",
        );
        assert!(m.contains("65536"), "{m}");
        at(
            &format!("{WORLD}[grid]\ncell = 1\n[grid.random]\ncols = 4\nrows = 0\nfill = 0\n"),
            7,
            "grid.random.rows",
        );
        // 5000 x 5000 = 25e6 cells > 2^24: refused before allocating.
        let m = at(
            &format!(
                "{WORLD}[grid]\ncell = 1\n[grid.random]\ncols = 5000\nrows = 5000\nfill = 0\n"
            ),
            7,
            "grid.random.rows",
        );
        assert!(m.contains("5000 x 5000"), "{m}");
        // One explicit ball + MAX_BALLS spawned.
        let m = at(
            &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\n[spawn]\ncount = {MAX_BALLS}\nradius = 1\nspeed = 1\n"),
            7,
            "spawn.count",
        );
        assert!(m.contains("too many balls"), "{m}");
        assert!(parse(&format!(
            "{WORLD}[spawn]\ncount = {MAX_BALLS}\nradius = 1\nspeed = 1\n"
        ))
        .is_ok());
        at(
            &format!("{WORLD}[spawn]\ncount = 9223372036854775807\nradius = 1\nspeed = 1\n"),
            4,
            "spawn.count",
        );
        // MAX_RECTS + 1 rects: the first one over the limit is named.
        let mut text = WORLD.to_owned();
        for _ in 0..=MAX_RECTS {
            text.push_str("[[rect]]\nmin = [0, 0]\nmax = [1, 1]\n");
        }
        let m = at(&text, 3 + 3 * MAX_RECTS, &format!("rect[{MAX_RECTS}]"));
        assert!(m.contains("too many rects"), "{m}");
    }

    #[test]
    fn too_large_text() {
        let text = format!("{WORLD}#{}\n", " ".repeat(MAX_SCENE_BYTES as usize));
        let e = err(&text);
        assert!(
            matches!(
                e,
                SceneError::TooLarge {
                    max: MAX_SCENE_BYTES,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.file(), Some("test.toml"));
    }

    #[test]
    fn never_panics_on_mangled_input() {
        // Every prefix of a full scene, and the scene with each character replaced by a
        // handful of troublemakers: errors or scenes, never a panic.
        let text = FULL;
        for (i, _) in text.char_indices() {
            let _ = parse(&text[..i]);
        }
        for (i, c) in text.char_indices() {
            for r in ["\"", "[", "]", "=", "\n", "-", "9", ""] {
                let mangled = format!("{}{r}{}", &text[..i], &text[i + c.len_utf8()..]);
                if let Err(e) = parse(&mangled) {
                    // Every content error names a line inside the text.
                    if let Some(line) = e.line() {
                        assert!(line >= 1 && line <= mangled.lines().count() + 1, "{e}");
                    }
                }
            }
        }
    }

    // ---- files ------------------------------------------------------------------------------

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("collide-scene-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("levels")).unwrap();
        dir
    }

    #[test]
    fn load_files() {
        let dir = temp_dir("load");
        std::fs::write(dir.join("levels/lv.dat"), LEVEL_OK).unwrap();
        let scene = dir.join("room.toml");
        std::fs::write(
            &scene,
            format!("{WORLD}[grid]\ncell = 9\nlevel = \"levels/lv.dat\"\n"),
        )
        .unwrap();
        let s = crate::load(&scene).unwrap();
        assert_eq!(s.name, "room");
        assert_eq!(s.grid.as_ref().map(|g| (g.cols, g.rows)), Some((3, 3)));

        // A bare level: the BricksBeater scene around it.
        let s = crate::load(&dir.join("levels/lv.dat")).unwrap();
        assert_eq!(
            s,
            scene_from_level(
                "lv",
                crate::level::parse_level(LEVEL_OK).unwrap(),
                DEFAULT_BALLS
            )
        );

        // A missing level names the full path in the source.
        let bad = dir.join("bad.toml");
        std::fs::write(
            &bad,
            format!("{WORLD}[grid]\ncell = 9\nlevel = \"levels/none.dat\"\n"),
        )
        .unwrap();
        let e = crate::load(&bad).unwrap_err();
        assert_eq!((e.line(), e.field()), (Some(5), Some("grid.level")), "{e}");
        assert_eq!(e.file(), Some(bad.display().to_string().as_str()));
        let SceneError::LevelIo { source, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(source.kind(), io::ErrorKind::NotFound);
        assert!(source.to_string().contains("none.dat"), "{source}");

        // A ragged bare level names its line.
        std::fs::write(dir.join("ragged.dat"), LEVEL_RAGGED).unwrap();
        let e = crate::load(&dir.join("ragged.dat")).unwrap_err();
        assert_eq!((e.line(), e.field()), (Some(2), Some("level")), "{e}");

        // Missing scene file.
        let e = crate::load(&dir.join("none.toml")).unwrap_err();
        assert!(
            matches!(&e, SceneError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound),
            "{e:?}"
        );

        // Not UTF-8.
        std::fs::write(dir.join("bin.toml"), [0xff, 0xfe, 0x00]).unwrap();
        let e = crate::load(&dir.join("bin.toml")).unwrap_err();
        assert!(
            matches!(&e, SceneError::Io { source, .. } if source.kind() == io::ErrorKind::InvalidData),
            "{e:?}"
        );

        // Too large: refused from its length, before reading (a sparse file).
        let big = dir.join("big.toml");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_SCENE_BYTES + 1)
            .unwrap();
        let e = crate::load(&big).unwrap_err();
        assert!(
            matches!(e, SceneError::TooLarge { len, .. } if len == MAX_SCENE_BYTES + 1),
            "{e:?}"
        );

        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn field_helpers() {
        assert_eq!(field_at_line("[world]\nsize = [1\n", 2), "world.size");
        assert_eq!(
            field_at_line("[[ball]]\n[[ball]]\nradius = \n", 3),
            "ball[1].radius"
        );
        assert_eq!(field_at_line("a.b = [\n 1 2\n", 2), "(document)");
        assert_eq!(header("  [[ ball ]] # c"), Some(("ball", true)));
        assert_eq!(header("[1, 2]"), None);
        assert_eq!(bare_key("  radius = 3"), Some("radius"));
        assert_eq!(bare_key("\"x\" = 3"), None);
        assert_eq!(
            backquoted_after("missing field `size`", "missing field `"),
            Some("size")
        );
        let idx = LineIndex::new("a\nb\n\nc");
        assert_eq!(
            [
                idx.line(0),
                idx.line(2),
                idx.line(4),
                idx.line(5),
                idx.line(99)
            ],
            [1, 2, 3, 4, 4]
        );
    }
}
