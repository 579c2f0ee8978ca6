//! Sensor circles ([`ShapeDesc::sensor_circle`]) and sensor cells ([`Cell::Sensor`]): enter and exit
//! at their exact times (chords of a straight path, roots of a parabola's quartic, a cell's
//! faces and corners), motion bit for bit as without them, layers, the same bits with any
//! thread count, snapshots taken inside a sensor.

use crate::build::{ball, world};
use collide_scenes::arena_scene;
use collide_world::{
    BallDesc, BallId, Cell, CellCoord, Event, Filter, Grid, SensorId, ShapeDesc, Snapshot, Surface,
    World, WorldError,
};
use glam::DVec2;

/// Steps `w` until `t_end` and returns its sensor events with their absolute times.
fn sensor_events(w: &mut World, t_end: f64) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    while w.time() < t_end - 1e-12 {
        let t0 = w.time();
        for &e in w.step() {
            match e {
                Event::SensorEnter { toi, .. } | Event::SensorExit { toi, .. } => {
                    out.push((t0 + toi, e));
                }
                _ => {}
            }
        }
    }
    out
}

/// The balls' positions and velocities, in storage order (what "the same motion" compares:
/// the state hash also covers the sensors and the overlaps).
fn motion(w: &World) -> Vec<(DVec2, DVec2)> {
    w.balls().iter().map(|b| (b.pos, b.vel)).collect()
}

/// The first `t` in `[lo, hi]` where `f` changes sign, by bisection to the last bit (`f(lo)`
/// and `f(hi)` of opposite signs).
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let s = f(lo).signum();
    assert_ne!(s, f(hi).signum(), "no sign change in [{lo}, {hi}]");
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid).signum() == s {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn a_sensor_circle_reports_the_chord_times_of_a_straight_path() {
    // A ball of radius 5 from (20, 110) moving right at 100 past a sensor disc of radius 30 at
    // (200, 100): the centres are 35 apart when the ball's centre is √(35² − 10²) = √1125 from
    // x = 200, so it enters at t = (180 − √1125)/100 and leaves at t = (180 + √1125)/100,
    // touching the disc at centre + 30·(ball − centre)/35. Its path is the path of the same
    // ball in a world without the sensor, bit for bit.
    let size = DVec2::new(400.0, 200.0);
    let mut with = world(size, 1.0 / 60.0, DVec2::ZERO);
    let mut without = with.clone();
    let d = ball(DVec2::new(20.0, 110.0), DVec2::new(100.0, 0.0), 5.0);
    let b = with.add_ball(d).expect("valid");
    without.add_ball(d).expect("valid");
    let s = with
        .add_shape(ShapeDesc::sensor_circle(DVec2::new(200.0, 100.0), 30.0))
        .expect("valid");
    let mut events = Vec::new();
    while with.time() < 3.0 {
        let t0 = with.time();
        for &e in with.step() {
            events.push((t0, e));
        }
        without.step();
        assert_eq!(motion(&with), motion(&without));
    }
    let sensor: Vec<(f64, Event)> = events
        .iter()
        .filter_map(|&(t0, e)| match e {
            Event::SensorEnter { toi, .. } | Event::SensorExit { toi, .. } => Some((t0 + toi, e)),
            _ => None,
        })
        .collect();
    // Bounces off the side walls bring it back through the disc: the first two events.
    assert!(sensor.len() >= 2, "{sensor:?}");
    let chord = 1125f64.sqrt();
    let (t_in, t_out) = ((180.0 - chord) / 100.0, (180.0 + chord) / 100.0);
    let Event::SensorEnter {
        ball: eb,
        sensor: es,
        point,
        ..
    } = sensor[0].1
    else {
        panic!("{sensor:?}");
    };
    assert_eq!((eb, es), (b, SensorId::Shape(s)));
    assert!(
        (sensor[0].0 - t_in).abs() < 1e-12,
        "{} vs {t_in}",
        sensor[0].0
    );
    let centre = DVec2::new(20.0 + 100.0 * t_in, 110.0);
    let expect = DVec2::new(200.0, 100.0) + (centre - DVec2::new(200.0, 100.0)) * (30.0 / 35.0);
    assert!((point - expect).length() < 1e-9, "{point} vs {expect}");
    assert!(matches!(sensor[1].1, Event::SensorExit { ball, sensor, .. }
            if ball == b && sensor == SensorId::Shape(s)));
    assert!(
        (sensor[1].0 - t_out).abs() < 1e-12,
        "{} vs {t_out}",
        sensor[1].0
    );
}

#[test]
fn a_falling_ball_enters_and_leaves_a_sensor_circle_at_the_roots_of_its_quartic() {
    // Gravity 100 down; a ball of radius 2 from (100, 10) thrown right at 30: centre
    // (100 + 30t, 10 + 50t²). A sensor disc of radius 20 at (140, 150): the circles touch
    // when (30t − 40)² + (50t² − 140)² = 22². The centre reaches y = 150 at t = √2.8, 10.2 from
    // the disc's centre: the entry is the root before, the exit the root after (bisection of
    // the quartic here, independent of the library's solver).
    let mut w = world(DVec2::new(400.0, 400.0), 1.0 / 64.0, DVec2::new(0.0, 100.0));
    let mut without = w.clone();
    let d = ball(DVec2::new(100.0, 10.0), DVec2::new(30.0, 0.0), 2.0);
    w.add_ball(d).expect("valid");
    without.add_ball(d).expect("valid");
    w.add_shape(ShapeDesc::sensor_circle(DVec2::new(140.0, 150.0), 20.0))
        .expect("valid");
    let f = |t: f64| {
        let (dx, dy) = (30.0 * t - 40.0, 50.0 * t * t - 140.0);
        dx * dx + dy * dy - 22.0 * 22.0
    };
    let mid = 2.8f64.sqrt();
    let (t_in, t_out) = (bisect(f, 0.0, mid), bisect(f, mid, 3.0));
    let events = sensor_events(&mut w, 2.5);
    let kinds: Vec<&str> = events.iter().map(|(_, e)| e.kind()).collect();
    assert_eq!(kinds, ["sensor_enter", "sensor_exit"], "{events:?}");
    assert!((events[0].0 - t_in).abs() < 1e-9, "{events:?} vs {t_in}");
    assert!((events[1].0 - t_out).abs() < 1e-9, "{events:?} vs {t_out}");
    while without.time() < w.time() - 1e-12 {
        without.step();
    }
    assert_eq!(motion(&w), motion(&without));
}

/// A world of 200 × 200 with a 20 × 20 grid of 10-unit cells from `rows` (row 0 first).
fn grid_world(rows: &[&str], gravity: DVec2) -> World {
    let mut w = world(DVec2::new(200.0, 200.0), 1.0 / 60.0, gravity);
    w.set_grid(Grid::from_rows(10.0, DVec2::ZERO, rows).expect("valid rows"));
    w
}

#[test]
fn sensor_cells_report_each_square_at_its_faces_and_corners() {
    // Cells (5, 5) and (6, 5) are sensors: squares [50, 60] × [50, 60] and [60, 70] × [50, 60].
    // A ball of radius 3 along y = 55 from x = 10 at 100: it enters (5, 5) when x + 3 = 50
    // (t = 0.37), enters (6, 5) when x + 3 = 60 (0.47), leaves (5, 5) when x − 3 = 60 (0.53)
    // and (6, 5) when x − 3 = 70 (0.63). A second ball along y = 62, 2 below the squares'
    // bottom, only grazes their corners: it enters (5, 5) when its centre is 3 from the
    // corner (50, 60), x = 50 − √5, and leaves (6, 5) when it is 3 past the corner (70, 60),
    // x = 70 + √5 (it is in both squares from x = 60 − √5 to 60 + √5).
    let mut rows = vec!["                    "; 20];
    rows[5] = "     ab             ";
    let mut w = grid_world(&rows, DVec2::ZERO);
    let a = w
        .add_ball(ball(DVec2::new(10.0, 55.0), DVec2::new(100.0, 0.0), 3.0))
        .expect("valid");
    let b = w
        .add_ball(ball(DVec2::new(10.0, 62.0), DVec2::new(100.0, 0.0), 3.0))
        .expect("valid");
    assert_eq!(
        w.grid().unwrap().cell(CellCoord::new(6, 5)),
        Cell::Sensor(b'b')
    );
    let mut without = grid_world(&["                    "; 20], DVec2::ZERO);
    without
        .add_ball(ball(DVec2::new(10.0, 55.0), DVec2::new(100.0, 0.0), 3.0))
        .expect("valid");
    without
        .add_ball(ball(DVec2::new(10.0, 62.0), DVec2::new(100.0, 0.0), 3.0))
        .expect("valid");
    let events = sensor_events(&mut w, 1.0);
    let of = |id: BallId| -> Vec<(f64, &str, SensorId)> {
        events
            .iter()
            .filter_map(|&(t, e)| match e {
                Event::SensorEnter { ball, sensor, .. }
                | Event::SensorExit { ball, sensor, .. }
                    if ball == id =>
                {
                    Some((t, e.kind(), sensor))
                }
                _ => None,
            })
            .collect()
    };
    let (c5, c6) = (
        SensorId::Cell(CellCoord::new(5, 5)),
        SensorId::Cell(CellCoord::new(6, 5)),
    );
    let r5 = 5f64.sqrt();
    let expect = |list: Vec<(f64, &str, SensorId)>, want: [(f64, &str, SensorId); 4]| {
        assert_eq!(list.len(), 4, "{list:?}");
        for (got, want) in list.iter().zip(want) {
            assert_eq!((got.1, got.2), (want.1, want.2), "{list:?}");
            assert!((got.0 - want.0).abs() < 1e-12, "{list:?} vs {want:?}");
        }
    };
    expect(
        of(a),
        [
            (0.37, "sensor_enter", c5),
            (0.47, "sensor_enter", c6),
            (0.53, "sensor_exit", c5),
            (0.63, "sensor_exit", c6),
        ],
    );
    expect(
        of(b),
        [
            ((40.0 - r5) / 100.0, "sensor_enter", c5),
            ((50.0 - r5) / 100.0, "sensor_enter", c6),
            ((50.0 + r5) / 100.0, "sensor_exit", c5),
            ((60.0 + r5) / 100.0, "sensor_exit", c6),
        ],
    );
    while without.time() < w.time() - 1e-12 {
        without.step();
    }
    assert_eq!(motion(&w), motion(&without));
}

#[test]
fn a_falling_ball_crosses_a_row_of_sensor_cells_at_the_parabola_times() {
    // Gravity 100 down; a ball of radius 2 dropped from rest at (105, 12) over a row of sensor
    // cells at y in [100, 110]: centre y = 12 + 50t², it enters when y + 2 = 100,
    // t = √(86/50), and leaves when y − 2 = 110, t = √(100/50). A floor of walls at row 19.
    let mut rows = vec!["                    "; 20];
    rows[10] = "ssssssssssssssssssss";
    rows[19] = "####################";
    let mut w = grid_world(&rows, DVec2::new(0.0, 100.0));
    let c = w
        .add_ball(ball(DVec2::new(105.0, 12.0), DVec2::ZERO, 2.0))
        .expect("valid");
    let events = sensor_events(&mut w, 2.2);
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        matches!(events[0].1, Event::SensorEnter { ball, sensor, .. }
        if ball == c && sensor == SensorId::Cell(CellCoord::new(10, 10)))
    );
    assert!(
        (events[0].0 - (86.0f64 / 50.0).sqrt()).abs() < 1e-9,
        "{events:?}"
    );
    assert_eq!(events[1].1.kind(), "sensor_exit");
    assert!((events[1].0 - 2f64.sqrt()).abs() < 1e-9, "{events:?}");
}

/// The arena (1000 × 1000, a ring and scattered walls of 25-unit cells) with sensor circles
/// and a band of sensor cells, or the same world without them (`sensors` false).
fn arena_with_sensors(balls: usize, seed: u64, sensors: bool) -> World {
    let mut w = World::from_scene(&arena_scene(balls, 200.0, seed)).expect("builds");
    if sensors {
        for (x, y, r) in [
            (300.0, 300.0, 60.0),
            (700.0, 450.0, 90.0),
            (500.0, 750.0, 40.0),
        ] {
            w.add_shape(ShapeDesc::sensor_circle(DVec2::new(x, y), r))
                .expect("valid");
        }
        let g = w.grid().expect("a grid").clone();
        for row in 8..14 {
            for col in 1..39 {
                let c = CellCoord::new(col, row);
                if g.cell(c) == Cell::Empty {
                    w.set_cell(c, Cell::Sensor(b'z'));
                }
            }
        }
    }
    w
}

#[test]
fn sensors_change_no_ball_of_a_busy_arena() {
    // 400 balls at 200 units/s colliding with each other and the walls, with and without three
    // sensor circles and a band of sensor cells: the same positions and velocities, bit for
    // bit, at every step, and many crossings reported.
    let mut with = arena_with_sensors(400, 7, true);
    let mut without = arena_with_sensors(400, 7, false);
    let (mut enters, mut exits) = (0, 0);
    for _ in 0..150 {
        for e in with.step() {
            match e.kind() {
                "sensor_enter" => enters += 1,
                "sensor_exit" => exits += 1,
                _ => {}
            }
        }
        without.step();
        assert_eq!(motion(&with), motion(&without));
    }
    assert!(
        enters > 300 && exits > 300,
        "{enters} enters, {exits} exits"
    );
}

#[test]
fn sensors_change_no_ball_under_gravity() {
    // 60 balls thrown about under gravity in a box of walls and bricks, bouncing off a bumper,
    // with and without a sensor circle and sensor cells: the same motion bit for bit.
    let mut rows = vec!["#                  #"; 20];
    rows[0] = "####################";
    rows[6] = "#   aaaa    RRR    #";
    rows[7] = "#   aaaa     bbbb  #";
    rows[13] = "#  ##   cccccc  ## #";
    rows[19] = "####################";
    let blank: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| if c.is_ascii_lowercase() { ' ' } else { c })
                .collect()
        })
        .collect();
    let blank: Vec<&str> = blank.iter().map(String::as_str).collect();
    let mut with = grid_world(&rows, DVec2::new(0.0, 300.0));
    let mut without = grid_world(&blank, DVec2::new(0.0, 300.0));
    for w in [&mut with, &mut without] {
        w.add_shape(ShapeDesc::circle(DVec2::new(100.0, 120.0), 8.0))
            .expect("valid");
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for k in 0..60 {
            let pos = DVec2::new(20.0 + 160.0 * next(), 15.0 + 40.0 * next());
            let vel = DVec2::new(300.0 * next() - 150.0, 200.0 * next() - 100.0);
            let _ = w.add_ball(ball(pos, vel, 1.5 + (k % 3) as f64));
        }
    }
    with.add_shape(ShapeDesc::sensor_circle(DVec2::new(60.0, 100.0), 25.0))
        .expect("valid");
    assert_eq!(with.balls().len(), without.balls().len());
    let mut crossings = 0;
    for _ in 0..240 {
        crossings += with
            .step()
            .iter()
            .filter(|e| e.kind() == "sensor_enter")
            .count();
        without.step();
        assert_eq!(motion(&with), motion(&without));
    }
    assert!(crossings > 50, "{crossings} crossings");
}

#[test]
fn a_ball_that_does_not_collide_with_a_sensor_is_not_reported() {
    // Sensor circle and sensor cells on layer 1 only; a ball on layer 2 that does not look at
    // layer 1 crosses both and reports nothing, a default ball on the same path reports both.
    let layer1 = Filter::new(0b01, u32::MAX);
    let other = Filter::new(0b10, 0b10);
    let mut rows = vec!["                    "; 20];
    rows[5] = "          k         ";
    for filtered in [false, true] {
        let mut w = grid_world(&rows, DVec2::ZERO);
        w.set_grid_sensor_layers(layer1).expect("a grid");
        let mut circle = ShapeDesc::sensor_circle(DVec2::new(50.0, 55.0), 10.0);
        circle.surface.filter = layer1;
        let s = w.add_shape(circle).expect("valid");
        w.add_ball(BallDesc {
            surface: Surface {
                filter: if filtered { other } else { Filter::DEFAULT },
                ..Surface::DEFAULT
            },
            ..ball(DVec2::new(10.0, 55.0), DVec2::new(100.0, 0.0), 3.0)
        })
        .expect("valid");
        let events = sensor_events(&mut w, 1.5);
        if filtered {
            assert!(events.is_empty(), "{events:?}");
        } else {
            let ids: Vec<SensorId> = events
                .iter()
                .filter_map(|(_, e)| match *e {
                    Event::SensorEnter { sensor, .. } => Some(sensor),
                    _ => None,
                })
                .collect();
            assert_eq!(
                ids,
                [SensorId::Shape(s), SensorId::Cell(CellCoord::new(10, 5))],
                "{events:?}"
            );
        }
    }
}

#[test]
fn circle_and_cell_sensors_give_the_same_bits_with_1_2_and_3_threads() {
    let w = arena_with_sensors(6000, 4, true);
    let run = |threads: usize| {
        let mut w = w.clone();
        w.set_threads(threads);
        let mut hashes = Vec::new();
        let mut counts = [0usize; 2];
        for _ in 0..40 {
            let events = w.step().to_vec();
            counts[0] += events.iter().filter(|e| e.kind() == "sensor_enter").count();
            counts[1] += events.iter().filter(|e| e.kind() == "sensor_exit").count();
            assert!(!events.iter().any(|e| e.kind() == "iteration_limit"));
            hashes.push(w.state_hash());
        }
        (hashes, counts)
    };
    let (h1, c1) = run(1);
    assert!(c1[0] > 500 && c1[1] > 500, "{c1:?}");
    for threads in [2, 3] {
        let (h, c) = run(threads);
        assert_eq!(c, c1);
        let first = h1.iter().zip(&h).position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads: first different step");
    }
}

#[test]
fn a_snapshot_taken_inside_circle_and_cell_sensors_restores_the_overlaps() {
    // Balls crossing the sensors: a snapshot taken while some are inside (passes with a
    // circle and with cells), restored into a fresh copy, steps on to the same hashes and the
    // same events as the straight run; it goes through JSON, and one written before sensor
    // cells had a filter (no `grid_sensor_filter`) restores the same.
    let mut w = arena_with_sensors(300, 9, true);
    let mut inside = false;
    for _ in 0..200 {
        w.step();
        // Some ball inside the big circle, and some inside a cell of the band.
        let in_circle = w
            .balls()
            .iter()
            .any(|b| (b.pos - DVec2::new(700.0, 450.0)).length() < 90.0 - b.radius);
        let in_band = w
            .balls()
            .iter()
            .any(|b| b.pos.y > 8.0 * 25.0 + b.radius && b.pos.y < 14.0 * 25.0 - b.radius);
        if in_circle && in_band {
            inside = true;
            break;
        }
    }
    assert!(inside, "no ball inside both kinds of sensor");
    let json = serde_json::to_value(w.snapshot()).expect("serializes");
    let mut old = json.clone();
    old.as_object_mut()
        .expect("an object")
        .remove("grid_sensor_filter")
        .expect("the key is written");
    for value in [json, old] {
        let snap: Snapshot = serde_json::from_value(value).expect("deserializes");
        let mut straight = w.clone();
        let mut other = arena_with_sensors(300, 9, true);
        other.restore(&snap).expect("same shape");
        assert_eq!(other.state_hash(), straight.state_hash());
        let mut exits = 0;
        for _ in 0..60 {
            let a = straight.step().to_vec();
            let b = other.step().to_vec();
            assert_eq!(a, b);
            exits += a.iter().filter(|e| e.kind() == "sensor_exit").count();
            assert_eq!(other.state_hash(), straight.state_hash());
        }
        assert!(exits > 20, "{exits} exits");
    }
}

#[test]
fn a_segment_cannot_be_a_sensor() {
    let mut w = world(DVec2::new(100.0, 100.0), 1.0 / 60.0, DVec2::ZERO);
    let mut d = ShapeDesc::segment(DVec2::new(10.0, 10.0), DVec2::new(90.0, 10.0));
    d.surface.sensor = true;
    assert!(matches!(
        w.add_shape(d),
        Err(WorldError::BadShape {
            field: "sensor",
            ..
        })
    ));
    assert!(w.shapes().is_empty());
}

#[test]
fn scenes_declare_sensor_circles_and_sensor_cells() {
    let text = r##"
        [world]
        size = [100, 100]

        [grid]
        cell = 10
        rows = ["#  ", " gh"]
        sensor_layers = [3]
        sensor_mask = [3]

        [[circle]]
        center = [50, 50]
        radius = 10
        sensor = true

        [[circle]]
        center = [80, 80]
        radius = 5
    "##;
    let no_levels = |_: &str| Err(std::io::Error::other("no level files"));
    let scene =
        collide_scene::from_toml_str(text, "sensors.toml", &no_levels).expect("a valid scene");
    let g = scene.grid.as_ref().expect("a grid");
    assert_eq!(g.cells[4], Cell::Sensor(b'g'));
    assert_eq!(g.cells[5], Cell::Sensor(b'h'));
    assert_eq!(g.sensor_filter, Filter::new(0b1000, 0b1000));
    assert_eq!(
        scene
            .shapes
            .iter()
            .map(|s| s.surface.sensor)
            .collect::<Vec<_>>(),
        [true, false]
    );
    let w = World::from_scene(&scene).expect("builds");
    assert_eq!(w.grid().unwrap().sensor_cells(), 2);
    assert!(w.shapes()[0].surface.sensor);
}
