//! Sensor rectangles that report rectangles (`crates/world/src/world/rect_sensor.rs`): a static or
//! kinematic rectangle entering and leaving a sensor at the exact times of the slab test,
//! edits between steps reported at the next step's start, layers, snapshots.

use collide_world::Filter;
use collide_world::{Aabb, Event, RectDesc, RectId, RectKind, StepConfig, Surface, Walls, World};
use glam::DVec2;

const DT: f64 = 1.0 / 64.0;

fn world() -> World {
    let config = StepConfig {
        dt: DT,
        ..StepConfig::default()
    };
    World::new(DVec2::new(1000.0, 1000.0), Walls::ALL, config).expect("a valid world")
}

fn rect(min: DVec2, max: DVec2, vel: DVec2, kind: RectKind) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(min, max),
        vel,
        kind,
        ..RectDesc::default()
    }
}

/// A sensor rectangle from `min` to `max` moving at `vel` (a kinematic one).
fn sensor(min: DVec2, max: DVec2, vel: DVec2) -> RectDesc {
    RectDesc {
        surface: Surface::SENSOR,
        ..rect(min, max, vel, RectKind::Kinematic)
    }
}

/// The sensor–rectangle events of `steps` steps, each with its absolute time.
fn sensor_events(w: &mut World, steps: usize) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    for _ in 0..steps {
        let t0 = w.time();
        for &e in w.step() {
            match e {
                Event::SensorRectEnter { toi, .. } | Event::SensorRectExit { toi, .. } => {
                    out.push((t0 + toi, e));
                }
                _ => {}
            }
        }
    }
    out
}

fn enter(sensor: RectId, rect: RectId) -> impl Fn(&Event) -> bool {
    move |e| matches!(*e, Event::SensorRectEnter { sensor: s, rect: r, .. } if s == sensor && r == rect)
}

fn exit(sensor: RectId, rect: RectId) -> impl Fn(&Event) -> bool {
    move |e| matches!(*e, Event::SensorRectExit { sensor: s, rect: r, .. } if s == sensor && r == rect)
}

#[test]
fn a_falling_item_meets_a_moving_paddle_at_the_analytic_times() {
    // A 16 × 9 item (a kinematic sensor) falls at 90 units/s from its top at y = 95.5; a
    // paddle 80 × 6 with its top at y = 379 moves right at 30 units/s from x ∈ [100, 180]
    // under it (the item spans x ∈ [192, 208]). Vertically they overlap from
    // (379 − 104.5) / 90 to (385 − 95.5) / 90 s; horizontally from the start (the paddle's
    // right side at 180 + 30t passes 192 at t = 0.4) until its left side passes 208:
    // (208 − 100) / 30 = 3.6 s. So the item enters at 274.5 / 90 ≈ 3.05 s and leaves at
    // 289.5 / 90 ≈ 3.217 s.
    let mut w = world();
    let item = w
        .add_rect(sensor(
            DVec2::new(192.0, 95.5),
            DVec2::new(208.0, 104.5),
            DVec2::new(0.0, 90.0),
        ))
        .expect("valid");
    let paddle = w
        .add_rect(rect(
            DVec2::new(100.0, 379.0),
            DVec2::new(180.0, 385.0),
            DVec2::new(30.0, 0.0),
            RectKind::Kinematic,
        ))
        .expect("valid");
    let events = sensor_events(&mut w, 240);
    assert_eq!(events.len(), 2, "{events:?}");
    let (t_in, e_in) = events[0];
    let (t_out, e_out) = events[1];
    assert!(enter(item, paddle)(&e_in), "{e_in:?}");
    assert!(exit(item, paddle)(&e_out), "{e_out:?}");
    assert!((t_in - 274.5 / 90.0).abs() < 1e-12, "{t_in}");
    assert!((t_out - 289.5 / 90.0).abs() < 1e-12, "{t_out}");
    assert!(w.sensor_rects().is_empty());
}

#[test]
fn a_platform_through_a_static_sensor_enters_when_its_side_crosses_and_leaves_after() {
    // A 40-wide platform moving left at 125 units/s from x ∈ [600, 640] through a static
    // sensor x ∈ [300, 400] (rows overlapping): it enters when its left side reaches 400
    // (200 / 125 = 1.6 s) and leaves when its right side passes 300 (340 / 125 = 2.72 s).
    // The sensor is listed as overlapped in between, and the platform's motion is the motion
    // of the same platform in a world without the sensor.
    let mut w = world();
    let mut plain = world();
    let sensor = w
        .add_rect(sensor(
            DVec2::new(300.0, 100.0),
            DVec2::new(400.0, 200.0),
            DVec2::ZERO,
        ))
        .expect("valid");
    let desc = rect(
        DVec2::new(600.0, 150.0),
        DVec2::new(640.0, 160.0),
        DVec2::new(-125.0, 0.0),
        RectKind::Kinematic,
    );
    let platform = w.add_rect(desc).expect("valid");
    let platform2 = plain.add_rect(desc).expect("valid");
    let mut events = Vec::new();
    let mut inside_steps: usize = 0;
    for _ in 0..200 {
        events.extend(sensor_events(&mut w, 1));
        plain.step();
        if !w.sensor_rects().is_empty() {
            assert_eq!(w.sensor_rects(), &[(sensor, platform)]);
            inside_steps += 1;
        }
        assert_eq!(
            w.rect(platform).unwrap().aabb,
            plain.rect(platform2).unwrap().aabb
        );
    }
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(enter(sensor, platform)(&events[0].1));
    assert!(exit(sensor, platform)(&events[1].1));
    assert!((events[0].0 - 1.6).abs() < 1e-12, "{}", events[0].0);
    assert!((events[1].0 - 2.72).abs() < 1e-12, "{}", events[1].0);
    // Inside at the ends of the steps strictly between the two times.
    let expected = (2.72f64 / DT).ceil() as usize - (1.6f64 / DT).ceil() as usize;
    assert!(
        inside_steps.abs_diff(expected) <= 1,
        "{inside_steps} vs {expected}"
    );
}

#[test]
fn edits_between_steps_are_reported_at_the_next_step_start() {
    let mut w = world();
    let sensor = w
        .add_rect(sensor(
            DVec2::new(300.0, 300.0),
            DVec2::new(400.0, 400.0),
            DVec2::ZERO,
        ))
        .expect("valid");
    let block = w
        .add_rect(rect(
            DVec2::new(10.0, 10.0),
            DVec2::new(20.0, 20.0),
            DVec2::ZERO,
            RectKind::Kinematic,
        ))
        .expect("valid");
    assert!(sensor_events(&mut w, 3).is_empty());
    // Moved into the sensor: entered at the next step's start.
    w.set_rect_aabb(
        block,
        Aabb::new(DVec2::new(350.0, 350.0), DVec2::new(360.0, 360.0)),
    )
    .expect("valid");
    let t = w.time();
    let events = sensor_events(&mut w, 2);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(enter(sensor, block)(&events[0].1));
    assert_eq!(events[0].0, t);
    assert_eq!(w.sensor_rects(), &[(sensor, block)]);
    // Made to collide with nothing: it leaves at the next step's start.
    w.set_rect_layers(block, 1, 0).expect("valid");
    let t = w.time();
    let events = sensor_events(&mut w, 1);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(exit(sensor, block)(&events[0].1));
    assert_eq!(events[0].0, t);
    w.set_rect_layers(block, 1, u32::MAX).expect("valid");
    assert_eq!(sensor_events(&mut w, 1).len(), 1, "entered again");
    // Removed: its exit comes at the next step's start, then nothing.
    w.remove_rect(block).expect("present");
    let t = w.time();
    let events = sensor_events(&mut w, 3);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(exit(sensor, block)(&events[0].1));
    assert_eq!(events[0].0, t);
    assert!(w.sensor_rects().is_empty());
}

#[test]
fn a_sensor_reports_only_the_rectangles_its_filter_collides_with() {
    // Two platforms cross the sensor side by side; the sensor's mask takes layer 2 only.
    let mut w = world();
    let sensor = w
        .add_rect(RectDesc {
            surface: Surface::SENSOR.with_filter(Filter::new(1, 2)),
            ..sensor(
                DVec2::new(300.0, 0.0),
                DVec2::new(310.0, 1000.0),
                DVec2::ZERO,
            )
        })
        .expect("valid");
    let seen = w
        .add_rect(RectDesc {
            surface: Surface::DEFAULT.with_filter(Filter::new(2, u32::MAX)),
            ..rect(
                DVec2::new(100.0, 100.0),
                DVec2::new(120.0, 110.0),
                DVec2::new(200.0, 0.0),
                RectKind::Kinematic,
            )
        })
        .expect("valid");
    w.add_rect(rect(
        DVec2::new(100.0, 200.0),
        DVec2::new(120.0, 210.0),
        DVec2::new(200.0, 0.0),
        RectKind::Kinematic,
    ))
    .expect("valid");
    let events = sensor_events(&mut w, 128);
    // Enters at (300 − 120) / 200 = 0.9 s, leaves at (310 − 100) / 200 = 1.05 s.
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(enter(sensor, seen)(&events[0].1));
    assert!((events[0].0 - 0.9).abs() < 1e-12);
    assert!(exit(sensor, seen)(&events[1].1));
    assert!((events[1].0 - 1.05).abs() < 1e-12);
}

#[test]
fn a_snapshot_taken_inside_a_sensor_continues_bit_identically() {
    // Several items fall through a paddle; a snapshot is taken while some are inside it.
    let mut w = world();
    w.add_rect(rect(
        DVec2::new(100.0, 500.0),
        DVec2::new(900.0, 520.0),
        DVec2::new(10.0, 0.0),
        RectKind::Kinematic,
    ))
    .expect("valid");
    for i in 0..12 {
        let x = 110.0 + 60.0 * f64::from(i);
        let y = 400.0 - 7.0 * f64::from(i);
        w.add_rect(sensor(
            DVec2::new(x, y),
            DVec2::new(x + 16.0, y + 9.0),
            DVec2::new(0.0, 80.0 + f64::from(i)),
        ))
        .expect("valid");
    }
    let mut steps = 0;
    while w.sensor_rects().len() < 2 {
        w.step();
        steps += 1;
        assert!(steps < 500, "the items reach the paddle");
    }
    let snap = w.snapshot();
    let mut straight = w.clone();
    let a = sensor_events(&mut straight, 120);
    // Restored into a fresh world of the same shape.
    let mut restored = world();
    restored.restore(&snap).expect("the same world shape");
    assert_eq!(restored.state_hash(), w.state_hash());
    let b = sensor_events(&mut restored, 120);
    assert_eq!(a.len(), b.len());
    assert!(a.len() >= 12, "every item entered or left: {}", a.len());
    for ((ta, ea), (tb, eb)) in a.iter().zip(&b) {
        assert_eq!(ta.to_bits(), tb.to_bits());
        assert_eq!(ea, eb);
    }
    assert_eq!(restored.state_hash(), straight.state_hash());
}
