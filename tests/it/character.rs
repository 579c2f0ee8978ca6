//! Characters (`collide_world::Character`): move and slide at exact times of impact with no
//! skin gap: landing at a parabola's root, running over flush tiles without a seam bump,
//! stopping exactly at a wall, walking up and down 45° ramps, stepping up exactly the step
//! height, riding kinematic platforms, being squeezed, one-way platforms, snapshots, and
//! never ending a step inside solid geometry over random levels.

use collide_world::rng::XorShift64Star;
use collide_world::Contact;
use collide_world::Surface;
use collide_world::{
    Aabb, Body, CharacterDesc, CharacterId, Event, Filter, Grid, RectDesc, RectKind, StepConfig,
    Target, Vec2, Walls, World,
};

const DT: f64 = 1.0 / 60.0;

fn world(size: Vec2, gravity: Vec2, rows: &[&str], cell: f64) -> World {
    let config = StepConfig {
        dt: DT,
        gravity,
        ..StepConfig::default()
    };
    let mut w = World::new(size, Walls::ALL, config).expect("a valid world");
    if !rows.is_empty() {
        w.set_grid(Grid::from_rows(cell, Vec2::ZERO, rows).expect("valid rows"));
    }
    w
}

fn character(
    w: &mut World,
    pos: Vec2,
    half: Vec2,
    f: impl FnOnce(&mut CharacterDesc),
) -> CharacterId {
    let mut d = CharacterDesc {
        pos,
        half_extents: half,
        ..CharacterDesc::default()
    };
    f(&mut d);
    w.add_character(d).expect("a valid character")
}

fn hits(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .copied()
        .filter(|e| {
            matches!(
                e,
                Event::Contact(Contact {
                    body: Body::Character(_),
                    ..
                })
            )
        })
        .collect()
}

/// Rows of `cols` columns: empty above row `floor`, walls from there down.
fn floor_rows(cols: usize, rows: usize, floor: usize) -> Vec<String> {
    (0..rows)
        .map(|r| {
            if r >= floor {
                "#".repeat(cols)
            } else {
                " ".repeat(cols)
            }
        })
        .collect()
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Whether the box shrunk by `tol` on every side meets a solid cell or a static/kinematic
/// rectangle (an overlap deeper than `tol`).
fn overlaps_solid(w: &World, b: &Aabb, tol: f64) -> bool {
    let inner = Aabb::new(b.min + tol, b.max - tol);
    let mut out = Vec::new();
    w.query_aabb(&inner, Filter::ALL, &mut out);
    out.iter().any(|t| match t {
        Target::Cell(_) | Target::Shape(_) => true,
        Target::Rect(id) => w
            .rect(*id)
            .is_some_and(|r| matches!(r.kind, RectKind::Static | RectKind::Kinematic)),
        _ => false,
    })
}

/// A character of half size 8 × 12 dropped from rest with its bottom 188 units above a floor
/// (y = 300) under g = 1000 lands at the parabola's root, t = √(2·188/1000), and then stands
/// exactly on the floor (distance 0) with no further events.
#[test]
fn lands_at_the_parabolas_root_and_stands_at_distance_zero() {
    let rows = floor_rows(20, 20, 15);
    let mut w = world(
        Vec2::new(400.0, 400.0),
        Vec2::new(0.0, 1000.0),
        &as_strs(&rows),
        20.0,
    );
    let id = character(
        &mut w,
        Vec2::new(100.0, 100.0),
        Vec2::new(8.0, 12.0),
        |_| {},
    );
    let expected = (2.0 * 188.0 / 1000.0_f64).sqrt();
    let mut landed = None;
    for _ in 0..60 {
        let t0 = w.time();
        let hs = hits(w.step());
        if let Some(Event::Contact(Contact {
            body: Body::Character(_),
            normal,
            toi,
            ..
        })) = hs.first()
        {
            assert_eq!(*normal, Vec2::new(0.0, -1.0));
            landed = Some(t0 + toi);
            break;
        }
    }
    let t = landed.expect("it lands");
    assert!(
        (t - expected).abs() < 1e-9,
        "landed at {t}, expected {expected}"
    );
    let c = *w.character(id).unwrap();
    assert_eq!(c.pos.y, 288.0, "bottom exactly on the floor");
    assert!(c.on_ground());
    assert_eq!(c.vel, Vec2::ZERO);
    for _ in 0..120 {
        assert!(hits(w.step()).is_empty(), "standing reports nothing");
        let c = w.character(id).unwrap();
        assert_eq!(c.pos, Vec2::new(100.0, 288.0));
        assert!(c.on_ground());
    }
}

/// Running along a floor of 200 flush wall tiles at 10 to 10⁵ units/s: the bottom stays
/// exactly on the floor (0 vertical displacement), no contact at any seam; the only contact is
/// the right wall, where it stops exactly.
#[test]
fn runs_along_200_flush_tiles_without_a_seam_bump() {
    let cols = 200;
    let rows = floor_rows(cols, 12, 10);
    for speed in [10.0, 100.0, 1000.0, 1.0e4, 1.0e5] {
        let size = Vec2::new(16.0 * cols as f64, 12.0 * 16.0);
        let mut w = world(size, Vec2::new(0.0, 981.0), &as_strs(&rows), 16.0);
        let floor = 160.0;
        let id = character(
            &mut w,
            Vec2::new(20.0, floor - 12.0),
            Vec2::new(8.0, 12.0),
            |_| {},
        );
        // It stands on its ground from the start.
        assert!(w.character(id).unwrap().on_ground());
        assert!(hits(w.step()).is_empty());
        w.set_character_velocity(id, Vec2::new(speed, 0.0)).unwrap();
        let steps = ((size.x / speed) / DT).ceil() as usize + 2;
        let mut wall_hits = 0;
        for _ in 0..steps.min(20_000) {
            for e in hits(w.step()) {
                let Event::Contact(Contact {
                    body: Body::Character(_),
                    other: target,
                    normal,
                    ..
                }) = e
                else {
                    unreachable!()
                };
                assert_eq!(
                    target,
                    Target::Wall(collide_world::Side::Right),
                    "at {speed}: {e:?}"
                );
                assert_eq!(normal, Vec2::new(-1.0, 0.0));
                wall_hits += 1;
            }
            let c = w.character(id).unwrap();
            assert_eq!(
                c.pos.y,
                floor - 12.0,
                "at {speed} units/s: vertical displacement"
            );
            assert!(c.on_ground());
        }
        let c = w.character(id).unwrap();
        assert!(wall_hits >= 1, "at {speed} it reached the wall");
        assert_eq!(c.pos.x, size.x - 8.0, "stopped exactly at the wall");
    }
}

/// Sliding into a corner: thrown diagonally down-right at a wall standing on the floor, the
/// character ends exactly in the corner (box touching both).
#[test]
fn sliding_into_a_corner_stops_exactly_at_the_wall() {
    let rows = [
        "          ",
        "          ",
        "          ",
        "         #",
        "         #",
        "##########",
    ];
    let mut w = world(Vec2::new(200.0, 120.0), Vec2::new(0.0, 500.0), &rows, 20.0);
    let id = character(&mut w, Vec2::new(40.0, 30.0), Vec2::new(6.0, 10.0), |_| {});
    w.set_character_velocity(id, Vec2::new(300.0, 50.0))
        .unwrap();
    for _ in 0..120 {
        w.step();
        let c = w.character(id).unwrap();
        assert!(c.aabb().max.x <= 180.0 && c.aabb().max.y <= 100.0);
    }
    w.set_character_velocity(id, Vec2::new(300.0, 0.0)).unwrap();
    for _ in 0..30 {
        w.step();
    }
    let c = w.character(id).unwrap();
    assert_eq!(
        c.aabb().max,
        Vec2::new(180.0, 100.0),
        "in the corner, touching both"
    );
    assert!(c.on_ground());
}

/// The height of the ground under x on the ramp level of `ramp_rows` (20-unit cells): floor
/// top at 200 up to x = 100, a 45° ramp rising to 140 over x in [100, 160], a plateau to
/// 220, a ramp down to 200 at 280... computed from the rows' geometry.
fn ramp_rows() -> Vec<&'static str> {
    vec![
        "                    ",
        "                    ",
        "                    ",
        "                    ",
        "                    ",
        "                    ",
        "                    ",
        "        3###1       ",
        "       3#####1      ",
        "      3#######1     ",
        "####################",
        "####################",
    ]
}

/// Walking right over a 45° ramp of slope cells up, a plateau and a ramp down, with a snap
/// distance: at the end of every step it stands on the ground, touching it (gap 0 to 1e-9)
/// and inside nothing (overlap at most 1e-9), and it gets over the top and down the far side.
#[test]
fn walks_up_and_down_a_45_degree_ramp_in_contact() {
    let rows = ramp_rows();
    let mut w = world(Vec2::new(400.0, 240.0), Vec2::new(0.0, 1000.0), &rows, 20.0);
    let id = character(
        &mut w,
        Vec2::new(40.0, 200.0 - 10.0),
        Vec2::new(6.0, 10.0),
        |d| {
            d.snap_distance = 8.0;
        },
    );
    w.step();
    assert!(w.character(id).unwrap().on_ground());
    w.set_character_velocity(id, Vec2::new(120.0, 0.0)).unwrap();
    let mut top = f64::INFINITY;
    for step in 0..150 {
        w.step();
        let c = *w.character(id).unwrap();
        assert!(c.on_ground(), "step {step}: in the air at {:?}", c.pos);
        let a = c.aabb();
        assert!(
            !overlaps_solid(&w, &a, 1e-9),
            "step {step}: inside at {:?}",
            c.pos
        );
        let gap = w
            .cast_box(&a, Vec2::new(0.0, 1.0), Filter::ALL)
            .map_or(f64::INFINITY, |h| h.toi);
        assert!(gap <= 1e-9, "step {step}: gap {gap} at {:?}", c.pos);
        top = top.min(a.max.y);
        w.set_character_velocity(id, Vec2::new(120.0, 0.0)).unwrap();
    }
    let c = w.character(id).unwrap();
    assert_eq!(top, 140.0, "it reached the plateau");
    assert!(c.pos.x > 300.0, "it went down the far side: {:?}", c.pos);
    assert_eq!(c.aabb().max.y, 200.0);
}

/// Step-up: a ledge exactly the step height high is climbed; one 1e-6 higher stops the
/// character at its face.
#[test]
fn a_step_of_exactly_the_max_height_is_climbed_and_a_higher_one_is_not() {
    for (extra, climbs) in [(0.0, true), (1e-6, false)] {
        let rows = floor_rows(20, 12, 10);
        let mut w = world(
            Vec2::new(400.0, 240.0),
            Vec2::new(0.0, 1000.0),
            &as_strs(&rows),
            20.0,
        );
        let h = 10.0;
        w.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(200.0, 200.0 - h - extra), Vec2::new(300.0, 200.0)),
            kind: RectKind::Static,
            ..RectDesc::default()
        })
        .unwrap();
        let id = character(&mut w, Vec2::new(100.0, 190.0), Vec2::new(8.0, 10.0), |d| {
            d.step_height = h;
        });
        w.step();
        w.set_character_velocity(id, Vec2::new(200.0, 0.0)).unwrap();
        for _ in 0..40 {
            w.step();
            w.set_character_velocity(id, Vec2::new(200.0, 0.0)).unwrap();
        }
        let c = w.character(id).unwrap();
        if climbs {
            assert_eq!(c.aabb().max.y, 190.0, "on the ledge: {:?}", c.pos);
            assert!(c.pos.x > 208.0);
            assert!(c.on_ground());
        } else {
            assert_eq!(c.aabb().max.y, 200.0, "still on the floor: {:?}", c.pos);
            assert_eq!(c.aabb().max.x, 200.0, "stopped exactly at the ledge's face");
        }
    }
}

/// A character standing on a kinematic platform moving at up to 10⁴ units/s (horizontally,
/// up and down) stays on it: its offset along the platform is kept and its bottom is exactly
/// on the platform's top after every step.
#[test]
fn rides_a_platform_at_up_to_ten_thousand_units_per_second() {
    for vel in [
        Vec2::new(100.0, 0.0),
        Vec2::new(1.0e4, 0.0),
        Vec2::new(0.0, -300.0),
        Vec2::new(0.0, 2000.0),
        Vec2::new(-7000.0, -7000.0),
    ] {
        let size = Vec2::new(1.0e6, 1.0e6);
        let mut w = world(size, Vec2::new(0.0, 1000.0), &[], 1.0);
        let start = Vec2::new(5.0e5, 5.0e5);
        let p = w
            .add_rect(RectDesc {
                aabb: Aabb::new(start, start + Vec2::new(100.0, 10.0)),
                vel,
                kind: RectKind::Kinematic,
                ..RectDesc::default()
            })
            .unwrap();
        let id = character(
            &mut w,
            start + Vec2::new(30.0, -12.0),
            Vec2::new(8.0, 12.0),
            |_| {},
        );
        assert!(w.character(id).unwrap().on_ground());
        for step in 0..60 {
            w.step();
            let c = *w.character(id).unwrap();
            let r = w.rect(p).unwrap().aabb;
            assert!(c.on_ground(), "{vel:?}, step {step}");
            assert_eq!(c.aabb().max.y, r.min.y, "{vel:?}, step {step}: on the top");
            assert!(
                ((c.pos.x - r.min.x) - 30.0).abs() < 1e-12 * r.min.x.abs(),
                "{vel:?}, step {step}: drifted {}",
                c.pos.x - r.min.x
            );
            assert_eq!(c.ground.unwrap().velocity, vel);
        }
    }
}

/// A platform rising into a ceiling squeezes the character on it: reported, and it is never
/// pushed through the ceiling.
#[test]
fn a_platform_rising_into_a_ceiling_squeezes_and_never_pushes_through() {
    let rows = [
        "##########",
        "          ",
        "          ",
        "          ",
        "          ",
    ];
    let mut w = world(Vec2::new(200.0, 100.0), Vec2::new(0.0, 1000.0), &rows, 20.0);
    let p = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(40.0, 80.0), Vec2::new(160.0, 90.0)),
            vel: Vec2::new(0.0, -60.0),
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .unwrap();
    let id = character(&mut w, Vec2::new(100.0, 68.0), Vec2::new(8.0, 12.0), |_| {});
    // The platform's top reaches y = 44 (the character's height, 24, below the ceiling's
    // bottom at 20) after 36 units, 0.6 s: 36 steps. It keeps rising through the ceiling.
    let mut first_squeeze = None;
    for step in 0..90 {
        let squeezed = w.step().iter().any(|e| {
            matches!(e, Event::Squeezed { body, rect, .. } if *body == Body::Character(id) && *rect == p)
        });
        let c = w.character(id).unwrap();
        assert!(
            c.aabb().min.y >= 20.0,
            "pushed into the ceiling: {:?}",
            c.pos
        );
        if squeezed && first_squeeze.is_none() {
            first_squeeze = Some(step);
            assert_eq!(c.aabb().min.y, 20.0, "pressed against the ceiling");
        }
    }
    let s = first_squeeze.expect("the squeeze is reported");
    assert!((35..=36).contains(&s), "squeezed at step {s}");
}

/// One-way platform: jumping from below passes through it, falling onto it from above
/// lands on it, and drop-through lets it fall through.
#[test]
fn one_way_platforms_hold_from_above_only() {
    let rows = floor_rows(20, 20, 18);
    let mut w = world(
        Vec2::new(400.0, 400.0),
        Vec2::new(0.0, 1000.0),
        &as_strs(&rows),
        20.0,
    );
    let plat = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(50.0, 250.0), Vec2::new(250.0, 256.0)),
            kind: RectKind::Static,
            ..RectDesc::default()
        })
        .unwrap();
    w.set_one_way(Target::Rect(plat), true).unwrap();
    let id = character(
        &mut w,
        Vec2::new(100.0, 348.0),
        Vec2::new(8.0, 12.0),
        |_| {},
    );
    assert!(matches!(
        w.character(id).unwrap().ground.unwrap().target,
        Target::Cell(c) if c.row == 18
    ));
    // A jump of 800 units/s rises 320 units: through the platform from below.
    w.set_character_velocity(id, Vec2::new(0.0, -800.0))
        .unwrap();
    let mut landed_on_platform = false;
    for _ in 0..120 {
        w.step();
        let c = w.character(id).unwrap();
        if c.ground.is_some_and(|g| g.target == Target::Rect(plat)) {
            landed_on_platform = true;
            assert_eq!(c.aabb().max.y, 250.0);
            break;
        }
    }
    assert!(
        landed_on_platform,
        "it fell back onto the platform from above"
    );
    w.set_character_drop_through(id, true).unwrap();
    for _ in 0..60 {
        w.step();
    }
    let c = w.character(id).unwrap();
    assert_eq!(c.aabb().max.y, 360.0, "dropped through to the floor");
}

/// A snapshot taken mid-run and restored continues with the same bits (state hash and
/// characters), and the state hash sees the characters.
#[test]
fn snapshots_and_the_state_hash_keep_characters() {
    let rows = ramp_rows();
    let mut w = world(Vec2::new(400.0, 240.0), Vec2::new(0.0, 1000.0), &rows, 20.0);
    let plain = w.state_hash();
    let id = character(&mut w, Vec2::new(40.0, 100.0), Vec2::new(6.0, 10.0), |d| {
        d.snap_distance = 4.0;
        d.step_height = 5.0;
    });
    assert_ne!(w.state_hash(), plain, "the hash sees the character");
    w.set_character_velocity(id, Vec2::new(90.0, 0.0)).unwrap();
    for _ in 0..30 {
        w.step();
    }
    let snap = w.snapshot();
    let bytes = postcard::to_allocvec(&snap).unwrap();
    let mut a = w.clone();
    for _ in 0..60 {
        a.step();
    }
    let mut b = world(Vec2::new(400.0, 240.0), Vec2::new(0.0, 1000.0), &rows, 20.0);
    b.restore(&postcard::from_bytes(&bytes).unwrap()).unwrap();
    assert_eq!(b.state_hash(), w.state_hash());
    for _ in 0..60 {
        b.step();
    }
    assert_eq!(b.state_hash(), a.state_hash());
    assert_eq!(b.characters(), a.characters());
}

/// Random levels of tiles and slope cells, random walking and jumping: after every step the
/// character is inside no solid cell by more than 1e-9, and never crosses a wall cell's core.
#[test]
fn never_ends_a_step_inside_the_level_over_random_levels_and_motions() {
    let mut rng = XorShift64Star::new(0x5eed_c4a7);
    let glyphs = ['#', '#', '1', '3', '7', '9'];
    for level in 0..200 {
        let (cols, nrows) = (24, 16);
        let mut rows: Vec<String> = Vec::new();
        for r in 0..nrows {
            let mut s = String::new();
            for c in 0..cols {
                let border = r == 0 || c == 0 || r == nrows - 1 || c == cols - 1;
                let solid = border || (r > 2 && rng.next_f64() < 0.18);
                s.push(if border {
                    '#'
                } else if solid {
                    glyphs[(rng.next_u64() % glyphs.len() as u64) as usize]
                } else {
                    ' '
                });
            }
            rows.push(s);
        }
        // Clear a spawn pocket.
        rows[1].replace_range(1..4, "   ");
        rows[2].replace_range(1..4, "   ");
        let mut w = world(
            Vec2::new(cols as f64 * 16.0, nrows as f64 * 16.0),
            Vec2::new(0.0, 900.0),
            &as_strs(&rows),
            16.0,
        );
        let id = character(&mut w, Vec2::new(32.0, 28.0), Vec2::new(6.0, 9.0), |d| {
            d.snap_distance = 4.0 * rng.next_f64();
            d.step_height = 6.0 * rng.next_f64();
            d.max_slope = if rng.next_f64() < 0.5 { 0.6 } else { 0.9 };
        });
        for step in 0..240 {
            let before = *w.character(id).unwrap();
            if step % 10 == 0 {
                let c = *w.character(id).unwrap();
                let vx = (rng.next_f64() - 0.5) * 800.0;
                let vy = if c.on_ground() && rng.next_f64() < 0.3 {
                    -500.0
                } else {
                    c.vel.y
                };
                w.set_character_velocity(id, Vec2::new(vx, vy)).unwrap();
            }
            w.step();
            let c = w.character(id).unwrap();
            assert!(c.pos.is_finite());
            let inner = Aabb::new(
                Vec2::splat(16.0),
                Vec2::new(cols as f64, nrows as f64) * 16.0 - 16.0,
            );
            assert!(
                c.aabb().min.cmpge(inner.min).all() && c.aabb().max.cmple(inner.max).all(),
                "level {level}: out of the border"
            );
            assert!(
                !overlaps_solid(&w, &c.aabb(), 1e-9),
                "level {level}, step {step}: inside at {:?} from {before:?}\n{}",
                c.pos,
                rows.join("\n")
            );
        }
    }
}

/// Running along a floor made of a polyline of 100 collinear 16-unit segments, and along a
/// row of 100 static rectangles laid edge to edge, at 10 to 10⁴ units/s: the bottom stays
/// exactly on the floor and no joint or seam is met.
#[test]
fn runs_along_polyline_joints_and_flush_rectangles_without_a_bump() {
    for floor_kind in ["polyline", "rects"] {
        for speed in [10.0, 1000.0, 1.0e4] {
            let mut w = world(Vec2::new(1700.0, 300.0), Vec2::new(0.0, 981.0), &[], 1.0);
            if floor_kind == "polyline" {
                let points: Vec<Vec2> = (0..=100)
                    .map(|k| Vec2::new(20.0 + 16.0 * k as f64, 200.0))
                    .collect();
                w.add_polyline(&points, false, None, Filter::DEFAULT)
                    .unwrap();
            } else {
                for k in 0..100 {
                    let x = 20.0 + 16.0 * k as f64;
                    w.add_rect(RectDesc {
                        aabb: Aabb::new(Vec2::new(x, 200.0), Vec2::new(x + 16.0, 216.0)),
                        kind: RectKind::Static,
                        ..RectDesc::default()
                    })
                    .unwrap();
                }
            }
            let id = character(&mut w, Vec2::new(40.0, 188.0), Vec2::new(8.0, 12.0), |_| {});
            assert!(w.character(id).unwrap().on_ground(), "{floor_kind}");
            w.set_character_velocity(id, Vec2::new(speed, 0.0)).unwrap();
            // Up to x = 1600, short of the floor's end at 1620.
            let steps = ((1550.0 / speed) / DT) as usize;
            for step in 0..steps {
                let hs = hits(w.step());
                assert!(
                    hs.is_empty(),
                    "{floor_kind} at {speed}, step {step}: {hs:?}"
                );
                let c = w.character(id).unwrap();
                assert_eq!(
                    c.aabb().max.y,
                    200.0,
                    "{floor_kind} at {speed}, step {step}"
                );
                assert!(c.on_ground());
            }
            let c = w.character(id).unwrap();
            assert!(
                (c.pos.x - (40.0 + speed * DT * steps as f64)).abs() < 1e-6,
                "{floor_kind} at {speed}: {:?}",
                c.pos
            );
        }
    }
}

/// A character walking through a sensor rectangle, a sensor circle and a sensor cell is
/// reported entering each at the exact time its box starts to overlap it and leaving at the
/// exact time it stops; queries and circle casts find the character.
#[test]
fn characters_meet_sensors_at_their_crossing_times_and_are_found_by_queries() {
    let rows = [
        "                    ",
        "                    ",
        "                    ",
        "                    ",
        "              s     ",
        "####################",
    ];
    let mut w = world(Vec2::new(400.0, 120.0), Vec2::new(0.0, 1000.0), &rows, 20.0);
    let zone = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(100.0, 60.0), Vec2::new(140.0, 100.0)),
            kind: RectKind::Kinematic,
            surface: Surface::SENSOR,
            ..RectDesc::default()
        })
        .unwrap();
    let coin = w
        .add_shape(collide_world::ShapeDesc::sensor_circle(
            Vec2::new(220.0, 90.0),
            5.0,
        ))
        .unwrap();
    let id = character(&mut w, Vec2::new(40.0, 88.0), Vec2::new(6.0, 12.0), |_| {});
    let mut out = Vec::new();
    w.query_point(Vec2::new(40.0, 88.0), Filter::ALL, &mut out);
    assert_eq!(out, vec![Target::Character(id)]);
    let hit = w
        .cast_ray(
            Vec2::new(0.0, 88.0),
            Vec2::new(100.0, 88.0),
            &[],
            Filter::ALL,
        )
        .unwrap();
    assert_eq!(hit.target, Target::Character(id));
    assert!((hit.toi - 0.34).abs() < 1e-12, "{}", hit.toi);
    w.set_character_velocity(id, Vec2::new(120.0, 0.0)).unwrap();
    // (time, entered, which), absolute: the box [x − 6, x + 6] from x = 40 at 120 units/s
    // starts to overlap the zone [100, 140] when its right side reaches 100 (54 / 120 s), the
    // coin (centre 220, radius 5, within the box's height) at 215, the cell [280, 300] at
    // 280; it stops when its left side passes 140, 225 and 300.
    let mut log = Vec::new();
    for _ in 0..170 {
        let t0 = w.time();
        let evs = w.step().to_vec();
        for e in evs {
            match e {
                Event::CharacterSensorEnter { sensor, toi, .. } => {
                    log.push((t0 + toi, true, sensor));
                }
                Event::CharacterSensorExit { sensor, toi, .. } => {
                    log.push((t0 + toi, false, sensor));
                }
                _ => {}
            }
        }
    }
    let cell = collide_world::CellCoord { col: 14, row: 4 };
    let expect = [
        (54.0 / 120.0, true, collide_world::SensorId::Rect(zone)),
        (106.0 / 120.0, false, collide_world::SensorId::Rect(zone)),
        (169.0 / 120.0, true, collide_world::SensorId::Shape(coin)),
        (191.0 / 120.0, false, collide_world::SensorId::Shape(coin)),
        (234.0 / 120.0, true, collide_world::SensorId::Cell(cell)),
        (266.0 / 120.0, false, collide_world::SensorId::Cell(cell)),
    ];
    assert_eq!(log.len(), expect.len(), "{log:?}");
    for ((t, enter, s), (want, e_enter, e_s)) in log.iter().zip(expect) {
        assert_eq!((*enter, *s), (e_enter, e_s), "{log:?}");
        assert!(
            (t - want).abs() < 1e-9,
            "{s:?} at {t}, expected {want}: {log:?}"
        );
    }
}

/// A character falling from rest under gravity through a sensor cell: it enters when its
/// box's bottom reaches the cell's top and leaves when its top passes the cell's bottom, at
/// the roots of the parabola (1e-9), whatever the step size.
#[test]
fn a_falling_character_crosses_a_sensor_cell_at_the_parabolas_roots() {
    for dt in [1.0 / 60.0, 1.0 / 7.0] {
        let rows = [
            "          ",
            "          ",
            "          ",
            "    s     ",
            "          ",
            "          ",
            "##########",
        ];
        let g = 1000.0;
        let mut w = world(Vec2::new(200.0, 140.0), Vec2::new(0.0, g), &rows, 20.0);
        w.set_config(StepConfig { dt, ..*w.config() }).unwrap();
        // Box [84, 96] × [0, 20]: its bottom reaches the cell's top (y = 60) after 40 units,
        // its top passes the cell's bottom (y = 80) after 80 units.
        let id = character(&mut w, Vec2::new(90.0, 10.0), Vec2::new(6.0, 10.0), |_| {});
        let mut log = Vec::new();
        while w.time() < 0.5 {
            let t0 = w.time();
            for e in w.step().to_vec() {
                match e {
                    Event::CharacterSensorEnter { toi, character, .. } if character == id => {
                        log.push((true, t0 + toi));
                    }
                    Event::CharacterSensorExit { toi, character, .. } if character == id => {
                        log.push((false, t0 + toi));
                    }
                    _ => {}
                }
            }
        }
        let root = |d: f64| (2.0 * d / g).sqrt();
        assert_eq!(log.len(), 2, "dt {dt}: {log:?}");
        assert!(
            log[0].0 && (log[0].1 - root(40.0)).abs() < 1e-9,
            "dt {dt}: {log:?}"
        );
        assert!(
            !log[1].0 && (log[1].1 - root(80.0)).abs() < 1e-9,
            "dt {dt}: {log:?}"
        );
    }
}

/// Random open levels with random kinematic platforms (up to 10⁴ units/s, turning at random
/// steps) and random one-way ledges, characters walking and jumping at random: after every
/// step no character is inside a solid cell or static rectangle by more than 1e-9, none that
/// started a step above a one-way ledge it did not drop through ends it below that ledge's
/// top, and a character standing on a platform whose path is clear keeps its place on it.
#[test]
fn platforms_and_one_way_ledges_over_random_levels() {
    let mut rng = XorShift64Star::new(0x0e_1ed9e5);
    let (mut ridden, mut held) = (0, 0);
    for level in 0..60 {
        let (cols, nrows, cell) = (40usize, 24usize, 20.0);
        let rows: Vec<String> = (0..nrows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        let border = r == 0 || c == 0 || r == nrows - 1 || c == cols - 1;
                        let solid = border || (r > 14 && rng.next_f64() < 0.08);
                        if solid {
                            '#'
                        } else {
                            ' '
                        }
                    })
                    .collect()
            })
            .collect();
        let size = Vec2::new(cols as f64 * cell, nrows as f64 * cell);
        let mut w = world(size, Vec2::new(0.0, 1000.0), &as_strs(&rows), cell);
        let mut ledges = Vec::new();
        for k in 0..4 {
            let x = 60.0 + 180.0 * k as f64 + 40.0 * rng.next_f64();
            let y = 120.0 + 120.0 * rng.next_f64();
            let id = w
                .add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(x, y), Vec2::new(x + 100.0, y + 4.0)),
                    kind: RectKind::Static,
                    ..RectDesc::default()
                })
                .unwrap();
            w.set_one_way(Target::Rect(id), true).unwrap();
            ledges.push(id);
        }
        let speed = [30.0, 300.0, 3000.0, 1.0e4][level % 4];
        let lift = w
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(300.0, 60.0), Vec2::new(380.0, 66.0)),
                vel: Vec2::new(speed * (rng.next_f64() - 0.5), 0.0),
                kind: RectKind::Kinematic,
                ..RectDesc::default()
            })
            .unwrap();
        let mut ids = Vec::new();
        // One rider on the lift, the others anywhere clear.
        // On a layer they ignore among themselves: this test is about platforms and ledges
        // (`character_pair.rs` has characters meeting).
        let apart = Surface::DEFAULT.with_filter(Filter::new(2, !2));
        ids.push(character(
            &mut w,
            Vec2::new(340.0, 50.0),
            Vec2::new(6.0, 10.0),
            |d| d.surface = apart,
        ));
        while ids.len() < 6 {
            let p = Vec2::new(
                40.0 + rng.next_f64() * (size.x - 80.0),
                40.0 + rng.next_f64() * 200.0,
            );
            let mut out = Vec::new();
            w.query_aabb(
                &Aabb::new(p - Vec2::new(6.0, 10.0), p + Vec2::new(6.0, 10.0)),
                Filter::ALL,
                &mut out,
            );
            if out.is_empty() {
                ids.push(character(&mut w, p, Vec2::new(6.0, 10.0), |d| {
                    d.snap_distance = 3.0;
                    d.surface = apart;
                }));
            }
        }
        for step in 0..300 {
            // The lift stays inside the world: it turns before reaching a side.
            let r = w.rect(lift).unwrap();
            let next = r.aabb.min.x + r.vel.x * DT;
            if next < 30.0 || next + 80.0 > size.x - 30.0 || rng.next_f64() < 0.02 {
                let v = r.vel;
                w.set_rect_velocity(lift, -v).unwrap();
            }
            for (k, &id) in ids.iter().enumerate().skip(1) {
                let c = *w.character(id).unwrap();
                if step % 15 == k {
                    let vx = (rng.next_f64() - 0.5) * 600.0;
                    let vy = if c.on_ground() && rng.next_f64() < 0.4 {
                        -600.0
                    } else {
                        c.vel.y
                    };
                    w.set_character_velocity(id, Vec2::new(vx, vy)).unwrap();
                    w.set_character_drop_through(id, rng.next_f64() < 0.1)
                        .unwrap();
                }
            }
            let before: Vec<_> = ids.iter().map(|&id| *w.character(id).unwrap()).collect();
            let lift_before = w.rect(lift).unwrap().aabb;
            w.step();
            let lift_now = w.rect(lift).unwrap().aabb;
            for (c0, &id) in before.iter().zip(&ids) {
                let c = w.character(id).unwrap();
                assert!(
                    !overlaps_solid_static(&w, &c.aabb(), 1e-9),
                    "level {level} step {step}: inside at {:?}",
                    c.pos
                );
                if c0.drop_through {
                    continue;
                }
                for &l in &ledges {
                    let la = w.rect(l).unwrap().aabb;
                    let across = c0.aabb().max.x > la.min.x
                        && c0.aabb().min.x < la.max.x
                        && c.aabb().max.x > la.min.x
                        && c.aabb().min.x < la.max.x;
                    if across && c0.aabb().max.y <= la.min.y {
                        held += 1;
                        assert!(c.aabb().max.y <= la.min.y + 1e-9, "level {level} step {step}: fell through a one-way ledge from {:?} to {:?}", c0.pos, c.pos);
                    }
                }
            }
            // The rider, while it stands on the lift and the lift's motion is clear of walls.
            let rider0 = before[0];
            let rider = w.character(ids[0]).unwrap();
            if rider0
                .ground
                .is_some_and(|g| g.target == Target::Rect(lift))
                && step < 60
            {
                let d = lift_now.min - lift_before.min;
                let expected = rider0.pos.x + d.x;
                let clear = rider.ground.is_some_and(|g| g.target == Target::Rect(lift));
                if clear {
                    ridden += 1;
                    assert!(
                        (rider.pos.x - expected).abs() <= 1e-9 * expected.abs(),
                        "level {level} step {step}: the rider slipped"
                    );
                    assert_eq!(rider.aabb().max.y, lift_now.min.y);
                }
            }
        }
    }
    // The checks ran: character-steps over a ledge, steps riding the lift.
    assert!(held > 1000 && ridden > 1000, "held {held}, ridden {ridden}");
}

/// [`overlaps_solid`] without kinematic rectangles (which may move into a character and
/// squeeze it).
fn overlaps_solid_static(w: &World, b: &Aabb, tol: f64) -> bool {
    let inner = Aabb::new(b.min + tol, b.max - tol);
    let mut out = Vec::new();
    w.query_aabb(&inner, Filter::ALL, &mut out);
    out.iter().any(|t| match t {
        Target::Cell(_) | Target::Shape(_) => true,
        Target::Rect(id) => w
            .rect(*id)
            .is_some_and(|r| r.kind == RectKind::Static && !w.is_one_way(*t)),
        _ => false,
    })
}
