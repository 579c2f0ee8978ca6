//! Characters meeting characters (`collide_world::Character`): each is an immovable box to
//! the one moving, met at the exact time of impact with no skin gap: a walker stops at
//! another's face, a faller lands on another's head and stands on it (carried as it walks),
//! a platform squeezes a character against another, filters that ignore each other pass
//! through bit for bit, and over random levels no two colliding characters ever overlap.

use crate::build::{config, world_with};
use collide_world::rng::XorShift64Star;
use collide_world::{
    Aabb, Body, CharacterDesc, CharacterId, Contact, Event, Filter, Grid, RectDesc, RectKind,
    Surface, Target, Vec2, Walls, World,
};

const DT: f64 = 1.0 / 60.0;

/// A closed world of `size` under `gravity` with a grid of `rows` (cells of `cell` units).
fn level(size: Vec2, gravity: Vec2, rows: &[&str], cell: f64) -> World {
    let mut w = world_with(size, Walls::ALL, config(DT, gravity));
    if !rows.is_empty() {
        w.set_grid(Grid::from_rows(cell, Vec2::ZERO, rows).expect("valid rows"));
    }
    w
}

/// A character at `pos` of half size `half` with `filter`; the other fields default.
fn add(w: &mut World, pos: Vec2, half: Vec2, filter: Filter) -> CharacterId {
    w.add_character(CharacterDesc {
        pos,
        half_extents: half,
        surface: Surface::DEFAULT.with_filter(filter),
        ..CharacterDesc::default()
    })
    .expect("a valid character")
}

/// Rows of `cols` empty columns above a floor from row `floor` down to row `rows - 1`.
fn floor_rows(cols: usize, rows: usize, floor: usize) -> Vec<String> {
    (0..rows)
        .map(|r| if r >= floor { "#" } else { " " }.repeat(cols))
        .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The contacts of character `id` in `events`.
fn contacts_of(events: &[Event], id: CharacterId) -> Vec<Contact> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Contact(c) if c.body == Body::Character(id) => Some(c),
            _ => None,
        })
        .collect()
}

/// How deep boxes `a` and `b` overlap: the lesser of their overlaps on x and y (≤ 0 apart or
/// touching).
fn depth(a: &Aabb, b: &Aabb) -> f64 {
    let o = a.max.min(b.max) - a.min.max(b.min);
    o.x.min(o.y)
}

/// Whether box `b` shrunk by `tol` on every side meets a solid cell or a static rectangle.
fn inside_level(w: &World, b: &Aabb, tol: f64) -> bool {
    let inner = Aabb::new(b.min + tol, b.max - tol);
    let mut out = Vec::new();
    w.query_aabb(&inner, Filter::ALL, &mut out);
    out.iter().any(|t| match t {
        Target::Cell(_) | Target::Shape(_) => true,
        Target::Rect(id) => w.rect(*id).is_some_and(|r| r.kind == RectKind::Static),
        _ => false,
    })
}

/// On a floor at y = 300, a character (half 8 × 12, right face at x = 108) walks right at
/// 90 units/s toward one standing with its left face at x = 192: it meets it after
/// 84 / 90 s, at the other's face (distance 0), reports the contact there, and stays there
/// while it keeps walking; the standing one does not move.
#[test]
fn a_walker_stops_exactly_at_a_standing_characters_face() {
    let rows = floor_rows(20, 20, 15);
    let mut w = level(
        Vec2::new(400.0, 400.0),
        Vec2::new(0.0, 1000.0),
        &strs(&rows),
        20.0,
    );
    let half = Vec2::new(8.0, 12.0);
    let a = add(&mut w, Vec2::new(100.0, 288.0), half, Filter::DEFAULT);
    let b = add(&mut w, Vec2::new(200.0, 288.0), half, Filter::DEFAULT);
    assert!(w.character(a).unwrap().on_ground() && w.character(b).unwrap().on_ground());
    let expected = 84.0 / 90.0;
    let mut met = None;
    for _ in 0..120 {
        w.set_character_velocity(a, Vec2::new(90.0, 0.0)).unwrap();
        let t0 = w.time();
        let hits = contacts_of(w.step(), a);
        for h in hits {
            assert_eq!(h.other, Target::Character(b), "{h:?}");
            assert_eq!(h.normal, Vec2::new(-1.0, 0.0));
            if met.is_none() {
                met = Some(t0 + h.toi);
                assert!((h.speed - 90.0).abs() < 1e-9, "met at {}", h.speed);
            }
        }
        let ca = w.character(a).unwrap();
        let cb = w.character(b).unwrap();
        assert!(
            ca.aabb().max.x <= 192.0 + 1e-9,
            "went into it: {:?}",
            ca.pos
        );
        assert_eq!(cb.pos, Vec2::new(200.0, 288.0), "the standing one moved");
        assert_eq!(ca.pos.y, 288.0, "left the floor");
    }
    let met = met.expect("it met the other character");
    assert!(
        (met - expected).abs() < 1e-9,
        "met at {met}, not {expected}"
    );
    let ca = w.character(a).unwrap();
    assert!((ca.aabb().max.x - 192.0).abs() < 1e-9, "at {:?}", ca.pos);
}

/// A character (half 6 × 10) dropped from rest with its bottom 150 units above the head of
/// one standing on the floor (its top at y = 276) lands at the parabola's root,
/// t = √(2·150/1000), on its head (distance 0), and stands on it: on ground, its ground that
/// character.
#[test]
fn a_faller_lands_on_a_head_at_the_parabolas_root_and_stands_on_it() {
    let rows = floor_rows(20, 20, 15);
    let mut w = level(
        Vec2::new(400.0, 400.0),
        Vec2::new(0.0, 1000.0),
        &strs(&rows),
        20.0,
    );
    let b = add(
        &mut w,
        Vec2::new(200.0, 288.0),
        Vec2::new(8.0, 12.0),
        Filter::DEFAULT,
    );
    let a = add(
        &mut w,
        Vec2::new(203.0, 276.0 - 150.0 - 10.0),
        Vec2::new(6.0, 10.0),
        Filter::DEFAULT,
    );
    let expected = (2.0 * 150.0 / 1000.0_f64).sqrt();
    let mut landed = None;
    for _ in 0..60 {
        let t0 = w.time();
        for h in contacts_of(w.step(), a) {
            assert_eq!(h.other, Target::Character(b));
            assert_eq!(h.normal, Vec2::new(0.0, -1.0));
            assert!(landed.is_none(), "a second contact: {h:?}");
            landed = Some(t0 + h.toi);
        }
    }
    let landed = landed.expect("it landed");
    assert!(
        (landed - expected).abs() < 1e-9,
        "landed at {landed}, not {expected}"
    );
    let ca = w.character(a).unwrap();
    assert!((ca.aabb().max.y - 276.0).abs() < 1e-9, "at {:?}", ca.pos);
    let g = ca.ground.expect("on ground");
    assert_eq!(g.target, Target::Character(b));
    assert_eq!(g.normal, Vec2::new(0.0, -1.0));
    assert_eq!(w.character(b).unwrap().pos, Vec2::new(200.0, 288.0));
}

/// A character standing on another's head is carried as that one walks (to the right and
/// back, whichever of the two is stored first): it keeps its place on the head (the same
/// horizontal offset, its bottom on the head's top), stands on it, and its ground's velocity
/// is the walker's.
#[test]
fn a_rider_is_carried_by_the_character_it_stands_on() {
    for rider_first in [false, true] {
        let rows = floor_rows(20, 20, 15);
        let mut w = level(
            Vec2::new(400.0, 400.0),
            Vec2::new(0.0, 1000.0),
            &strs(&rows),
            20.0,
        );
        let (bpos, apos) = (Vec2::new(200.0, 288.0), Vec2::new(203.0, 266.0));
        let (a, b) = if rider_first {
            let a = add(&mut w, apos, Vec2::new(6.0, 10.0), Filter::DEFAULT);
            (a, add(&mut w, bpos, Vec2::new(8.0, 12.0), Filter::DEFAULT))
        } else {
            let b = add(&mut w, bpos, Vec2::new(8.0, 12.0), Filter::DEFAULT);
            (add(&mut w, apos, Vec2::new(6.0, 10.0), Filter::DEFAULT), b)
        };
        // Added first, the rider found its ground before the other was there.
        w.set_character_position(a, apos).unwrap();
        let ground = w.character(a).unwrap().ground.expect("stands on it");
        assert_eq!(ground.target, Target::Character(b));
        for step in 0..80 {
            let vx = if step < 40 { 60.0 } else { -45.0 };
            w.set_character_velocity(b, Vec2::new(vx, 0.0)).unwrap();
            w.step();
            let ca = w.character(a).unwrap();
            let cb = w.character(b).unwrap();
            assert!(
                (ca.pos.x - cb.pos.x - 3.0).abs() < 1e-9,
                "rider first {rider_first}, step {step}: {:?} on {:?}",
                ca.pos,
                cb.pos
            );
            assert_eq!(ca.aabb().max.y, cb.aabb().min.y, "on the head");
            let g = ca.ground.expect("still on it");
            assert_eq!(g.target, Target::Character(b));
            assert_eq!(g.velocity, Vec2::new(vx, 0.0));
        }
        let cb = w.character(b).unwrap();
        let walked = 40.0 * DT * 60.0 - 40.0 * DT * 45.0;
        assert!((cb.pos.x - 200.0 - walked).abs() < 1e-9);
    }
}

/// With zero gravity, a kinematic platform rising at 60 units/s carries the character on it
/// (half 8 × 12, top at y = 156) into another one held still above (bottom at y = 120): the
/// carry stops at its face after 36 units (step 36, the 0.6 s mark), the squeeze is reported
/// as a platform's, and the two never overlap.
#[test]
fn a_platform_squeezes_a_character_against_another_and_never_pushes_it_through() {
    let mut w = level(Vec2::new(400.0, 400.0), Vec2::ZERO, &[], 20.0);
    let p = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(150.0, 180.0), Vec2::new(250.0, 190.0)),
            vel: Vec2::new(0.0, -60.0),
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .unwrap();
    let half = Vec2::new(8.0, 12.0);
    let a = add(&mut w, Vec2::new(200.0, 168.0), half, Filter::DEFAULT);
    let b = add(&mut w, Vec2::new(204.0, 108.0), half, Filter::DEFAULT);
    assert_eq!(
        w.character(a).unwrap().ground.map(|g| g.target),
        Some(Target::Rect(p))
    );
    let mut first = None;
    for step in 1..=60 {
        let squeezed = w.step().iter().any(|e| {
            matches!(e, Event::Squeezed { body, rect, .. }
                if *body == Body::Character(a) && *rect == p)
        });
        let (ca, cb) = (w.character(a).unwrap(), w.character(b).unwrap());
        assert!(
            depth(&ca.aabb(), &cb.aabb()) <= 1e-9,
            "step {step}: {:?} in {:?}",
            ca.pos,
            cb.pos
        );
        if squeezed && first.is_none() {
            first = Some(step);
            assert!((ca.aabb().min.y - 120.0).abs() < 1e-9, "at {:?}", ca.pos);
        }
    }
    let s = first.expect("the squeeze is reported");
    assert!((36..=37).contains(&s), "squeezed at step {s}");
}

/// Two characters whose filters ignore each other (the walker's mask leaves out the other's
/// layer) walk and fall through each other: the walker's motion is bit for bit the same as
/// in a world without the other one.
#[test]
fn filters_that_ignore_each_other_pass_through_bit_for_bit() {
    let rows = floor_rows(20, 20, 15);
    let make = |with_other: bool| {
        let mut w = level(
            Vec2::new(400.0, 400.0),
            Vec2::new(0.0, 1000.0),
            &strs(&rows),
            20.0,
        );
        let a = add(
            &mut w,
            Vec2::new(100.0, 288.0),
            Vec2::new(8.0, 12.0),
            Filter::new(1, !2),
        );
        if with_other {
            add(
                &mut w,
                Vec2::new(200.0, 288.0),
                Vec2::new(8.0, 12.0),
                Filter::new(2, u32::MAX),
            );
            add(
                &mut w,
                Vec2::new(180.0, 200.0),
                Vec2::new(10.0, 10.0),
                Filter::new(2, u32::MAX),
            );
        }
        (w, a)
    };
    let (mut alone, a1) = make(false);
    let (mut both, a2) = make(true);
    for step in 0..240 {
        for (w, a) in [(&mut alone, a1), (&mut both, a2)] {
            let c = *w.character(a).unwrap();
            let vy = if c.on_ground() && step % 50 == 10 {
                -420.0
            } else {
                c.vel.y
            };
            let vx = if step < 120 { 110.0 } else { -130.0 };
            w.set_character_velocity(a, Vec2::new(vx, vy)).unwrap();
            w.step();
        }
        let (c1, c2) = (alone.character(a1).unwrap(), both.character(a2).unwrap());
        assert_eq!(c1.pos, c2.pos, "step {step}");
        assert_eq!(c1.vel, c2.vel, "step {step}");
        assert_eq!(c1.ground, c2.ground, "step {step}");
    }
}

/// A random level of `cols` × `nrows` wall cells of 16 units: a border, cells scattered
/// below the third row. (Slope cells are left out: a lone character's move and slide among
/// them is `character.rs`'s subject; this level tests characters meeting characters.)
fn random_rows(rng: &mut XorShift64Star, cols: usize, nrows: usize) -> Vec<String> {
    (0..nrows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let border = r == 0 || c == 0 || r == nrows - 1 || c == cols - 1;
                    if border || (r > 3 && rng.next_f64() < 0.12) {
                        '#'
                    } else {
                        ' '
                    }
                })
                .collect()
        })
        .collect()
}

/// Up to `count` characters of random sizes placed where their box meets nothing (neither
/// the level nor another character), a quarter of them on layer 1 ignoring layer 1 (those
/// pass through each other, and meet the rest).
fn populate(w: &mut World, rng: &mut XorShift64Star, count: usize) -> Vec<CharacterId> {
    let size = w.size();
    let mut ids = Vec::new();
    let mut found = Vec::new();
    for _ in 0..2000 {
        if ids.len() == count {
            break;
        }
        let half = Vec2::new(4.0 + 6.0 * rng.next_f64(), 5.0 + 8.0 * rng.next_f64());
        let pos = half + Vec2::new(rng.next_f64(), rng.next_f64()) * (size - half * 2.0);
        found.clear();
        w.query_aabb(&Aabb::new(pos - half, pos + half), Filter::ALL, &mut found);
        if !found.is_empty() {
            continue;
        }
        let filter = if rng.next_f64() < 0.25 {
            Filter::new(2, !2)
        } else {
            Filter::DEFAULT
        };
        let id = w
            .add_character(CharacterDesc {
                pos,
                half_extents: half,
                snap_distance: 4.0 * rng.next_f64(),
                step_height: 6.0 * rng.next_f64(),
                max_slope: if rng.next_f64() < 0.5 { 0.6 } else { 0.9 },
                surface: Surface::DEFAULT.with_filter(filter),
                ..CharacterDesc::default()
            })
            .expect("a valid character");
        ids.push(id);
    }
    ids
}

/// The character `c` stands on, or `c` itself.
fn ground_of(c: &collide_world::Character) -> CharacterId {
    match c.ground.map(|g| g.target) {
        Some(Target::Character(id)) => id,
        _ => c.id,
    }
}

/// Sets random walks and jumps on `ids` (every 8 steps for each, staggered).
fn drive(w: &mut World, rng: &mut XorShift64Star, ids: &[CharacterId], step: usize) {
    for (k, &id) in ids.iter().enumerate() {
        if !(step + k).is_multiple_of(8) {
            continue;
        }
        let c = *w.character(id).unwrap();
        let vx = (rng.next_f64() - 0.5) * 600.0;
        let vy = if c.on_ground() && rng.next_f64() < 0.4 {
            -450.0
        } else {
            c.vel.y
        };
        w.set_character_velocity(id, Vec2::new(vx, vy)).unwrap();
    }
}

/// Over random levels of wall tiles with 12 characters walking and jumping into
/// each other for 240 steps: after every step no two characters that collide overlap by more
/// than 1e-9, none is inside the level by more than 1e-9; some stand on others' heads; a
/// snapshot taken at step 120 continues bit for bit.
#[test]
fn colliding_characters_never_overlap_over_random_levels() {
    crowds(0xc4a7_9a12, 60, (24, 16), 12);
}

/// As [`colliding_characters_never_overlap_over_random_levels`] with 60 characters on wider
/// levels: enough for the step's broad phase over the characters (from 32 on).
#[test]
fn crowds_of_sixty_never_overlap_over_random_levels() {
    crowds(0x60c4_a7e5, 20, (48, 20), 60);
}

/// The property of the two tests above: `levels` random levels of `cells` (columns, rows)
/// with `count` characters.
fn crowds(seed: u64, levels: usize, cells: (usize, usize), count: usize) {
    let mut rng = XorShift64Star::new(seed);
    let mut stood_on_heads = 0;
    let mut met = 0;
    for lvl in 0..levels {
        let rows = random_rows(&mut rng, cells.0, cells.1);
        let size = Vec2::new(cells.0 as f64 * 16.0, cells.1 as f64 * 16.0);
        let mut w = level(size, Vec2::new(0.0, 900.0), &strs(&rows), 16.0);
        let ids = populate(&mut w, &mut rng, count);
        assert!(
            ids.len() >= count * 2 / 3,
            "level {lvl}: room for {}",
            ids.len()
        );
        let mut saved = None;
        for step in 0..240 {
            let prev = w.characters().to_vec();
            drive(&mut w, &mut rng, &ids, step);
            for e in w.step() {
                if let Event::Contact(Contact {
                    body: Body::Character(_),
                    other: Target::Character(_),
                    ..
                }) = e
                {
                    met += 1;
                }
            }
            let cs = w.characters();
            for (i, c) in cs.iter().enumerate() {
                assert!(c.pos.is_finite());
                assert!(
                    !inside_level(&w, &c.aabb(), 1e-9),
                    "level {lvl}, step {step}: {c:?} inside the level (from {:?})\n{:?}\n{:?}\n{}",
                    prev.iter().find(|p| p.id == c.id),
                    w.character(ground_of(c))
                        .map(|g| prev.iter().find(|p| p.id == g.id)),
                    w.character(ground_of(c)),
                    rows.join("\n")
                );
                if matches!(c.ground.map(|g| g.target), Some(Target::Character(_))) {
                    stood_on_heads += 1;
                }
                for o in &cs[i + 1..] {
                    if !c.desc.surface.filter.collides(o.desc.surface.filter) {
                        continue;
                    }
                    let d = depth(&c.aabb(), &o.aabb());
                    assert!(
                        d <= 1e-9,
                        "level {lvl}, step {step}: {c:?} and {o:?} overlap by {d}; from {:?} {:?}",
                        prev.iter().find(|p| p.id == c.id),
                        prev.iter().find(|p| p.id == o.id),
                    );
                }
            }
            if step == 120 {
                saved = Some((w.snapshot(), rng.clone()));
            }
        }
        if lvl % 4 == 0 {
            let (snap, mut rng2) = saved.expect("saved at step 120");
            let mut again = level(size, Vec2::new(0.0, 900.0), &strs(&rows), 16.0);
            again.restore(&snap).expect("the snapshot restores");
            for step in 121..240 {
                drive(&mut again, &mut rng2, &ids, step);
                again.step();
            }
            assert_eq!(again.characters(), w.characters(), "level {lvl}");
            assert_eq!(again.state_hash(), w.state_hash(), "level {lvl}");
        }
    }
    assert!(met > 100, "characters met each other {met} times");
    assert!(
        stood_on_heads > 100,
        "stood on heads {stood_on_heads} times"
    );
}
