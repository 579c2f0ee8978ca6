//! Tiled's Sticker Knight sandbox loads as a collide world: object counts, the ground and the
//! one-way platforms read independently from the raw XML (roxmltree, not the loader), named
//! objects' positions, 500 balls dropped on the ground, and a ball rolled along the flush
//! ground pieces keeping its height.

mod common;

use collide_maps::{MapConfig, ObjectBody, Rule};
use collide_world::Body;
use collide_world::Contact;
use collide_world::{Aabb, BallDesc, CharacterDesc, Event, Vec2, World};

/// Every `<object>` of the map with its layer name, id, box (tile objects are placed by their
/// bottom-left corner) and properties, read from the XML.
struct RawObject {
    layer: String,
    id: String,
    aabb: Aabb,
    props: Vec<(String, String)>,
}

fn raw_objects() -> Vec<RawObject> {
    let text = std::fs::read_to_string(common::sticker_knight()).expect("sandbox.tmx reads");
    let doc = roxmltree::Document::parse(&text).expect("sandbox.tmx is XML");
    let mut out = Vec::new();
    for group in doc.descendants().filter(|n| n.has_tag_name("objectgroup")) {
        let layer = group.attribute("name").unwrap_or_default().to_owned();
        for o in group.children().filter(|n| n.has_tag_name("object")) {
            let num = |k: &str| o.attribute(k).map_or(0.0, |v| v.parse::<f64>().unwrap());
            let (x, y, w, h) = (num("x"), num("y"), num("width"), num("height"));
            let top = if o.attribute("gid").is_some() {
                y - h
            } else {
                y
            };
            let props = o
                .descendants()
                .filter(|n| n.has_tag_name("property"))
                .map(|p| {
                    (
                        p.attribute("name").unwrap().to_owned(),
                        p.attribute("value").unwrap().to_owned(),
                    )
                })
                .collect();
            out.push(RawObject {
                layer: layer.clone(),
                id: o.attribute("id").unwrap().to_owned(),
                aabb: Aabb::new(Vec2::new(x, top), Vec2::new(x + w, top + h)),
                props,
            });
        }
    }
    out
}

fn prop<'a>(o: &'a RawObject, k: &str) -> Option<&'a str> {
    o.props.iter().find(|p| p.0 == k).map(|p| p.1.as_str())
}

#[test]
fn objects_ground_and_one_way_platforms_match_the_file() {
    let raw = raw_objects();
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    assert_eq!(level.name, "sandbox");
    // 79 x 45 tiles of 32 px.
    assert_eq!(level.scene.size, Vec2::new(2528.0, 1440.0));
    assert!(level.scene.grid.is_none());
    // Every object is in the table, in the file's order, with its id.
    assert_eq!(raw.len(), 114);
    assert_eq!(level.objects.len(), raw.len());
    for (o, r) in level.objects.iter().zip(&raw) {
        assert_eq!(
            (o.id.as_str(), o.layer.as_str()),
            (r.id.as_str(), r.layer.as_str())
        );
    }
    // Colliders: the objects with a bodyType; one-way: those floating.
    let colliders: Vec<&RawObject> = raw
        .iter()
        .filter(|o| prop(o, "bodyType").is_some())
        .collect();
    let floating: Vec<&RawObject> = colliders
        .iter()
        .copied()
        .filter(|o| prop(o, "floating") == Some("true"))
        .collect();
    assert_eq!((colliders.len(), floating.len()), (18, 6));
    let mapped = level
        .objects
        .iter()
        .filter(|o| o.body != ObjectBody::None)
        .count();
    assert_eq!(mapped, colliders.len());
    // One-way platforms: one rectangle each, the object's box.
    assert_eq!(level.one_way.len(), floating.len());
    for f in &floating {
        let o = level.object_by_id(&f.id).unwrap();
        assert_eq!(o.rule, Rule::OneWay);
        let ObjectBody::Rects(r) = &o.body else {
            panic!("{:?}", o.body)
        };
        assert_eq!(r.len(), 1);
        assert!(level.one_way.contains(&r[0]));
        assert_eq!(level.scene.rects[r[0]].aabb, f.aabb, "object {}", f.id);
    }
    // The solid pieces are merged into disjoint rectangles covering exactly their union:
    // checked at the centre of every 4 x 4 px square of the map.
    let solid: Vec<Aabb> = colliders
        .iter()
        .filter(|o| prop(o, "floating").is_none())
        .map(|o| o.aabb)
        .collect();
    let merged: Vec<Aabb> = (0..level.scene.rects.len())
        .filter(|i| !level.one_way.contains(i))
        .map(|i| level.scene.rects[i].aabb)
        .collect();
    assert_eq!(merged.len(), 3, "{merged:?}");
    let inside =
        |p: Vec2, b: &Aabb| p.x > b.min.x && p.x < b.max.x && p.y > b.min.y && p.y < b.max.y;
    for i in 0..632 {
        for j in 0..360 {
            let p = Vec2::new(i as f64 * 4.0 + 2.0, j as f64 * 4.0 + 2.0);
            let n = merged.iter().filter(|b| inside(p, b)).count();
            assert_eq!(
                n,
                usize::from(solid.iter().any(|b| inside(p, b))),
                "at {p:?}"
            );
        }
    }
    // The ground's top face: one rectangle from x = 0 to 2528 at y = 991.
    assert!(merged.contains(&Aabb::new(Vec2::new(0.0, 991.0), Vec2::new(2528.0, 1087.0))));
    // friction is reported as ignored on every ground piece that has it.
    let friction = colliders
        .iter()
        .filter(|o| prop(o, "friction").is_some())
        .count();
    assert_eq!(
        level.report.ignored_properties,
        vec![("friction".to_owned(), friction)]
    );
}

#[test]
fn named_and_typed_objects_keep_their_place() {
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    // The exit (type "exit", a 160 x 192 tile object at x 2016, y 991 by its bottom-left).
    let exit = level.object_by_id("57").unwrap();
    assert_eq!(exit.kind, "exit");
    assert_eq!(exit.pos, Vec2::new(2016.0, 991.0));
    assert_eq!(exit.top_left, Vec2::new(2016.0, 799.0));
    assert_eq!(exit.size, Vec2::new(160.0, 192.0));
    assert_eq!(exit.body, ObjectBody::None);
    assert_eq!(
        level.entities().map(|o| o.id.as_str()).collect::<Vec<_>>(),
        ["57"]
    );
    // The hero (from a template that is not in the sample) keeps its own position.
    let hero = level.object_by_id("58").unwrap();
    assert_eq!(hero.pos, Vec2::new(45.0, 979.5));
    assert_eq!(level.report.missing_templates.len(), 3);
    // A rotated castle block keeps its rotation.
    assert_eq!(level.object_by_id("154").unwrap().rotation, -270.0);
    // A missing template is an error when not allowed.
    let strict = MapConfig {
        allow_missing_templates: false,
        ..MapConfig::default()
    };
    let e = collide_maps::load(common::sticker_knight(), None, &strict).unwrap_err();
    assert!(e.to_string().contains("hero.tx"), "{e}");
}

#[test]
fn five_hundred_balls_dropped_on_the_ground() {
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    // Between the bounds walls, above the ground's top (y = 991).
    let region = Aabb::new(Vec2::new(32.0, 0.0), Vec2::new(2496.0, 991.0));
    let c = common::drop_balls(&level, 500, 4.0, region, 150);
    eprintln!("{c:?}");
    assert_eq!(
        (c.embedded, c.overlaps, c.tunnelled, c.above_start, c.balls),
        (0, 0, 0, 0, 500),
        "{c:?}"
    );
    assert!(c.largest_rise <= 1.5, "{c:?}");
}

/// A ball of radius 8 set on the ground's top at x = 100 rolling right at 400 units/s crosses
/// the nine seams of the ten ground pieces (x = 256, 512, 768, 992, 1024, 1248, 1504, 1760,
/// 2016, 2272) and keeps its height to 1e-9 until the right bounds wall.
#[test]
fn a_ball_rolled_along_the_flush_ground_keeps_its_height() {
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    let mut world: World = level.world().unwrap();
    let r = 8.0;
    let y = 991.0 - r;
    let id = world
        .add_ball(BallDesc {
            pos: Vec2::new(100.0, y),
            vel: Vec2::new(400.0, 0.0),
            radius: r,
            ..BallDesc::default()
        })
        .unwrap();
    let mut worst: f64 = 0.0;
    let mut max_x: f64 = 0.0;
    for _ in 0..360 {
        world.step();
        let b = world.ball(id).unwrap();
        worst = worst.max((b.pos.y - y).abs());
        max_x = max_x.max(b.pos.x);
        if b.vel.x < 0.0 {
            break; // bounced off the right bounds wall
        }
    }
    assert!(
        max_x > 2400.0,
        "the ball crossed every seam: reached x = {max_x}"
    );
    assert!(worst <= 1e-9, "height kept to {worst:e}");
}

/// The one-way platforms are one-way rectangles of the level's scene: a ball thrown up from
/// the ground at x = 640 passes from below through floating platform 87 (x 448..704, y
/// 735..831) and then 180 (x 512..768, y 575..671) and comes to rest on 180's top (y = 575 −
/// r); made two-way (`World::set_one_way`), platform 87's underside stops it (the centre never
/// above 831 + r).
#[test]
fn a_ball_thrown_up_through_a_floating_platform_lands_on_it() {
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    let platform = level.object_by_id("180").unwrap();
    assert_eq!(platform.rule, Rule::OneWay);
    let r = 6.0;
    // From the ground's top (991) to just above the platform's top (575): 416 + 2r units up;
    // v² = 2·g·(h + 20) reaches 20 units above the top.
    let rise = 991.0 - 575.0 + 20.0;
    let v = (2.0 * 981.0 * rise as f64).sqrt();
    let ball = BallDesc {
        pos: Vec2::new(640.0, 991.0 - r),
        vel: Vec2::new(0.0, -v),
        radius: r,
        ..BallDesc::default()
    };
    let mut world = level.world().unwrap();
    let id = world.add_ball(ball).unwrap();
    let mut lowest_above: f64 = f64::INFINITY;
    for _ in 0..240 {
        world.step();
        let b = world.ball(id).unwrap();
        lowest_above = lowest_above.min(b.pos.y);
    }
    let b = world.ball(id).unwrap();
    assert!(
        lowest_above < 575.0 - r,
        "it rose above the platform: {lowest_above}"
    );
    assert!(
        (b.pos.y - (575.0 - r)).abs() < 1e-6 && b.vel.length() < 1.0,
        "rests on top: {b:?}"
    );
    // Two-way, the lower platform's underside (y = 831) stops it.
    let mut world = level.world().unwrap();
    for &i in &level.one_way {
        let r = world.rects()[i].id;
        world
            .set_one_way(collide_world::Target::Rect(r), false)
            .unwrap();
    }
    let id = world.add_ball(ball).unwrap();
    let mut highest: f64 = f64::INFINITY;
    for _ in 0..240 {
        world.step();
        highest = highest.min(world.ball(id).unwrap().pos.y);
    }
    assert!(highest >= 831.0 + r - 1e-9, "stopped below: {highest}");
}

/// A character (half size 8 × 12: it passes under the block whose bottom is at y = 959)
/// standing on the ground at x = 100 and running right at 60 to 6000 units/s crosses the nine
/// seams of the ten flush ground pieces with its bottom exactly on the ground's top (y = 991)
/// and no contact up to x = 2400.
#[test]
fn a_character_runs_along_the_flush_ground_without_a_seam_bump() {
    let level = collide_maps::load(common::sticker_knight(), None, &MapConfig::default()).unwrap();
    for speed in [60.0, 600.0, 6000.0] {
        let mut world: World = level.world().unwrap();
        let id = world
            .add_character(CharacterDesc {
                pos: Vec2::new(100.0, 991.0 - 12.0),
                half_extents: Vec2::new(8.0, 12.0),
                vel: Vec2::new(speed, 0.0),
                ..CharacterDesc::default()
            })
            .unwrap();
        assert!(world.character(id).unwrap().on_ground());
        let mut max_x: f64 = 0.0;
        for step in 0..(2400.0 / speed * 60.0) as usize + 2 {
            let hits: Vec<Event> = world
                .step()
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
                .collect();
            let c = world.character(id).unwrap();
            max_x = max_x.max(c.pos.x);
            if c.pos.x < 2400.0 {
                assert!(hits.is_empty(), "{speed} units/s, step {step}: {hits:?}");
            }
            assert_eq!(c.aabb().max.y, 991.0, "{speed} units/s, step {step}");
        }
        assert!(
            max_x > 2400.0,
            "{speed} units/s: crossed every seam, reached x = {max_x}"
        );
    }
}
